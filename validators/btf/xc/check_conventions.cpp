// XC-CONV: producer conventions consumers rely on (spec btf.md §3.4).
#include <elf.h>

#include <cstring>
#include <optional>
#include <string>
#include <unordered_set>

#include "btf/btf_format.h"
#include "btf/xc/cross_check.h"
#include "btf/xc/xc_rules.h"
#include "core/text.h"
#include "input/kernel_release.h"

namespace elfmeta::btf::xc {
namespace {

// The C base types GCC and clang emit, with their size on LP64 targets; 0
// for the types whose size follows the pointer size.
struct BaseType {
  std::string_view name;
  uint32_t size;
};
constexpr BaseType kBaseTypes[] = {
    {"char", 1}, {"signed char", 1}, {"unsigned char", 1}, {"_Bool", 1}, {"bool", 1},
    {"short int", 2}, {"short unsigned int", 2}, {"short", 2}, {"unsigned short", 2},
    {"int", 4}, {"unsigned int", 4}, {"__ARRAY_SIZE_TYPE__", 4},
    {"long int", 0}, {"long unsigned int", 0}, {"long", 0}, {"unsigned long", 0},
    {"sizetype", 0}, {"ssizetype", 0}, {"bitsizetype", 0},
    {"long long int", 8}, {"long long unsigned int", 8}, {"long long", 8}, {"unsigned long long", 8},
    {"__int128", 16}, {"__int128 unsigned", 16}, {"unsigned __int128", 16},
    {"char16_t", 2}, {"char32_t", 4}, {"wchar_t", 4}, {"char8_t", 1},
};

const BaseType* base_type(std::string_view name) {
  for (const BaseType& b : kBaseTypes)
    if (b.name == name) return &b;
  return nullptr;
}

class ConventionChecker {
 public:
  ConventionChecker(const CrossCheckInput& in, Findings& findings, CrossCheckStats& stats)
      : in_(in), btf_(in.btf), findings_(findings), stats_(stats) {}

  void run() {
    sorted_by_name();
    integer_types();
    array_index_types();
    data_sections();
    aggregate_kind_flags();
    clang_type_tags();
    byte_order_and_pointer_size();
  }

 private:
  bool kernel_btf() const { return in_.artifact.is_vmlinux() || in_.artifact.is_kernel_module(); }

  // XC-CONV-001: anonymous types first, then named ones in strcmp order
  // (of names read up to the kernel's length limit: comparing whole names
  // of lengths 1, 2, ..., N costs N^2).
  void sorted_by_name() {
    std::optional<std::string_view> previous;
    uint32_t previous_id = 0;
    for (uint32_t id = btf_.first_id(); id < btf_.type_count(); ++id) {
      const std::string_view name = xc_name(btf_, btf_.type(id).name_off());
      if (name.empty()) {
        if (!previous) continue;
        report_unsorted(id, "anonymous type after named type " + std::to_string(previous_id));
        return;
      }
      if (previous && previous->compare(name) > 0) {
        report_unsorted(id, "'" + printable(name) + "' sorts before '" + printable(*previous) + "' (type " +
                                std::to_string(previous_id) + ")");
        return;
      }
      previous = name;
      previous_id = id;
    }
    stats_.sorted_by_name = true;
  }

  // Only the kernel's own BTF is looked up by binary search without a check.
  void report_unsorted(uint32_t id, const std::string& what) {
    if (!in_.artifact.is_vmlinux() && in_.artifact.path != "/sys/kernel/btf/vmlinux") return;
    findings_.emit(rules::CONV_001, type_location(in_, id),
                   "not sorted by name from here: " + what + "; name lookups cannot use binary search");
  }

  // XC-CONV-002. The pointer size is that of long (8 unless a 32-bit ELF).
  void integer_types() {
    const uint32_t pointer = in_.artifact.kind == input::ArtifactKind::RawBtf || in_.artifact.elf64 ? 8 : 4;
    for (uint32_t id = btf_.first_id(); id < btf_.type_count(); ++id) {
      const TypeRef t = btf_.type(id);
      if (t.kind() != kInt) continue;
      ++stats_.int_types;
      const std::string_view name = xc_name(btf_, t.name_off());
      const BaseType* b = base_type(name);
      if (!b) {
        if (kernel_btf())
          findings_.emit(rules::CONV_002, type_location(in_, id),
                         "INT '" + printable(name) + "' is not a C base type (kernel BTF holds only those)");
        continue;
      }
      const uint32_t want = b->size ? b->size : (name == "bitsizetype" ? 2 * pointer : pointer);
      if (t.size() != want)
        findings_.emit(rules::CONV_002, type_location(in_, id),
                       "INT '" + printable(name) + "' of " + std::to_string(t.size()) + " bytes; the type is " +
                           std::to_string(want) + " bytes with " + std::to_string(pointer) + "-byte pointers");
    }
  }

  // XC-CONV-003.
  void array_index_types() {
    for (uint32_t id = btf_.first_id(); id < btf_.type_count(); ++id) {
      const TypeRef t = btf_.type(id);
      if (t.kind() != kArray) continue;
      const uint32_t index = t.payload(1);
      if (!btf_.has_type(index)) continue;  // the kernel's BTF-ARRAY rules report it
      const TypeRef it = btf_.type(index);
      const std::string_view name = xc_name(btf_, it.name_off());
      if (it.kind() == kInt && (name == "int" || name == "unsigned int" || name == "__ARRAY_SIZE_TYPE__" ||
                                name == "sizetype" || name == "long unsigned int"))
        continue;
      findings_.emit(rules::CONV_003, type_location(in_, id),
                     "index type " + std::to_string(index) + " is " + std::string(kind_name(it.kind())) + " '" +
                         printable(name) + "'");
    }
  }

  // XC-CONV-004. BPF objects have DATASECs of no ELF section (.kconfig,
  // .ksyms); those are the bpf-object profile's.
  void data_sections() {
    const bool check_sections = in_.artifact.kind != input::ArtifactKind::RawBtf && !in_.artifact.sections.empty() &&
                                in_.artifact.machine != EM_BPF;
    std::unordered_set<NameKey, NameKeyHash> seen;
    for (uint32_t id = btf_.first_id(); id < btf_.type_count(); ++id) {
      const TypeRef t = btf_.type(id);
      if (t.kind() != kDatasec) continue;
      const NameKey key = name_key(btf_, t.name_off());
      const std::string_view name = key.name;
      if (!seen.insert(key).second)
        findings_.emit(rules::CONV_004, type_location(in_, id), "a second DATASEC '" + printable(name) + "'");
      else if (check_sections && !in_.artifact.section(name))
        findings_.emit(rules::CONV_004, type_location(in_, id),
                       "DATASEC '" + printable(name) + "' names no section of " + in_.artifact.name);
    }
  }

  // XC-CONV-005.
  void aggregate_kind_flags() {
    for (uint32_t id = btf_.first_id(); id < btf_.type_count(); ++id) {
      const TypeRef t = btf_.type(id);
      if (!is_aggregate(t.kind()) || !t.kflag()) continue;
      bool bitfield = false;
      for (uint32_t i = 0; i < t.vlen() && !bitfield; ++i) bitfield = member_bitfield_size(member_at(t, i).offset);
      if (!bitfield)
        findings_.emit(rules::CONV_005, type_location(in_, id),
                       std::string(kind_name(t.kind())) + " with kind_flag set has no bitfield member");
    }
  }

  // XC-CONV-007. GCC 15's attribute-style tag (kind_flag 1) is not one.
  // The compiler is looked up only when there are such tags: for an image
  // without .comment that is a scan of .rodata for the banner.
  void clang_type_tags() {
    if (!kernel_btf()) return;
    std::optional<bool> gcc_built;
    for (uint32_t id = btf_.first_id(); id < btf_.type_count(); ++id) {
      const TypeRef t = btf_.type(id);
      if (t.kind() != kTypeTag || t.kflag()) continue;
      const std::string_view name = xc_name(btf_, t.name_off());
      if (name != "user" && name != "rcu" && name != "percpu") continue;
      if (!gcc_built) gcc_built = input::producing_compiler(in_.artifact) == input::Compiler::Gcc;
      if (!*gcc_built) return;
      findings_.emit(rules::CONV_007, type_location(in_, id),
                     "TYPE_TAG '" + printable(name) + "' in BTF of a GCC-built " +
                         (in_.artifact.is_vmlinux() ? "kernel image" : "module") +
                         ": the kernel emits btf_type_tag for clang builds only");
    }
  }

  // XC-CONV-009.
  void byte_order_and_pointer_size() {
    auto order = [](Endian e) { return std::string(e == Endian::Little ? "little-endian" : "big-endian"); };
    const Location whole{in_.artifact.name, btf_section(in_), 0, "", std::nullopt, "", std::nullopt};  // the magic
    if (const Btf* base = btf_.base()) {
      if (base->stored_endian() != btf_.stored_endian())
        findings_.emit(rules::CONV_009, whole,
                       "split BTF is " + order(btf_.stored_endian()) + ", its base " + order(base->stored_endian()));
      const auto mine = long_size(btf_, btf_.first_id()), theirs = long_size(*base, 1);
      if (mine && theirs && *mine != *theirs)
        findings_.emit(rules::CONV_009, whole,
                       "long is " + std::to_string(*mine) + " bytes in the split BTF, " + std::to_string(*theirs) +
                           " in its base");
    }
    // The order the section is stored in: what is checked can be a BPF
    // object's fixed-up copy, which (as libbpf's) is in host order.
    Endian stored = btf_.stored_endian();
    if (const input::Section* s = in_.artifact.section(".BTF"); s && s->data.size() >= 2) {
      if (s->data[0] == 0xeb && s->data[1] == 0x9f) stored = Endian::Big;
      else if (s->data[0] == 0x9f && s->data[1] == 0xeb) stored = Endian::Little;
    }
    if (in_.artifact.kind == input::ArtifactKind::Elf && in_.artifact.endian != stored)
      findings_.emit(rules::CONV_009, whole,
                     ".BTF is " + order(stored) + " in a " + order(in_.artifact.endian) + " ELF file");
  }

  // The size of the first INT named like long from `first` (libbpf's guess
  // of the pointer size).
  static std::optional<uint32_t> long_size(const Btf& btf, uint32_t first) {
    for (uint32_t id = first; id < btf.type_count(); ++id) {
      const TypeRef t = btf.type(id);
      if (t.kind() != kInt) continue;
      const std::string_view name = xc_name(btf, t.name_off());
      if (name == "long int" || name == "long unsigned int" || name == "long" || name == "unsigned long") return t.size();
    }
    return std::nullopt;
  }

  const CrossCheckInput& in_;
  const Btf& btf_;
  Findings& findings_;
  CrossCheckStats& stats_;
};

}  // namespace

void check_conventions(const CrossCheckInput& in, Findings& findings, CrossCheckStats& stats) {
  ConventionChecker(in, findings, stats).run();
}

}  // namespace elfmeta::btf::xc
