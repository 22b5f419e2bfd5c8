// Builds ELF files with ORC tables, as objtool (objects, modules) and the
// kernel's link (images) write them: code sections, .orc_unwind_ip with its
// PC32 relocations or self-relative slots, .orc_unwind, .orc_header,
// .orc_lookup, and the symbols the checks read. Shared by tests, property
// tests and fuzzers; random_orc() generates valid tables.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "orc/orc_format.h"

namespace elfmeta::synth {

class OrcBuilder {
 public:
  // `image`: a linked kernel image (ET_EXEC, sorted, self-relative); else a
  // relocatable object, or a module with `module` set.
  OrcBuilder(orc::Layout layout, bool image, bool module = false);

  struct Code {
    std::string name;
    uint64_t size = 0;
    uint64_t addr = 0;  // images only
  };
  struct Row {
    uint32_t code;  // index into codes()
    uint64_t offset;
    orc::Entry entry;
  };
  struct Function {
    uint32_t code;
    uint64_t offset, size;
    std::string name;
  };

  uint32_t add_code(std::string name, uint64_t size);
  void add_entry(uint32_t code, uint64_t offset, const orc::Entry& e) { rows_.push_back({code, offset, e}); }
  void add_function(uint32_t code, uint64_t offset, uint64_t size, std::string name) {
    functions_.push_back({code, offset, size, std::move(name)});
  }

  bool with_header;     // .orc_header (default: modules and images of layouts with a fingerprint)
  bool with_release = true;  // a banner (images) or vermagic (modules) of the layout's era

  std::vector<uint8_t> build() const;

  orc::Layout layout() const { return layout_; }
  bool image() const { return image_; }
  const std::vector<Code>& codes() const { return codes_; }
  std::vector<Row>& rows() { return rows_; }
  const std::vector<Row>& rows() const { return rows_; }
  const std::vector<Function>& functions() const { return functions_; }
  // The rows in the order they are written: objects in insertion order,
  // images sorted by address with weak entries first among equals.
  std::vector<Row> written_rows() const;

 private:
  orc::Layout layout_;
  bool image_, module_;
  std::vector<Code> codes_;
  std::vector<Row> rows_;
  std::vector<Function> functions_;
};

// The shape of a generated table: code sections of functions (each with a
// prologue, a frame-pointer or stack frame, an epilogue, and maybe padding
// after it). Property tests generate and shrink plans; every plan builds a
// valid table.
struct OrcPlan {
  struct Function {
    uint16_t size = 0;         // bytes after the first 16
    bool frame_pointer = false;
    bool padded = false;
    uint8_t frame_words = 0;   // stack frame size in words, without a frame pointer
  };
  orc::Layout layout = orc::Layout::G4;
  bool image = false, module = false, prefixes = false;
  std::vector<std::vector<Function>> sections;  // up to 4 are built
};
OrcBuilder orc_from_plan(const OrcPlan& plan);
OrcPlan random_orc_plan(std::mt19937_64& rng, orc::Layout layout, bool image, bool module = false, bool prefixes = false);

// A valid table: functions with prologues, frames and epilogues in one to
// three code sections, padding between them, and a terminator at each
// section's end.
// `prefixes`: 16 bytes of call padding before each function, with a
// __pfx_ symbol and the function's entry state (Linux 6.4+ CALL_PADDING).
OrcBuilder random_orc(std::mt19937_64& rng, orc::Layout layout, bool image, bool module = false, bool prefixes = false);

}  // namespace elfmeta::synth
