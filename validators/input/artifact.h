// An input, opened by content: what it is, its sections (bytes), and where
// it came from. Every format's checks read artifacts, never files.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/byte_reader.h"
#include "core/diagnostic.h"
#include "input/input_limits.h"

namespace elfmeta::input {

enum class ArtifactKind { RawBtf, RawSframe, Elf };

struct Section {
  std::string name;
  uint32_t index = 0;  // ELF section header index
  uint32_t type = 0;
  uint64_t flags = 0;
  uint64_t addr = 0;
  uint64_t file_offset = 0;
  uint64_t size = 0;  // sh_size (also for SHT_NOBITS)
  uint32_t link = 0, info = 0;
  uint64_t addralign = 0, entsize = 0;
  std::span<const uint8_t> data;  // empty for SHT_NOBITS
};

// A program header of a linked ELF file.
struct Segment {
  uint32_t type = 0;  // PT_LOAD, PT_GNU_SFRAME, ...
  uint32_t flags = 0;  // PF_R | PF_W | PF_X
  uint64_t offset = 0, vaddr = 0, filesz = 0, memsz = 0, align = 0;
};

struct Artifact {
  std::string path;     // as given
  std::string name;     // for diagnostics: the path's last component
  std::string origin;   // how it was obtained, e.g. "vmlinuz: bzImage payload, zstd"
  ArtifactKind kind = ArtifactKind::RawBtf;
  Endian endian = Endian::Little;

  // ELF only.
  bool elf64 = true;
  uint16_t elf_type = 0;  // ET_REL, ET_EXEC, ET_DYN
  uint16_t machine = 0;
  std::vector<Section> sections;
  std::vector<Segment> segments;

  // A raw blob (RawBtf, RawSframe: a .sframe section's bytes): the whole input.
  std::span<const uint8_t> raw;
  // The recognised bytes, after any decompression: the ELF file or the blob.
  std::span<const uint8_t> content;

  // For /sys/kernel/btf/<module>: the blob its split BTF continues.
  std::optional<std::string> implied_btf_base;

  // The first section of that name, or of that ELF index: O(1) once
  // index_sections() has run (checks look sections up per symbol, per
  // relocation and per record, and libelf accepts hundreds of thousands of
  // sections); a linear search otherwise.
  const Section* section(std::string_view name) const;
  const Section* section_at(uint32_t index) const;  // by ELF index
  bool is_kernel_module() const;  // a .ko: has .gnu.linkonce.this_module or .modinfo
  bool is_vmlinux() const;        // an executable kernel image: has __ksymtab or .BTF and no module info
  // Builds the lookups above once `sections` is complete (the ELF reader
  // calls it). Sections added, removed or renamed afterwards (tests edit
  // artifacts) are not indexed: a different section count makes every
  // lookup linear again; a rename is not noticed.
  void index_sections();

  // Keeps the bytes (file contents, decompressed data, libelf state) alive.
  std::vector<std::shared_ptr<const void>> storage;

 private:
  // Positions in `sections`, which a copy of the artifact shares with the
  // original (pointers would not be).
  struct SectionLookup {
    size_t indexed = SIZE_MAX;  // sections.size() when built; SIZE_MAX: never built
    std::vector<uint32_t> by_index;  // ELF index -> position + 1 (0: no section)
    // (hash of the name, position) of the first section of each name, sorted.
    std::vector<std::pair<uint64_t, uint32_t>> by_name;
    bool module_sections = false, vmlinux_sections = false;
  };
  bool indexed() const { return lookup_.indexed == sections.size(); }
  SectionLookup lookup_;
};

struct OpenResult {
  std::unique_ptr<Artifact> artifact;
  std::string error;  // one line, for stderr, when artifact is null
  // Set when the input was refused by a limit (input_rules.h) rather than
  // unreadable: a finding (the run fails with exit 1), not an unreadable
  // input (exit 2). `error` holds its message too.
  std::optional<Diagnostic> refusal = std::nullopt;
};

// What an input is: recognised by content (Auto), or as the user says
// (`--as btf`, `--as sframe`): then any bytes, even none, are that format's
// raw blob, and a bad magic or a short header is a finding of its checks.
enum class Format { Auto, Btf, Sframe };

struct OpenOptions {
  Format as = Format::Auto;
  // The run's decompression budget and limits; null: the default limits of
  // one artifact, no total.
  DecompressionBudget* budget = nullptr;
  // From how much output the expansion ratio is watched (ExpansionGuard): a
  // kernel image's first 2 MiB can be alignment padding, so 16 MiB in
  // general; a module has no such padding, and its package reader says so.
  uint64_t expansion_floor = uint64_t(16) << 20;
};

// Open a path and recognise its content: raw BTF or SFrame (either byte order), ELF,
// an x86 boot image (bzImage/vmlinuz), or any of those compressed (gzip, xz,
// lzma, bzip2, zstd, lz4).
OpenResult open_input(const std::string& path, const OpenOptions& options = {});
// The same for bytes already in memory (fuzzers, packages).
OpenResult open_bytes(std::string path, std::vector<uint8_t> bytes, const OpenOptions& options = {});

}  // namespace elfmeta::input
