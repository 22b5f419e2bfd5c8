// XC-CTX: whether the context given to a check belongs to its input. The
// symbol checks need the symbols of the very kernel they check, and a
// module's split BTF the very base it was built on; with another kernel's,
// every comparison fails and the findings describe the difference between
// two kernels. Cheap evidence a kernel maintainer would accept decides, and
// a context that does not belong is one error, with the checks that needed
// it not run (never a pass).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "btf/btf.h"
#include "core/findings.h"
#include "input/symbols.h"

namespace elfmeta::btf::xc {

// What decided, in words for the finding; `belongs` stays true when nothing
// could be compared (no evidence is no mismatch).
struct ContextVerdict {
  bool belongs = true;
  std::string evidence;
  // Kallsyms the anchors found moved by KASLR: the distance (file minus
  // image, 0 when not moved or not known) and the lowest moved address (the
  // image's first text symbol, moved), for SymbolIndex::moved_back.
  uint64_t moved_by = 0, moved_from = 0;
};

// ------------------------------------------------------------ kallsyms (XC-CTX-001)

struct KallsymsContext {
  const input::SymbolIndex& kallsyms;       // the --kallsyms file; origin names it
  std::string kallsyms_release;             // "" when the file does not say (kallsyms_file_release)
  const input::SymbolIndex* own = nullptr;  // the image's own symbols (symtab, kallsyms tables); null: none
  std::string image_release;                // the image's banner, the running kernel's for /sys/kernel/btf; ""
  const Btf* btf = nullptr;                 // the input's BTF, for its FUNC names; null: none
};

// The release a kallsyms file is of, as far as its path tells:
// /proc/kallsyms is the running kernel's, System.map-RELEASE names its own.
std::string kallsyms_file_release(const std::string& path);

// In this order: the anchor functions' distances between the image's own
// symbols and the file (when at least 4 are found once on each side), the
// releases (when both are known and differ), the share of FUNC names the
// file has no text symbol for (when there are at least 100).
ContextVerdict judge_kallsyms(const KallsymsContext& c);

// XC-CTX-001 and a note of the checks not run, at `artifact`, when the
// kallsyms are not of the image (the verdict's `belongs` is false then).
ContextVerdict check_kallsyms_context(const KallsymsContext& c, elfmeta::Findings& findings);

// What check_symbols and ORC say of symbols XC-CTX-001 withheld.
inline constexpr std::string_view kKallsymsWithheld = "--kallsyms is not of this image, XC-CTX-001";

// ------------------------------------------------------------ base BTF (XC-CTX-002)

struct SplitBaseContext {
  std::span<const uint8_t> split;  // the split blob as stored (.BTF of a module)
  const Btf& base;                 // the base it is to be read on (the top of a chain)
  std::string base_name;           // the base's file, for the message
  std::string split_release;       // the module's vermagic release, "" unknown
  std::string base_release;        // the base image's banner release, "" unknown
};

// The split blob read on `base`: every name at or past the base's string
// length must start a string of the blob's own and none may lie past them;
// no referenced type id may lie past the base's and the blob's types; where
// the strings say nothing, the releases. A blob that cannot be parsed is no
// evidence (the BTF verifier reports it).
ContextVerdict judge_split_base(const SplitBaseContext& c);

// The XC-CTX-002 finding of one base, for `modules` split blobs that were
// not of it (the evidence is that of the first); its location is `artifact`.
void report_foreign_base(elfmeta::Findings& findings, const std::string& base_name, const std::string& evidence,
                         size_t modules);

}  // namespace elfmeta::btf::xc
