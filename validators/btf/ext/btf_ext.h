// .BTF.ext of a BPF object: a bounded reader (BTF-EXT-001..010) and the
// checks of its records against the object's .BTF and ELF sections and
// symbols (BTF-EXT-011..017). Hostile input never allocates more than the
// section's size in groups.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "btf/btf.h"
#include "btf/ext/btf_ext_format.h"
#include "core/byte_reader.h"
#include "core/findings.h"
#include "input/artifact.h"

namespace elfmeta::btf::ext {

inline constexpr std::string_view kSection = ".BTF.ext";

struct Group {
  uint32_t sec_name_off = 0;
  uint32_t num_info = 0;
  uint64_t offset = 0;  // of the group header in .BTF.ext
};

struct BlockView {
  bool present = false;  // a non-empty block whose record size could be read
  uint64_t start = 0;    // of the rec_size word in .BTF.ext
  uint64_t end = 0;
  uint32_t rec_size = 0;
  std::vector<Group> groups;  // the groups that fit, in order
  bool complete = false;      // every group fits (else checks that need all records are skipped)
};

struct BtfExt {
  Header header;
  ByteReader data;
  BlockView blocks[kBlocks];
  // False when a structural rule failed: libbpf then refuses the whole
  // section (the groups that could be read are still checked).
  bool intact = true;

  const BlockView& block(Block b) const { return blocks[static_cast<int>(b)]; }
  uint64_t record_offset(Block b, const Group& g, uint32_t i) const {
    return g.offset + kGroupHeader + uint64_t(i) * block(b).rec_size;
  }
  // Record i of group g; the parser has checked every record of a listed group fits.
  FuncInfo func_info(const Group& g, uint32_t i) const;
  LineInfo line_info(const Group& g, uint32_t i) const;
  CoreRelo core_relo(const Group& g, uint32_t i) const;
};

// nullopt when not even the header could be read (the finding says why).
std::optional<BtfExt> parse_btf_ext(std::span<const uint8_t> bytes, Endian endian, elfmeta::Findings& f,
                                    const std::string& artifact);

// What the record checks need from the object.
struct ObjectLayout {
  // Executable sections by name.
  std::map<std::string, const input::Section*, std::less<>> code;
  // STT_FUNC symbols: section index -> (value -> name). The names are views
  // into the object's string table: the layout lives no longer than the
  // artifact.
  std::map<uint32_t, std::map<uint64_t, std::string_view>> functions;
  bool have_symtab = false;
};
ObjectLayout object_layout(const input::Artifact& a);

// The record checks. `btf`: the object's .BTF model (null: string and type
// checks are skipped with a note).
void check_records(const BtfExt& ext, const ObjectLayout& layout, const Btf* btf, elfmeta::Findings& f,
                   const std::string& artifact);

// Both, for an artifact with a .BTF.ext section; findings for section .BTF.ext.
void check_btf_ext(const input::Artifact& a, const Btf* btf, uint32_t consumer, DiagnosticSink& sink);

}  // namespace elfmeta::btf::ext
