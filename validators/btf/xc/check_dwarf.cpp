// XC-DW: every named type, function and variable of the BTF against the
// DWARF of the same artifact (spec btf.md §3.2).
//
// The DWARF is read with libdw through libdwfl, which applies the
// relocations of a relocatable object's .debug_* sections. One pass over the
// compile units indexes the named definitions (struct, union, enum, typedef,
// subprogram, CU-scope variable) by kind and name, keeping one entry per
// distinct declaration (name, size, file, line), so that a vmlinux's
// thousands of copies of a header type are one candidate. A BTF type is then
// compared with its candidates until one agrees; only when none does are the
// differences of the closest one reported.
//
// Types are compared as token sequences: both sides render a type reference
// the same way (qualifier sets, pointers, flattened array counts, type tags,
// base types by name and size, aggregates, enums and typedefs by kind and
// name, function prototypes), and anonymous aggregates met on the way are
// compared member by member in turn. Every walk is iterative or depth-capped
// and budgeted: the input controls neither recursion depth nor run time.
#include <dwarf.h>
#include <elf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <libelf.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "btf/btf_format.h"
#include "btf/xc/cross_check.h"
#include "btf/xc/xc_dwarf_rules.h"
#include "btf/xc/xc_rules.h"
#include "input/compressed_dwarf.h"
#include "input/symbols.h"
#include "core/byte_reader.h"
#include "core/findings.h"

namespace elfmeta::btf::xc {
namespace {

// A DWARF name as much of it as xc_name() reads of a BTF name, so that the
// two compare alike.
std::string_view dwarf_name(std::string_view name) { return name.substr(0, input::kMaxSymbolName + 1); }

constexpr int kTagAnnotation = 0x6000;       // DW_TAG_LLVM_annotation
constexpr int kTagGnuAnnotation = 0x6001;    // DW_TAG_GNU_annotation (GCC 15 and later)
constexpr int kAtGnuAnnotation = 0x2139;     // DW_AT_GNU_annotation: the first of a chain of them
constexpr size_t kRenderBudget = 512;        // tokens per rendered type reference
constexpr int kMaxProtoDepth = 8;            // function pointers nested in prototypes
constexpr size_t kMaxDieDepth = 64;          // DIE nesting followed when indexing
constexpr size_t kMaxPairsPerCompare = 4096;  // anonymous aggregates compared under one type
constexpr size_t kMaxCandidates = 64;        // distinct DWARF definitions tried per BTF type
constexpr size_t kMaxCopies = 4096;          // definitions of one name tried in the second chance
constexpr size_t kMaxCopiesTotal = 1u << 20;  // definitions collected for the second chance (8 MB of offsets)
constexpr size_t kSlackChildren = 256;      // DWARF children read past twice the BTF vlen (statics, nested types)
constexpr uint64_t kWorkBudget = 64u << 20;  // members, enumerators and parameters compared per artifact

// ------------------------------------------------------------------ DWARF session

int no_separate_debuginfo(Dwfl_Module*, void**, const char*, Dwarf_Addr, const char*, const char*, GElf_Word,
                          char**) {
  return -1;  // only the artifact's own DWARF counts
}

const Dwfl_Callbacks kOfflineCallbacks = {
    .find_elf = dwfl_build_id_find_elf,
    .find_debuginfo = no_separate_debuginfo,
    .section_address = dwfl_offline_section_address,
    .debuginfo_path = nullptr,
};

// The artifact's DWARF, relocated. libdwfl writes the relocations of a
// relocatable object into its section data, so an object (or a module)
// gets a private copy of the file; an executable or shared object in the
// host's byte order is read in place, where libelf only reads (the Debian
// 6.12 vmlinux is 340 MB, its DWARF 276 MB of it: the copy was a third of
// the check's memory).
class DwarfSession {
 public:
  // Null when the file has no DWARF, or when libdw cannot read it or
  // should not be given it (`why` then says so).
  static std::unique_ptr<DwarfSession> open(const input::Artifact& a, std::string& why) {
    if (a.kind != input::ArtifactKind::Elf) return nullptr;
    const input::Section* info = a.section(".debug_info");
    if (a.section(".zdebug_info") && !info) why = "its DWARF is in GNU's .zdebug_* sections, which are not read";
    if (!info || info->size == 0) return nullptr;
    why = input::oversized_compressed_dwarf(a);
    if (!why.empty()) return nullptr;
    elf_version(EV_CURRENT);
    std::unique_ptr<DwarfSession> s(new DwarfSession);
    char* image = nullptr;
    if (a.elf_type == ET_REL || a.endian != host_endian()) {
      s->image_.assign(a.content.begin(), a.content.end());
      image = reinterpret_cast<char*>(s->image_.data());
    } else {
      // libelf's interface takes a char*; nothing writes through it here.
      image = const_cast<char*>(reinterpret_cast<const char*>(a.content.data()));
    }
    s->dwfl_ = dwfl_begin(&kOfflineCallbacks);
    if (!s->dwfl_) return nullptr;
    dwfl_report_begin(s->dwfl_);
    Dwfl_Module* mod =
        dwfl_report_offline_memory(s->dwfl_, a.name.c_str(), a.name.c_str(), image, a.content.size());
    if (dwfl_report_end(s->dwfl_, nullptr, nullptr) != 0 || !mod) return nullptr;
    Dwarf_Addr bias = 0;
    s->dw_ = dwfl_module_getdwarf(mod, &bias);
    if (!s->dw_) return nullptr;
    return s;
  }
  ~DwarfSession() {
    if (dwfl_) dwfl_end(dwfl_);
  }
  Dwarf* dwarf() const { return dw_; }

 private:
  DwarfSession() = default;
  std::vector<uint8_t> image_;
  Dwfl* dwfl_ = nullptr;
  Dwarf* dw_ = nullptr;
};

std::string_view die_name(Dwarf_Die* die) {
  Dwarf_Attribute attr;
  const char* s = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_name, &attr));
  return s ? std::string_view(s) : std::string_view();
}

bool die_flag(Dwarf_Die* die, unsigned attr_name) {
  Dwarf_Attribute attr;
  bool v = false;
  return dwarf_attr(die, attr_name, &attr) && dwarf_formflag(&attr, &v) == 0 && v;
}

std::optional<uint64_t> die_udata(Dwarf_Die* die, unsigned attr_name) {
  Dwarf_Attribute attr;
  Dwarf_Word v;
  if (!dwarf_attr_integrate(die, attr_name, &attr) || dwarf_formudata(&attr, &v) != 0) return std::nullopt;
  return v;
}

// The DIE DW_AT_type refers to; false for void (no attribute) or a bad reference.
bool die_type(Dwarf_Die* die, Dwarf_Die* out, bool integrate = false) {
  Dwarf_Attribute attr;
  Dwarf_Attribute* a = integrate ? dwarf_attr_integrate(die, DW_AT_type, &attr) : dwarf_attr(die, DW_AT_type, &attr);
  return a && dwarf_formref_die(a, out) != nullptr;
}

bool is_c_language(Dwarf_Die* cu) {
  Dwarf_Word lang = 0;
  Dwarf_Attribute attr;
  if (!dwarf_attr(cu, DW_AT_language, &attr) || dwarf_formudata(&attr, &lang) != 0) return true;  // unknown: try
  switch (lang) {
    case DW_LANG_C89: case DW_LANG_C: case DW_LANG_C99: case DW_LANG_C11:
#ifdef DW_LANG_C17
    case DW_LANG_C17:
#endif
      return true;
    default: return false;
  }
}

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "%llx", static_cast<unsigned long long>(v));
  return buf;
}

std::string die_where(Dwarf_Die* die) {
  char buf[80];
  Dwarf_Die cu;
  uint8_t addr = 0, off = 0;
  const bool has_cu = dwarf_diecu(die, &cu, &addr, &off) != nullptr;
  std::snprintf(buf, sizeof buf, "DWARF DIE 0x%llx in CU 0x%llx", static_cast<unsigned long long>(dwarf_dieoffset(die)),
                static_cast<unsigned long long>(has_cu ? dwarf_dieoffset(&cu) : 0));
  return buf;
}

// Calls `f` on the children of `die`, at most `cap` of them; false when
// some were left unread.
template <class F>
bool each_child(Dwarf_Die* die, size_t cap, F&& f) {
  Dwarf_Die c;
  if (dwarf_child(die, &c) != 0) return true;
  for (size_t seen = 0;; ++seen) {
    if (seen == cap) return false;
    f(c);
    if (dwarf_siblingof(&c, &c) != 0) return true;
  }
}

// How many children of a DWARF aggregate, enum or subprogram to read when
// BTF has `vlen` items: enough to see more than BTF has.
size_t child_cap(uint32_t vlen) { return 2 * size_t(vlen) + kSlackChildren; }

// ------------------------------------------------------------------ index

enum class Cat : uint8_t { Struct, Union, Enum, AnonEnum, Typedef, Func, Var };

struct Key {
  Cat cat;
  std::string_view name;
  bool operator==(const Key&) const = default;
};
struct KeyHash {
  size_t operator()(const Key& k) const {
    return std::hash<std::string_view>()(k.name) * 31 + static_cast<size_t>(k.cat);
  }
};

struct Candidate {
  Dwarf_Off off;
  uint64_t size;
  int line;
  const char* file;
  bool cu_scope;  // defined at the top of its compile unit (not in a function or aggregate)
};

struct Index {
  std::unordered_map<Key, std::vector<Candidate>, KeyHash> by_key;
  // The out-of-line code of each function name: the subprogram DIEs at CU
  // scope that have an address, concrete instances of an inlined or cloned
  // function included (GCC's .isra/.constprop clones are such instances).
  std::unordered_map<std::string_view, std::vector<Dwarf_Off>> code_by_name;
  size_t cus = 0, skipped_cus = 0;
  // The functions defined at the top of the units that are not C. GNU as
  // writes a subprogram (type DW_TAG_unspecified_type, no parameters) for
  // each function symbol of an assembler unit, and pahole encodes it.
  std::unordered_set<std::string_view> non_c_code;

  const std::vector<Candidate>* find(Cat cat, std::string_view name) const {
    auto it = by_key.find(Key{cat, name});
    return it == by_key.end() ? nullptr : &it->second;
  }
};

void add_candidate(Index& idx, Cat cat, std::string_view name, Dwarf_Die* die, bool cu_scope) {
  int line = 0;
  dwarf_decl_line(die, &line);
  const char* file = dwarf_decl_file(die);
  const uint64_t size = die_udata(die, DW_AT_byte_size).value_or(~0ull);
  auto& list = idx.by_key[Key{cat, name}];
  for (const Candidate& c : list)
    if (c.size == size && c.line == line && (c.file == file || (c.file && file && std::strcmp(c.file, file) == 0)))
      return;  // the same declaration seen in another compile unit
  if (list.size() < kMaxCandidates) list.push_back({dwarf_dieoffset(die), size, line, file, cu_scope});
}

void add_code(Index& idx, Dwarf_Die* die) {
  if (!dwarf_hasattr(die, DW_AT_low_pc) && !dwarf_hasattr(die, DW_AT_ranges)) return;  // inlined only
  const std::string_view name = die_name(die);  // through DW_AT_abstract_origin for a concrete instance
  if (name.empty()) return;
  auto& list = idx.code_by_name[name];
  if (list.size() < kMaxCandidates) list.push_back(dwarf_dieoffset(die));
}

// The key a DIE is indexed under when it is a definition XC-DW compares: a
// named struct, union, enum or typedef, an anonymous enum by its first
// enumerator, a subprogram that carries its own prototype (not a concrete
// instance), a CU-scope variable.
std::optional<Key> key_of(Dwarf_Die* die, bool cu_scope) {
  const int tag = dwarf_tag(die);
  switch (tag) {
    case DW_TAG_structure_type: case DW_TAG_union_type: case DW_TAG_enumeration_type: case DW_TAG_typedef: {
      if (die_flag(die, DW_AT_declaration)) return std::nullopt;
      const std::string_view name = die_name(die);
      const Cat cat = tag == DW_TAG_structure_type ? Cat::Struct
                      : tag == DW_TAG_union_type   ? Cat::Union
                      : tag == DW_TAG_typedef      ? Cat::Typedef
                                                   : Cat::Enum;
      if (!name.empty()) return Key{cat, name};
      if (cat != Cat::Enum) return std::nullopt;
      Dwarf_Die e;  // an anonymous enum by its first enumerator, unique in its scope
      if (dwarf_child(die, &e) == 0 && dwarf_tag(&e) == DW_TAG_enumerator)
        if (const auto first = die_name(&e); !first.empty()) return Key{Cat::AnonEnum, first};
      return std::nullopt;
    }
    case DW_TAG_subprogram: {
      if (die_flag(die, DW_AT_declaration)) return std::nullopt;
      Dwarf_Attribute attr;
      if (dwarf_attr(die, DW_AT_abstract_origin, &attr) || dwarf_attr(die, DW_AT_specification, &attr))
        return std::nullopt;  // a concrete instance: its abstract DIE carries the prototype
      if (const auto name = die_name(die); !name.empty()) return Key{Cat::Func, name};
      return std::nullopt;
    }
    case DW_TAG_variable: {
      if (!cu_scope || die_flag(die, DW_AT_declaration)) return std::nullopt;
      if (const auto name = die_name(die); !name.empty()) return Key{Cat::Var, name};
      return std::nullopt;
    }
    default: return std::nullopt;
  }
}

void visit(Index& idx, Dwarf_Die* die, bool cu_scope) {
  if (cu_scope && dwarf_tag(die) == DW_TAG_subprogram && !die_flag(die, DW_AT_declaration)) add_code(idx, die);
  if (const auto key = key_of(die, cu_scope)) add_candidate(idx, key->cat, key->name, die, cu_scope);
}

// Calls `f(die, cu_scope, c_unit)` on the DIEs at the top of every compile
// or partial unit for which `on_unit(c_unit)` returns true and, with
// `nested`, in a C unit also on those in function bodies and aggregates (up
// to kMaxDieDepth deep; the walk keeps its own stack).
template <class F, class U>
void walk_units(Dwarf* dw, bool nested, F&& f, U&& on_unit) {
  Dwarf_CU* cu = nullptr;
  Dwarf_Die cudie, subdie;
  Dwarf_Half version = 0;
  uint8_t unit_type = 0;
  std::vector<Dwarf_Die> stack;
  while (dwarf_get_units(dw, cu, &cu, &version, &unit_type, &cudie, &subdie) == 0) {
    if (unit_type != DW_UT_compile && unit_type != DW_UT_partial) continue;
    const bool c_unit = is_c_language(&cudie);
    if (!on_unit(c_unit)) continue;
    stack.clear();
    Dwarf_Die child;
    if (dwarf_child(&cudie, &child) == 0) stack.push_back(child);
    while (!stack.empty()) {
      Dwarf_Die d = stack.back();
      const bool cu_scope = stack.size() == 1;
      if (dwarf_siblingof(&stack.back(), &stack.back()) != 0) stack.pop_back();
      f(&d, cu_scope, c_unit);
      if (!nested || !c_unit) continue;
      const int tag = dwarf_tag(&d);
      // Clang nests the types defined in a struct inside its DIE.
      if ((tag == DW_TAG_subprogram || tag == DW_TAG_lexical_block || tag == DW_TAG_structure_type ||
           tag == DW_TAG_union_type) &&
          stack.size() < kMaxDieDepth && dwarf_child(&d, &child) == 0)
        stack.push_back(child);
    }
  }
}

// Indexes the definitions at CU scope or, with `bodies`, those nested in
// function bodies and aggregates (a second pass made only when a BTF name is
// not found at CU scope: it reads nearly all of .debug_info).
void build_index(Dwarf* dw, Index& idx, bool bodies) {
  walk_units(
      dw, bodies,
      [&](Dwarf_Die* d, bool cu_scope, bool c_unit) {
        if (c_unit) {
          if (cu_scope != bodies) visit(idx, d, cu_scope);
        } else if (dwarf_tag(d) == DW_TAG_subprogram && !die_flag(d, DW_AT_declaration)) {
          if (const auto name = die_name(d); !name.empty()) idx.non_c_code.insert(name);
        }
      },
      [&](bool c_unit) {
        if (bodies) return c_unit;
        ++idx.cus;
        if (!c_unit) ++idx.skipped_cus;
        return true;  // a non-C unit: the names of its functions only
      });
}

// Every definition of the `wanted` keys, not only one per declaration: the
// second chance of a BTF type that agreed with none of its candidates. A
// header can be compiled under other macros by a unit that includes it (the
// kernel's fs/compat_binfmt_elf.c redefines siginfo_t and includes
// fs/binfmt_elf.c), so one file and line can declare two different types; the
// first pass keeps only the first. At most kMaxCopies per key and
// kMaxCopiesTotal in all (every type of a hostile BTF may disagree, and a
// header type has a copy in every unit that includes it); `nested` also
// walks bodies (when a wanted name was found there). One pass over the
// units, made only when some type disagreed.
std::unordered_map<Key, std::vector<Dwarf_Off>, KeyHash> index_copies(
    Dwarf* dw, const std::unordered_set<Key, KeyHash>& wanted, bool nested) {
  std::unordered_map<Key, std::vector<Dwarf_Off>, KeyHash> copies;
  size_t total = 0;
  walk_units(
      dw, nested,
      [&](Dwarf_Die* d, bool cu_scope, bool) {
        if (total == kMaxCopiesTotal) return;
        const auto key = key_of(d, cu_scope);
        if (!key || !wanted.count(*key)) return;
        auto& list = copies[*key];
        if (list.size() == kMaxCopies) return;
        list.push_back(dwarf_dieoffset(d));
        ++total;
      },
      [](bool c_unit) { return c_unit; });
  return copies;
}

// ------------------------------------------------------------------ type tokens

enum class Tok : uint8_t { Void, Quals, Tag, Dims, Ptr, Base, Named, Anon, Typedef, Proto, Varargs, Other, Trunc };

struct Token {
  Tok tok;
  uint64_t num = 0;
  std::string_view text;
  bool operator==(const Token&) const = default;
};

constexpr uint64_t kQualConst = 1, kQualVolatile = 2, kQualRestrict = 4;
// Named/Anon token num: the kind of aggregate or enum.
constexpr uint64_t kAggStruct = 1, kAggUnion = 2, kAggEnum = 3;

struct Rendered {
  std::vector<Token> tokens;
  std::vector<uint32_t> btf_anon;  // BTF side: anonymous types met, in order
  std::vector<Dwarf_Off> dw_anon;  // DWARF side
};

uint64_t mul_saturating(uint64_t a, uint64_t b) {
  if (a == 0 || b == 0) return 0;
  return a > (uint64_t(1) << 40) / b ? (uint64_t(1) << 40) : a * b;
}

void emit_run(std::vector<Token>& out, std::optional<uint64_t> dims, uint64_t quals, std::vector<std::string_view>& tags) {
  if (dims) out.push_back({Tok::Dims, *dims, {}});
  if (quals) out.push_back({Tok::Quals, quals, {}});
  std::sort(tags.begin(), tags.end());
  for (auto t : tags) out.push_back({Tok::Tag, 0, t});
  tags.clear();
}

void render_btf(const Btf& btf, uint32_t id, Rendered& r, int depth) {
  std::vector<std::string_view> tags;
  size_t steps = 0;
  while (true) {
    uint64_t quals = 0;
    std::optional<uint64_t> dims;
    TypeRef t;
    while (true) {
      if (++steps > kRenderBudget || r.tokens.size() > kRenderBudget || !btf.has_type(id)) {
        r.tokens.push_back({Tok::Trunc, id, {}});
        return;
      }
      t = btf.type(id);
      if (t.is_void()) break;
      const uint32_t k = t.kind();
      if (k == kConst) quals |= kQualConst;
      else if (k == kVolatile) quals |= kQualVolatile;
      else if (k == kRestrict) quals |= kQualRestrict;
      else if (k == kTypeTag && !t.kflag()) tags.push_back(xc_name(btf, t.name_off()));
      else if (k == kTypeTag) {
        // kind_flag 1: an attribute pahole adds itself (its `attributes`
        // feature tags arena kfuncs' pointers address_space(1)), in no DWARF.
      } else if (k == kArray) {
        dims = mul_saturating(dims.value_or(1), t.payload(2));
        id = t.payload(0);
        continue;
      } else break;
      id = t.type();
    }
    emit_run(r.tokens, dims, quals, tags);
    if (t.is_void()) {
      r.tokens.push_back({Tok::Void, 0, {}});
      return;
    }
    const std::string_view name = xc_name(btf, t.name_off());
    switch (t.kind()) {
      case kPtr:
        r.tokens.push_back({Tok::Ptr, 0, {}});
        id = t.type();
        continue;
      case kInt: case kFloat: r.tokens.push_back({Tok::Base, t.size(), name}); return;
      case kStruct: case kUnion: case kFwd: case kEnum: case kEnum64: {
        const uint64_t agg = t.kind() == kStruct ? kAggStruct
                             : t.kind() == kUnion ? kAggUnion
                             : t.kind() == kFwd   ? (t.kflag() ? kAggUnion : kAggStruct)
                                                  : kAggEnum;
        if (name.empty()) {
          r.tokens.push_back({Tok::Anon, agg, {}});
          r.btf_anon.push_back(id);
        } else {
          r.tokens.push_back({Tok::Named, agg, name});
        }
        return;
      }
      case kTypedef: r.tokens.push_back({Tok::Typedef, 0, name}); return;
      case kFuncProto: {
        const uint32_t n = t.vlen();
        r.tokens.push_back({Tok::Proto, n, {}});
        if (depth >= kMaxProtoDepth) {
          r.tokens.push_back({Tok::Trunc, id, {}});
          return;
        }
        render_btf(btf, t.type(), r, depth + 1);
        for (uint32_t i = 0; i < n && r.tokens.size() <= kRenderBudget; ++i) {
          const Param p = param_at(t, i);
          if (p.type == 0 && i + 1 == n) r.tokens.push_back({Tok::Varargs, 0, {}});
          else render_btf(btf, p.type, r, depth + 1);
        }
        return;
      }
      default: r.tokens.push_back({Tok::Other, t.kind(), {}}); return;
    }
  }
}

// Type tags a DIE's annotation children carry. `pointer_form`: the
// btf_type_tag children of a pointer (they tag the pointee); otherwise the
// btf:type_tag children that tag the DIE itself.
//
// GCC (15 and later) writes a pointer's btf_type_tag annotations as a chain
// instead: the pointer's DW_AT_GNU_annotation refers to a
// DW_TAG_GNU_annotation DIE, whose own DW_AT_GNU_annotation refers to the
// next, innermost tag first; they are appended outermost first, as clang
// orders its children.
void gnu_annotation_tags(Dwarf_Die* die, std::vector<std::string_view>& tags) {
  std::vector<std::string_view> chain;
  Dwarf_Die at = *die, next;
  Dwarf_Attribute attr;
  while (chain.size() < 64 && dwarf_attr(&at, kAtGnuAnnotation, &attr) && dwarf_formref_die(&attr, &next) &&
         dwarf_tag(&next) == kTagGnuAnnotation && die_name(&next) == "btf_type_tag") {
    if (const char* v = dwarf_formstring(dwarf_attr(&next, DW_AT_const_value, &attr))) chain.push_back(dwarf_name(v));
    at = next;
  }
  tags.insert(tags.end(), chain.rbegin(), chain.rend());
}

void annotation_tags(Dwarf_Die* die, bool pointer_form, std::vector<std::string_view>& tags) {
  if (pointer_form && !dwarf_haschildren(die)) return gnu_annotation_tags(die, tags);
  if (!dwarf_haschildren(die)) return;
  Dwarf_Die c;
  if (dwarf_child(die, &c) != 0) return;
  size_t n = 0;
  do {
    if (dwarf_tag(&c) != kTagAnnotation) continue;
    const std::string_view what = die_name(&c);
    if (what != (pointer_form ? "btf_type_tag" : "btf:type_tag")) continue;
    Dwarf_Attribute attr;
    if (const char* v = dwarf_formstring(dwarf_attr(&c, DW_AT_const_value, &attr))) tags.push_back(dwarf_name(v));
  } while (++n < 64 && dwarf_siblingof(&c, &c) == 0);
}

// Element count of one DW_TAG_subrange_type: 0 for a flexible or
// zero-length array and for bounds that are not constants (VLAs).
//
// GCC writes a bound in the smallest unsigned form that holds it, so
// `char buf[256]` is DW_AT_upper_bound DW_FORM_data1 0xff and `u64 x[65536]`
// DW_FORM_data2 0xffff: a data1/data2 bound is never -1. GCC 12 writes a
// zero-length array as DW_AT_count 0 and a flexible one without a bound;
// clang writes DW_AT_count. Only older GCC wrote -1 for zero-length, as
// DW_FORM_sdata or at the full width of data4/data8, and pahole reads it as
// udata + 1 in a u32 (0 either way), which is what this returns.
uint64_t subrange_count(Dwarf_Die* sub) {
  Dwarf_Attribute attr;
  Dwarf_Word v = 0;
  if (dwarf_attr(sub, DW_AT_count, &attr)) return dwarf_formudata(&attr, &v) == 0 ? v : 0;
  if (!dwarf_attr(sub, DW_AT_upper_bound, &attr)) return 0;
  const unsigned form = dwarf_whatform(&attr);
  if (form == DW_FORM_sdata) {
    Dwarf_Sword s = 0;
    if (dwarf_formsdata(&attr, &s) != 0 || s < 0) return 0;
    v = static_cast<Dwarf_Word>(s);
  } else if (dwarf_formudata(&attr, &v) != 0) {
    return 0;
  }
  if (v == ~Dwarf_Word(0) || (form == DW_FORM_data4 && v == 0xffffffffu)) return 0;  // -1: zero-length
  Dwarf_Word lower = 0;
  if (dwarf_attr(sub, DW_AT_lower_bound, &attr) && dwarf_formudata(&attr, &lower) != 0) lower = 0;
  return v >= lower ? v - lower + 1 : 0;
}

void render_dwarf(Dwarf_Die* start, Rendered& r, int depth) {
  std::vector<std::string_view> tags;
  Dwarf_Die die;
  bool is_void = start == nullptr;
  if (!is_void) die = *start;
  size_t steps = 0;
  while (true) {
    uint64_t quals = 0;
    std::optional<uint64_t> dims;
    int tag = 0;
    while (!is_void) {
      if (++steps > kRenderBudget || r.tokens.size() > kRenderBudget) {
        r.tokens.push_back({Tok::Trunc, 0, {}});
        return;
      }
      tag = dwarf_tag(&die);
      if (tag == DW_TAG_const_type) quals |= kQualConst;
      else if (tag == DW_TAG_volatile_type) quals |= kQualVolatile;
      else if (tag == DW_TAG_restrict_type) quals |= kQualRestrict;
      else if (tag == DW_TAG_atomic_type) {
        // BTF has no _Atomic (XC-DW-007).
      } else if (tag == DW_TAG_array_type) {
        uint64_t n = dims.value_or(1);
        Dwarf_Die sub;
        size_t subs = 0;
        if (dwarf_child(&die, &sub) == 0) {
          do {
            if (dwarf_tag(&sub) != DW_TAG_subrange_type && dwarf_tag(&sub) != DW_TAG_enumeration_type) continue;
            n = mul_saturating(n, subrange_count(&sub));
            ++subs;
          } while (subs < 256 && dwarf_siblingof(&sub, &sub) == 0);
        }
        if (subs == 0) n = 0;
        dims = n;
      } else {
        // New-style tags (btf:type_tag) annotate the tagged type itself.
        if (tag == DW_TAG_base_type || tag == DW_TAG_pointer_type || tag == DW_TAG_typedef)
          annotation_tags(&die, false, tags);
        break;
      }
      if (tag != DW_TAG_array_type) annotation_tags(&die, false, tags);
      is_void = !die_type(&die, &die);
    }
    emit_run(r.tokens, dims, quals, tags);
    if (is_void) {
      r.tokens.push_back({Tok::Void, 0, {}});
      return;
    }
    const std::string_view name = dwarf_name(die_name(&die));
    switch (tag) {
      case DW_TAG_pointer_type:
        r.tokens.push_back({Tok::Ptr, 0, {}});
        annotation_tags(&die, true, tags);
        is_void = !die_type(&die, &die);
        continue;
      case DW_TAG_base_type: {
        r.tokens.push_back({Tok::Base, die_udata(&die, DW_AT_byte_size).value_or(0), name});
        return;
      }
      case DW_TAG_structure_type: case DW_TAG_class_type: case DW_TAG_union_type: case DW_TAG_enumeration_type: {
        const uint64_t agg = tag == DW_TAG_union_type ? kAggUnion : tag == DW_TAG_enumeration_type ? kAggEnum : kAggStruct;
        if (name.empty()) {
          r.tokens.push_back({Tok::Anon, agg, {}});
          r.dw_anon.push_back(dwarf_dieoffset(&die));
        } else {
          r.tokens.push_back({Tok::Named, agg, name});
        }
        return;
      }
      case DW_TAG_typedef: r.tokens.push_back({Tok::Typedef, 0, name}); return;
      case DW_TAG_subroutine_type: {
        std::vector<Dwarf_Die> params;
        bool varargs = false;
        Dwarf_Die c;
        if (dwarf_child(&die, &c) == 0) {
          do {
            const int ct = dwarf_tag(&c);
            if (ct == DW_TAG_formal_parameter) params.push_back(c);
            else if (ct == DW_TAG_unspecified_parameters) varargs = true;
          } while (params.size() < kRenderBudget && dwarf_siblingof(&c, &c) == 0);
        }
        r.tokens.push_back({Tok::Proto, params.size() + varargs, {}});
        if (depth >= kMaxProtoDepth) {
          r.tokens.push_back({Tok::Trunc, 0, {}});
          return;
        }
        Dwarf_Die ret;
        render_dwarf(die_type(&die, &ret) ? &ret : nullptr, r, depth + 1);
        for (Dwarf_Die& p : params) {
          if (r.tokens.size() > kRenderBudget) break;
          Dwarf_Die pt;
          render_dwarf(die_type(&p, &pt) ? &pt : nullptr, r, depth + 1);
        }
        if (varargs) r.tokens.push_back({Tok::Varargs, 0, {}});
        return;
      }
      default: r.tokens.push_back({Tok::Other, static_cast<uint64_t>(tag), {}}); return;
    }
  }
}

std::string describe(const std::vector<Token>& toks) {
  std::string s;
  auto sep = [&] {
    if (!s.empty() && s.back() != '(' && s.back() != '*' && s.back() != ' ') s += ' ';
  };
  for (const Token& t : toks) {
    switch (t.tok) {
      case Tok::Void: sep(); s += "void"; break;
      case Tok::Quals:
        sep();
        if (t.num & kQualConst) s += "const ";
        if (t.num & kQualVolatile) s += "volatile ";
        if (t.num & kQualRestrict) s += "restrict ";
        break;
      case Tok::Tag: sep(); s += "__tag(" + printable(t.text) + ") "; break;
      case Tok::Dims: sep(); s += "[" + std::to_string(t.num) + "] "; break;
      case Tok::Ptr: sep(); s += "*"; break;
      case Tok::Base: sep(); s += printable(t.text) + "/" + std::to_string(t.num); break;
      case Tok::Named:
      case Tok::Anon:
        sep();
        s += t.num == kAggUnion ? "union " : t.num == kAggEnum ? "enum " : "struct ";
        s += t.tok == Tok::Anon ? "(anon)" : printable(t.text);
        break;
      case Tok::Typedef: sep(); s += printable(t.text); break;
      case Tok::Proto: sep(); s += "fn/" + std::to_string(t.num) + "("; break;
      case Tok::Varargs: sep(); s += "..."; break;
      case Tok::Other: sep(); s += "?" + std::to_string(t.num); break;
      case Tok::Trunc: sep(); s += "…"; break;
    }
  }
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

// Which rule a difference of two rendered types belongs to: counts only
// (XC-DW-003), tags only (XC-DW-006), or anything else (`otherwise`).
const Rule* classify(const std::vector<Token>& a, const std::vector<Token>& b, const Rule& otherwise) {
  auto without = [](const std::vector<Token>& v, Tok drop, bool blank_num) {
    std::vector<Token> out;
    out.reserve(v.size());
    for (Token t : v) {
      if (t.tok == drop) {
        if (!blank_num) continue;
        t.num = 0;
      }
      out.push_back(t);
    }
    return out;
  };
  if (without(a, Tok::Dims, true) == without(b, Tok::Dims, true)) return &rules::DW_003;
  if (without(a, Tok::Tag, false) == without(b, Tok::Tag, false)) return &rules::DW_006;
  return &otherwise;
}

// ------------------------------------------------------------------ comparison

struct Diff {
  const Rule* rule;
  uint32_t id;  // the BTF type the difference is located at
  std::string text;
};

struct Work {
  uint32_t id;
  Dwarf_Off die;
  uint32_t owner;  // the named type it was reached from
};

class Comparer {
 public:
  Comparer(const Btf& btf, Dwarf* dw, bool big_endian) : btf_(btf), dw_(dw), big_endian_(big_endian) {}

  size_t tolerated_nocall = 0, tolerated_static_members = 0;

  // Compares BTF type `id` with DIE `off` and the anonymous types under
  // them; the differences go to `diffs`.
  // `done`: anonymous types (by own index) that already agreed under
  // another type; not compared again, which keeps shared anonymous types
  // from costing once per user.
  void compare(uint32_t id, Dwarf_Off off, std::vector<Diff>& diffs, std::vector<uint32_t>* anon_seen,
               const std::vector<uint8_t>& done) {
    work_.clear();
    work_.push_back({id, off, id});
    visited_.clear();
    size_t pairs = 0;
    while (!work_.empty() && pairs++ < kMaxPairsPerCompare && !exhausted()) {
      const Work w = work_.back();
      work_.pop_back();
      if (w.id != id && done[w.id - btf_.first_id()]) continue;
      if (!visited_.insert(w.id).second) continue;
      if (anon_seen && w.id != id) anon_seen->push_back(w.id);
      Dwarf_Die die;
      if (!dwarf_offdie(dw_, w.die, &die)) continue;
      compare_one(w, &die, diffs);
    }
  }

  // Whether the work budget of the artifact is spent (hostile sizes).
  bool exhausted() const { return work_done_ > kWorkBudget; }

  bool nocall(Dwarf_Off off) {
    Dwarf_Die die;
    if (!dwarf_offdie(dw_, off, &die)) return false;
    return die_udata(&die, DW_AT_calling_convention) == uint64_t(DW_CC_nocall);
  }

 private:
  std::string label(uint32_t id) const {
    const TypeRef t = btf_.type(id);
    const std::string_view name = bounded_name(btf_, t.name_off(), kPrintedName);
    std::string s = std::string(kind_name(t.kind()));
    for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s + " '" + (name.empty() ? std::string("(anon)") : printable(name)) + "'";
  }
  std::string where(const Work& w, Dwarf_Die* die) const {
    std::string s = " (" + die_where(die);
    if (w.owner != w.id) s += "; reached from " + label(w.owner);
    return s + ")";
  }

  // Renders both and records the anonymous pairs when they agree; the
  // difference otherwise, under the rule classify() picks.
  void compare_types(const Work& w, uint32_t btf_type, Dwarf_Die* dw_type, const std::string& what,
                     const Rule& rule, Dwarf_Die* at, std::vector<Diff>& diffs) {
    Rendered a, b;
    render_btf(btf_, btf_type, a, 0);
    render_dwarf(dw_type, b, 0);
    if (a.tokens == b.tokens) {
      const size_t n = std::min(a.btf_anon.size(), b.dw_anon.size());
      for (size_t i = 0; i < n; ++i)
        if (btf_.is_own(a.btf_anon[i])) work_.push_back({a.btf_anon[i], b.dw_anon[i], w.owner});
      return;
    }
    diffs.push_back({classify(a.tokens, b.tokens, rule), w.id,
                     what + ": '" + describe(a.tokens) + "' in BTF, '" + describe(b.tokens) + "' in DWARF" + where(w, at)});
  }

  void compare_one(const Work& w, Dwarf_Die* die, std::vector<Diff>& diffs) {
    const TypeRef t = btf_.type(w.id);
    const int tag = dwarf_tag(die);
    const std::string me = label(w.id);
    auto diff = [&](const Rule& rule, std::string text) { diffs.push_back({&rule, w.id, me + ": " + text + where(w, die)}); };
    switch (t.kind()) {
      case kStruct: case kUnion: {
        const bool want_union = t.kind() == kUnion;
        if ((tag == DW_TAG_union_type) != want_union || (tag != DW_TAG_union_type && tag != DW_TAG_structure_type &&
                                                         tag != DW_TAG_class_type)) {
          diff(rules::DW_001, "DWARF has tag 0x" + hex(tag) + " here");
          return;
        }
        return compare_aggregate(w, t, die, diffs);
      }
      case kEnum: case kEnum64:
        if (tag != DW_TAG_enumeration_type) {
          diff(rules::DW_002, "DWARF has no enumeration here");
          return;
        }
        return compare_enum(w, t, die, diffs);
      case kTypedef: {
        if (tag != DW_TAG_typedef) return diff(rules::DW_001, "DWARF has no typedef here");
        Dwarf_Die target;
        return compare_types(w, t.type(), die_type(die, &target) ? &target : nullptr, me + " target", rules::DW_001,
                             die, diffs);
      }
      case kFunc: return compare_func(w, t, die, diffs);
      case kVar: {
        Dwarf_Die vt;
        return compare_types(w, t.type(), die_type(die, &vt, true) ? &vt : nullptr, me + " type", rules::DW_005, die,
                             diffs);
      }
      default: return;
    }
  }

  void compare_aggregate(const Work& w, TypeRef t, Dwarf_Die* die, std::vector<Diff>& diffs) {
    const std::string me = label(w.id);
    auto diff = [&](const Rule& rule, std::string text) { diffs.push_back({&rule, w.id, me + ": " + text + where(w, die)}); };
    const uint64_t dsize = die_udata(die, DW_AT_byte_size).value_or(0);
    if (t.size() != dsize)
      diff(rules::DW_001, "size " + std::to_string(t.size()) + " in BTF, " + std::to_string(dsize) + " in DWARF");
    std::vector<Dwarf_Die> members;
    const uint32_t n = t.vlen();
    spend(n);
    const bool all = each_child(die, child_cap(n), [&](Dwarf_Die& c) {
      if (dwarf_tag(&c) != DW_TAG_member) return;
      // Static members (DWARF 4: a member declaration; DWARF 5: a variable
      // child, skipped by the tag test) are not in BTF.
      if (die_flag(&c, DW_AT_external) || die_flag(&c, DW_AT_declaration)) {
        ++tolerated_static_members;
        return;
      }
      members.push_back(c);
    });
    if (n != members.size() || !all)
      diff(rules::DW_001, std::to_string(n) + " members in BTF, " + (all ? "" : "more than ") +
                              std::to_string(members.size()) + " in DWARF");
    const uint32_t common = std::min<uint32_t>(n, static_cast<uint32_t>(members.size()));
    for (uint32_t i = 0; i < common; ++i) {
      const Member m = member_at(t, i);
      Dwarf_Die* dm = &members[i];
      const std::string_view bname = xc_name(btf_, m.name_off), dname = dwarf_name(die_name(dm));
      const std::string mname =
          "member " + std::to_string(i) + " '" + (bname.empty() ? "(anon)" : printable(bname)) + "'";
      if (bname != dname) {
        diff(rules::DW_001, mname + ": named '" + (dname.empty() ? "(anon)" : printable(dname)) + "' in DWARF");
        continue;
      }
      uint32_t boff = member_bit_offset_of(t, m), bsize = member_bitfield_size_of(t, m);
      if (!t.kflag()) {
        // Before kind_flag, a bitfield's size and offset-in-storage were in its INT.
        const TypeRef mt = btf_.has_type(m.type) ? btf_.type(m.type) : TypeRef();
        if (!mt.is_void() && mt.kind() == kInt) {
          const uint32_t enc = mt.payload(0);
          if (int_bits(enc) != mt.size() * 8) {
            bsize = int_bits(enc);
            boff += int_offset(enc);
          }
        }
      }
      const auto [doff, dbits] = member_bits(dm);
      if (boff != doff)
        diff(rules::DW_001, mname + ": bit offset " + std::to_string(boff) + " in BTF, " + std::to_string(doff) + " in DWARF");
      if (bsize != dbits)
        diff(rules::DW_001,
             mname + ": bitfield size " + std::to_string(bsize) + " in BTF, " + std::to_string(dbits) + " in DWARF");
      Dwarf_Die mtype;
      compare_types(w, m.type, die_type(dm, &mtype) ? &mtype : nullptr, me + " " + mname + " type", rules::DW_001, die,
                    diffs);
    }
  }

  // Bit offset from the start of the aggregate and bitfield size (0: not a
  // bitfield) of a DWARF member, in the DWARF 4+ and the DWARF 2/3 forms.
  std::pair<uint64_t, uint64_t> member_bits(Dwarf_Die* m) const {
    const uint64_t bit_size = die_udata(m, DW_AT_bit_size).value_or(0);
    if (auto dbo = die_udata(m, DW_AT_data_bit_offset)) return {*dbo, bit_size};
    uint64_t byte_off = 0;
    Dwarf_Attribute attr;
    if (dwarf_attr(m, DW_AT_data_member_location, &attr)) {
      Dwarf_Word v;
      if (dwarf_formudata(&attr, &v) == 0) {
        byte_off = v;
      } else {
        Dwarf_Op* ops;
        size_t nops;
        if (dwarf_getlocation(&attr, &ops, &nops) == 0 && nops == 1 && ops[0].atom == DW_OP_plus_uconst)
          byte_off = ops[0].number;
      }
    }
    uint64_t bits = byte_off * 8;
    if (auto old = die_udata(m, DW_AT_bit_offset)) {
      // DWARF 2/3: bits from the most significant bit of the storage unit.
      Dwarf_Die mt;
      uint64_t storage = die_udata(m, DW_AT_byte_size).value_or(0);
      if (storage == 0 && die_type(m, &mt)) storage = die_udata(&mt, DW_AT_byte_size).value_or(0);
      if (big_endian_) bits += *old;
      else if (storage * 8 >= *old + bit_size) bits += storage * 8 - *old - bit_size;
    }
    return {bits, bit_size};
  }

  void compare_enum(const Work& w, TypeRef t, Dwarf_Die* die, std::vector<Diff>& diffs) {
    const std::string me = label(w.id);
    auto diff = [&](std::string text) { diffs.push_back({&rules::DW_002, w.id, me + ": " + text + where(w, die)}); };
    const uint64_t dsize = die_udata(die, DW_AT_byte_size).value_or(0);
    if (t.size() != dsize) diff("size " + std::to_string(t.size()) + " in BTF, " + std::to_string(dsize) + " in DWARF");
    struct Enumerator {
      std::string_view name;
      uint64_t value;
      bool negative;
    };
    std::vector<Enumerator> values;
    bool any_negative = false;
    const uint32_t n = t.vlen();
    spend(n);
    const bool all = each_child(die, child_cap(n), [&](Dwarf_Die& c) {
      if (dwarf_tag(&c) != DW_TAG_enumerator) return;
      Dwarf_Attribute attr;
      if (!dwarf_attr(&c, DW_AT_const_value, &attr)) return;
      Enumerator e{die_name(&c), 0, false};
      const unsigned form = dwarf_whatform(&attr);
      if (form == DW_FORM_sdata || form == DW_FORM_implicit_const) {
        Dwarf_Sword v = 0;
        dwarf_formsdata(&attr, &v);
        e.value = static_cast<uint64_t>(v);
        e.negative = v < 0;
      } else {
        Dwarf_Word u = 0;
        dwarf_formudata(&attr, &u);
        e.value = u;
      }
      any_negative |= e.negative;
      values.push_back(e);
    });
    // Signedness: DW_AT_encoding (GCC), else the underlying DW_AT_type, else the values.
    std::optional<uint64_t> enc = die_udata(die, DW_AT_encoding);
    Dwarf_Die under;
    if (!enc && die_type(die, &under)) enc = die_udata(&under, DW_AT_encoding);
    const bool dsigned = enc ? (*enc == DW_ATE_signed || *enc == DW_ATE_signed_char) : any_negative;
    if (t.kflag() != dsigned)
      diff(std::string(t.kflag() ? "signed" : "unsigned") + " in BTF, " + (dsigned ? "signed" : "unsigned") + " in DWARF");
    if (n != values.size() || !all)
      diff(std::to_string(n) + " enumerators in BTF, " + (all ? "" : "more than ") + std::to_string(values.size()) +
           " in DWARF");
    const bool wide = t.kind() == kEnum64;
    const uint32_t common = std::min<uint32_t>(n, static_cast<uint32_t>(values.size()));
    for (uint32_t i = 0; i < common; ++i) {
      const EnumValue v = enum_at(t, i);
      const std::string_view bname = xc_name(btf_, v.name_off), dname = dwarf_name(values[i].name);
      if (bname != dname) {
        diff("enumerator " + std::to_string(i) + " '" + printable(bname) + "' is '" + printable(dname) + "' in DWARF");
        continue;
      }
      // At the width BTF stores; a DWARF value that does not fit is a difference too.
      uint64_t dv = values[i].value;
      bool fits = true;
      if (!wide) {
        const int64_t sv = static_cast<int64_t>(dv);
        fits = values[i].negative ? sv >= INT32_MIN : dv <= UINT32_MAX;
        dv &= 0xffffffffu;
      }
      auto show = [&](uint64_t x, bool neg, bool w64) {
        if (neg) return std::to_string(w64 ? static_cast<int64_t>(x) : static_cast<int64_t>(static_cast<int32_t>(x)));
        return std::to_string(x);
      };
      if (v.value != dv || !fits)
        diff("enumerator '" + printable(bname) + "' is " + show(v.value, t.kflag(), wide) + " in BTF, " +
             show(values[i].value, values[i].negative, true) + " in DWARF");
    }
  }

  void compare_func(const Work& w, TypeRef f, Dwarf_Die* die, std::vector<Diff>& diffs) {
    const std::string me = label(w.id);
    auto diff = [&](std::string text) { diffs.push_back({&rules::DW_004, w.id, me + ": " + text + where(w, die)}); };
    if (dwarf_tag(die) != DW_TAG_subprogram) return diff("DWARF has no subprogram here");
    if (!btf_.has_type(f.type())) return;  // the verifier reports it
    const TypeRef proto = btf_.type(f.type());
    if (proto.is_void() || proto.kind() != kFuncProto) return;
    Dwarf_Die ret;
    compare_types(w, proto.type(), die_type(die, &ret, true) ? &ret : nullptr, me + " return type", rules::DW_004, die,
                  diffs);
    std::vector<Dwarf_Die> params;
    bool varargs = false;
    uint32_t n = proto.vlen();
    spend(n);
    // The parameters come first; the body's DIEs after them are not read.
    each_child(die, child_cap(n), [&](Dwarf_Die& c) {
      const int ct = dwarf_tag(&c);
      if (ct == DW_TAG_formal_parameter) params.push_back(c);
      else if (ct == DW_TAG_unspecified_parameters) varargs = true;
    });
    const bool bvarargs = n > 0 && param_at(proto, n - 1).type == 0;
    if (bvarargs) --n;
    if (n != params.size() || bvarargs != varargs) {
      diff(std::to_string(n) + (bvarargs ? "+..." : "") + " parameters in BTF, " + std::to_string(params.size()) +
           (varargs ? "+..." : "") + " in DWARF");
    }
    const uint32_t common = std::min<uint32_t>(n, static_cast<uint32_t>(params.size()));
    for (uint32_t i = 0; i < common; ++i) {
      const Param p = param_at(proto, i);
      const std::string_view bname = xc_name(btf_, p.name_off), dname = dwarf_name(die_name(&params[i]));
      const std::string pname = "parameter " + std::to_string(i) + " '" + printable(bname) + "'";
      if (bname != dname) diff(pname + ": named '" + printable(dname) + "' in DWARF");
      Dwarf_Die pt;
      compare_types(w, p.type, die_type(&params[i], &pt, true) ? &pt : nullptr, me + " " + pname + " type",
                    rules::DW_004, die, diffs);
    }
  }

  void spend(uint32_t items) { work_done_ += uint64_t(items) + 1; }

  const Btf& btf_;
  Dwarf* dw_;
  bool big_endian_;
  uint64_t work_done_ = 0;
  std::vector<Work> work_;
  std::unordered_set<uint32_t> visited_;
};

// ------------------------------------------------------------------ code ABI (XC-SYM-004)

// The x86-64 SysV ABI passes the first six integer and pointer arguments
// in rdi, rsi, rdx, rcx, r8, r9: DWARF registers 5, 4, 1, 2, 8, 9.
constexpr int kSysvIntArgRegs[] = {5, 4, 1, 2, 8, 9};
constexpr int kMaxTypeHops = 16;     // typedefs and qualifiers followed to a parameter's type
constexpr int kMaxOriginHops = 4;    // DW_AT_abstract_origin chain of a concrete instance
constexpr size_t kMaxAbiParams = 64;  // parameters read per subprogram

const char* x86_64_register(int reg) {
  static constexpr const char* kNames[] = {"rax", "rdx", "rcx", "rbx", "rsi", "rdi", "rbp", "rsp", "r8",
                                           "r9",  "r10", "r11", "r12", "r13", "r14", "r15", "rip"};
  if (reg >= 0 && reg < int(std::size(kNames))) return kNames[reg];
  if (reg >= 17 && reg <= 32) return "an xmm register";
  return "another register";
}

// How the ABI passes a value of this type: in one integer register, in a
// vector register, or some other way this check does not follow
// (aggregates, 128-bit and x87 values, unknown types).
enum class ArgClass : uint8_t { Integer, Sse, Other };

ArgClass arg_class(Dwarf_Die* type) {
  Dwarf_Die t = *type;
  for (int hop = 0; hop < kMaxTypeHops; ++hop) {
    switch (dwarf_tag(&t)) {
      case DW_TAG_typedef: case DW_TAG_const_type: case DW_TAG_volatile_type: case DW_TAG_restrict_type:
      case DW_TAG_atomic_type:
        if (!die_type(&t, &t, true)) return ArgClass::Other;
        continue;
      case DW_TAG_pointer_type: case DW_TAG_reference_type: case DW_TAG_rvalue_reference_type:
        return ArgClass::Integer;
      case DW_TAG_enumeration_type:
        return die_udata(&t, DW_AT_byte_size).value_or(~0ull) <= 8 ? ArgClass::Integer : ArgClass::Other;
      case DW_TAG_base_type: {
        const uint64_t size = die_udata(&t, DW_AT_byte_size).value_or(~0ull);
        switch (die_udata(&t, DW_AT_encoding).value_or(0)) {
          case DW_ATE_signed: case DW_ATE_unsigned: case DW_ATE_boolean: case DW_ATE_signed_char:
          case DW_ATE_unsigned_char: case DW_ATE_UTF: case DW_ATE_address:
            return size <= 8 ? ArgClass::Integer : ArgClass::Other;
          case DW_ATE_float:
            return size <= 8 ? ArgClass::Sse : ArgClass::Other;
          default: return ArgClass::Other;
        }
      }
      default: return ArgClass::Other;
    }
  }
  return ArgClass::Other;
}

// Whether the function returns a struct or union: the ABI may then pass a
// hidden pointer in rdi, which this check does not model.
bool returns_aggregate(Dwarf_Die* fn) {
  Dwarf_Die t;
  if (!die_type(fn, &t, true)) return false;
  for (int hop = 0; hop < kMaxTypeHops; ++hop) {
    const int tag = dwarf_tag(&t);
    if (tag == DW_TAG_structure_type || tag == DW_TAG_union_type || tag == DW_TAG_class_type) return true;
    if (tag != DW_TAG_typedef && tag != DW_TAG_const_type && tag != DW_TAG_volatile_type) return false;
    if (!die_type(&t, &t, true)) return false;
  }
  return true;  // a chain this long: do not guess
}

// The address the code of `fn` is entered at.
std::optional<Dwarf_Addr> entry_address(Dwarf_Die* fn) {
  Dwarf_Addr addr = 0;
  if (dwarf_entrypc(fn, &addr) == 0) return addr;
  Dwarf_Addr base = 0, start = 0, end = 0;
  if (dwarf_ranges(fn, 0, &base, &start, &end) > 0) return start;  // the first range holds the entry
  return std::nullopt;
}

// Whether a DW_AT_location is a location list (per address ranges) rather
// than one expression for the whole scope.
bool is_location_list(Dwarf_Attribute* attr) {
  switch (dwarf_whatform(attr)) {
    case DW_FORM_exprloc: case DW_FORM_block: case DW_FORM_block1: case DW_FORM_block2: case DW_FORM_block4:
      return false;
    default: return true;  // sec_offset, loclistx; data4/data8 in DWARF 2/3
  }
}

// Whether a single location expression of a parameter (not a list) is
// where it is at the function's entry. Clang writes one only when the
// location holds from the function's first instruction. GCC also writes one
// for a parameter's home after the prologue when it has no variable
// tracking for the function: the Debian 6.12 vmlinux's
// dmar_alloc_hwirq(int id, ...) has `id` at DW_OP_reg3 (rbx), where the
// prologue copies it from edi (so have ZSTD_compressBegin_advanced and
// ip_rt_update_pmtu), and `gcc -O2 -fno-var-tracking` does the same in the
// corpus (abi.c: use_drop_middle's `x` in rbx, use_mix's `b` in rcx). For
// GCC only a location list says where a parameter arrives; a GCC clone whose
// ABI changed describes its parameters with lists or with the registers the
// new ABI gives them, which the clone's own entry shows either way.
bool single_location_holds_at_entry(Dwarf_Die* fn) {
  Dwarf_Die cu;
  if (!dwarf_diecu(fn, &cu, nullptr, nullptr)) return false;
  Dwarf_Attribute attr;
  const char* producer = dwarf_formstring(dwarf_attr(&cu, DW_AT_producer, &attr));
  return producer && !std::string_view(producer).starts_with("GNU ");
}

// The register a parameter is in at the function's entry, when its location
// there is exactly one register. `single_ok`: whether a single location
// expression counts (single_location_holds_at_entry); a location list always
// does, at the entry address.
std::optional<int> entry_register(Dwarf_Die* param, Dwarf_Addr entry, bool single_ok) {
  Dwarf_Attribute attr;
  if (!dwarf_attr(param, DW_AT_location, &attr)) return std::nullopt;  // optimized out: says nothing
  if (!single_ok && !is_location_list(&attr)) return std::nullopt;
  Dwarf_Op* expr = nullptr;
  size_t len = 0;
  if (dwarf_getlocation_addr(&attr, entry, &expr, &len, 1) != 1 || len != 1 || !expr) return std::nullopt;
  const uint8_t op = expr[0].atom;
  if (op >= DW_OP_reg0 && op <= DW_OP_reg31) return op - DW_OP_reg0;
  if (op == DW_OP_regx && expr[0].number < 128) return static_cast<int>(expr[0].number);
  return std::nullopt;
}

// The subprogram DIE that declares the prototype of a code instance: the
// end of its DW_AT_abstract_origin chain, or the instance itself.
Dwarf_Die prototype_die(Dwarf_Die* fn) {
  Dwarf_Die proto = *fn;
  for (int hop = 0; hop < kMaxOriginHops; ++hop) {
    Dwarf_Attribute attr;
    Dwarf_Die origin;
    if (!dwarf_attr(&proto, DW_AT_abstract_origin, &attr) || !dwarf_formref_die(&attr, &origin)) break;
    proto = origin;
  }
  return proto;
}

// Why the code instance `fn` is not entered with the ABI of its source
// prototype; empty when nothing shows it.
std::string changed_abi(Dwarf_Die* fn, uint16_t machine) {
  if (die_udata(fn, DW_AT_calling_convention) == uint64_t(DW_CC_nocall))  // through the abstract origin too
    return "its DWARF subprogram says DW_AT_calling_convention DW_CC_nocall (the compiler changed its interface)";
  if (machine != EM_X86_64) return "";  // the register assignment is known for x86-64 only
  Dwarf_Die proto = prototype_die(fn);
  if (returns_aggregate(&proto)) return "";
  const auto entry = entry_address(fn);
  if (!entry) return "";
  const bool single_ok = single_location_holds_at_entry(fn);
  // The instance's parameters by the abstract parameter they stand for.
  std::unordered_map<Dwarf_Off, Dwarf_Die> own;
  const bool concrete = dwarf_dieoffset(&proto) != dwarf_dieoffset(fn);
  if (concrete)
    each_child(fn, kMaxAbiParams, [&](Dwarf_Die& c) {
      Dwarf_Attribute attr;
      Dwarf_Die origin;
      if (dwarf_tag(&c) == DW_TAG_formal_parameter && dwarf_attr(&c, DW_AT_abstract_origin, &attr) &&
          dwarf_formref_die(&attr, &origin))
        own.emplace(dwarf_dieoffset(&origin), c);
    });
  std::string why;
  size_t slot = 0, position = 0;
  bool stop = false;
  each_child(&proto, kMaxAbiParams, [&](Dwarf_Die& p) {
    if (stop || !why.empty()) return;
    const int tag = dwarf_tag(&p);
    if (tag == DW_TAG_unspecified_parameters) stop = true;
    if (tag != DW_TAG_formal_parameter) return;
    const size_t index = position++;
    Dwarf_Die type;
    const ArgClass cls = die_type(&p, &type, true) ? arg_class(&type) : ArgClass::Other;
    if (cls == ArgClass::Sse) return;  // vector registers: the integer ones are not used
    if (cls == ArgClass::Other || slot == std::size(kSysvIntArgRegs)) {
      stop = true;  // passed in a way not followed here: the later slots are not known
      return;
    }
    const int expected = kSysvIntArgRegs[slot++];
    Dwarf_Die* at = &p;
    if (concrete) {
      auto it = own.find(dwarf_dieoffset(&p));
      if (it == own.end()) return;  // no DIE in the instance: says nothing
      at = &it->second;
    }
    const auto reg = entry_register(at, *entry, single_ok);
    if (!reg || *reg == expected) return;
    why = "parameter " + std::to_string(index) + " '" + printable(die_name(&p)) + "' arrives in " +
          x86_64_register(*reg) + ", not in " + x86_64_register(expected) + " as the prototype has it";
  });
  return why;
}

std::optional<Cat> category_of(TypeRef t) {
  switch (t.kind()) {
    case kStruct: return Cat::Struct;
    case kUnion: return Cat::Union;
    case kEnum: case kEnum64: return Cat::Enum;
    case kTypedef: return Cat::Typedef;
    case kFunc: return Cat::Func;
    case kVar: return Cat::Var;
    default: return std::nullopt;
  }
}

const Rule& rule_of(Cat cat) {
  switch (cat) {
    case Cat::Enum: case Cat::AnonEnum: return rules::DW_002;
    case Cat::Func: return rules::DW_004;
    case Cat::Var: return rules::DW_005;
    default: return rules::DW_001;
  }
}

// XC-SYM-004: why the code of function `name` is not entered with the ABI
// of its prototype. Every out-of-line copy must show it (a clone beside
// the function itself leaves the function's FUNC true); empty otherwise.
// `copies`: how many were looked at.
std::string abi_of_all_copies_changed(Dwarf* dw, const Index& idx, std::string_view name, uint16_t machine,
                                      size_t& copies) {
  copies = 0;
  auto it = idx.code_by_name.find(name);
  if (it == idx.code_by_name.end()) return "";
  std::string first;
  for (Dwarf_Off off : it->second) {
    Dwarf_Die fn;
    if (!dwarf_offdie(dw, off, &fn)) continue;
    std::string why = changed_abi(&fn, machine);
    if (why.empty()) return "";
    if (first.empty()) first = std::move(why);
    ++copies;
  }
  return first;
}

// The other direction: every named struct, union, enum and typedef defined
// at the top of a C compile unit has a record of its kind and name in the
// BTF (or its base), and so has every function with a text symbol of its
// name (what pahole encodes) whose calling convention GCC kept. Reported
// in name order; returns how many were missing.
size_t report_absent_from_btf(const CrossCheckInput& in, Dwarf* dw, const Index& idx, Comparer& cmp,
                              elfmeta::Findings& findings) {
  // The BTF's names: the checked blob's own records, and its base chain
  // through the index the caller shares between the split blobs of one base
  // (a kernel package's modules), built here only when there is none.
  const NameIndex own(in.btf, in.btf.first_id());
  std::optional<NameIndex> base_names;
  const NameIndex* base = nullptr;
  if (const Btf* b = in.btf.base())
    base = in.base_index && &in.base_index->btf() == b ? &in.base_index->names() : &base_names.emplace(*b, 1);
  auto in_btf = [&](Cat cat, std::string_view name) {
    const uint32_t kind = cat == Cat::Struct  ? kStruct
                          : cat == Cat::Union ? kUnion
                          : cat == Cat::Enum  ? kEnum
                          : cat == Cat::Typedef ? kTypedef
                                                : kFunc;
    return own.has(kind, name) || (base && base->has(kind, name));
  };
  std::vector<std::pair<std::pair<Cat, std::string_view>, const Candidate*>> absent;
  for (const auto& [key, cands] : idx.by_key) {
    if (key.cat == Cat::AnonEnum || key.cat == Cat::Var || in_btf(key.cat, key.name)) continue;
    const auto top = std::find_if(cands.begin(), cands.end(), [](const Candidate& c) { return c.cu_scope; });
    if (top == cands.end()) continue;
    // Static functions of one name in several units: pahole (1.26 and later,
    // consistent_func) leaves the name out when their prototypes differ, as
    // a FUNC would describe only one of them.
    if (key.cat == Cat::Func && std::count_if(cands.begin(), cands.end(), [](const Candidate& c) { return c.cu_scope; }) > 1)
      continue;
    if (key.cat == Cat::Func) {
      const input::Symbol* s = in.symbols ? in.symbols->find(key.name) : nullptr;
      if (!s || !s->function() || cmp.nocall(top->off)) continue;
      // Left out on purpose by pahole 1.26 and later: a name with several
      // text symbols (its "ambiguous address": one FUNC cannot say which),
      // or code entered otherwise than its prototype says (the checks of
      // XC-SYM-004 see it too).
      const auto all = in.symbols->find_all(key.name);
      if (std::count_if(all.begin(), all.end(), [](const input::Symbol* x) { return x->function(); }) > 1) continue;
      size_t copies = 0;
      if (!abi_of_all_copies_changed(dw, idx, key.name, in.artifact.machine, copies).empty()) continue;
    }
    absent.push_back({{key.cat, key.name}, &*top});
  }
  std::sort(absent.begin(), absent.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  static constexpr const char* kWhat[] = {"struct", "union", "enum", "enum", "typedef", "function", "variable"};
  for (const auto& [key, c] : absent) {
    std::string where = c->file ? std::string(c->file) + ":" + std::to_string(c->line) : "DWARF " + hex(c->off);
    findings.emit(rule_of(key.first),
                  Location{in.artifact.name, ".BTF", std::nullopt, "", std::nullopt, "", std::nullopt},
                  std::string(kWhat[static_cast<int>(key.first)]) + " '" + std::string(key.second) + "' (" + where +
                      ") is defined in DWARF" + (key.first == Cat::Func ? " and has a text symbol" : "") +
                      " but has no BTF record");
  }
  return absent.size();
}

}  // namespace

void check_dwarf(const CrossCheckInput& in, elfmeta::Findings& findings) {
  const Btf& btf = in.btf;
  if (!btf.types_complete() || !btf.strings_usable()) return;
  std::string why;
  const auto session = DwarfSession::open(in.artifact, why);
  if (!session) {
    if (!why.empty()) findings.note(".BTF", "XC-DW-* not checked: the DWARF is not read (" + why + ")");
    return;
  }
  Index idx;
  build_index(session->dwarf(), idx, false);
  bool bodies_indexed = false;
  Comparer cmp(btf, session->dwarf(), in.artifact.endian == Endian::Big);

  std::vector<uint8_t> done(btf.own_count(), 0);  // anonymous types already compared under a named one
  std::vector<Diff> diffs;
  std::vector<uint32_t> anon_seen;

  // What the DWARF definitions tried for one BTF type gave: agreement, or
  // the smallest set of differences; `all_nocall` while every FUNC
  // candidate tried was a DW_CC_nocall subprogram.
  struct Outcome {
    bool agree = false, all_nocall = false, best_set = false;
    std::vector<Diff> best;
  };
  auto try_definition = [&](uint32_t id, Cat cat, Dwarf_Off off, Outcome& o) {
    diffs.clear();
    anon_seen.clear();
    cmp.compare(id, off, diffs, &anon_seen, done);
    if (diffs.empty()) {
      o.agree = true;
      for (uint32_t a : anon_seen) done[a - btf.first_id()] = 1;
      return true;
    }
    if (cat == Cat::Func && cmp.nocall(off)) return false;
    o.all_nocall = false;
    if (!o.best_set || diffs.size() < o.best.size()) {
      o.best.swap(diffs);
      o.best_set = true;
    }
    return false;
  };
  // The types that agreed with none of their candidates, in id order.
  struct Pending {
    uint32_t id;
    Cat cat;
    std::string_view name;
    Outcome outcome;
  };
  std::vector<Pending> pending;
  size_t compared = 0, agreed = 0, missing = 0, non_c_funcs = 0, tolerated_nocall = 0, abi_changed = 0, long_names = 0;

  auto report = [&](const std::vector<Diff>& list) {
    // One finding per (rule, type): the first difference and how many more.
    std::map<std::pair<const Rule*, uint32_t>, std::pair<size_t, size_t>> groups;  // first index, count
    for (size_t i = 0; i < list.size(); ++i) {
      auto [it, fresh] = groups.try_emplace({list[i].rule, list[i].id}, i, 0);
      ++it->second.second;
    }
    std::vector<std::pair<size_t, size_t>> order;
    for (const auto& [key, v] : groups) order.push_back(v);
    std::sort(order.begin(), order.end());
    for (const auto& [i, count] : order) {
      const size_t more = count - 1;
      Location loc = type_location(in, list[i].id);
      std::string msg = list[i].text;
      if (more) msg += "; " + std::to_string(more) + " more difference" + (more > 1 ? "s" : "");
      findings.emit(*list[i].rule, std::move(loc), std::move(msg));
    }
  };

  // XC-SYM-004 for FUNC `id`: the code of its name has another ABI than the
  // prototype. `nocall`: every DWARF subprogram of the name says
  // DW_CC_nocall, reported even when no out-of-line copy is found. A name
  // without a text symbol is the symbol check's (XC-SYM-001/004).
  struct AbiVerdict {
    std::string why;
    size_t copies = 0;
  };
  std::unordered_map<std::string_view, AbiVerdict> abi_by_name;
  auto report_changed_abi = [&](uint32_t id, std::string_view name, bool nocall) -> size_t {
    if (in.symbols) {
      const input::Symbol* s = in.symbols->find(name);
      if (!s || !s->function()) return 0;
    }
    // Once per name: many FUNC records of one name must not read its copies again.
    auto [seen, fresh] = abi_by_name.try_emplace(name);
    if (fresh)
      seen->second.why = abi_of_all_copies_changed(session->dwarf(), idx, name, in.artifact.machine, seen->second.copies);
    size_t copies = seen->second.copies;
    std::string why = seen->second.why;
    if (why.empty() && nocall && !idx.code_by_name.count(name))
      why = "its DWARF subprogram says DW_AT_calling_convention DW_CC_nocall (the compiler changed its interface)";
    if (why.empty()) return 0;
    if (copies > 1) why += "; so do the other " + std::to_string(copies - 1) + " out-of-line copies";
    findings.emit(rules::SYM_004, type_location(in, id),
                  "the code of '" + printable(name) + "' is not called as its prototype says: " + why);
    return 1;
  };

  // Named types first; then the anonymous enums no named type reached.
  for (int pass = 0; pass < 2; ++pass)
  for (uint32_t id = btf.first_id(); id < btf.type_count(); ++id) {
    if (cmp.exhausted()) break;
    const TypeRef t = btf.type(id);
    auto cat = category_of(t);
    if (!cat) continue;
    std::string_view name = xc_name(btf, t.name_off());
    if (name.empty() != (pass == 1)) continue;
    if (name.empty()) {
      if (*cat != Cat::Enum || t.vlen() == 0) continue;  // reached through the types that use it
      if (done[id - btf.first_id()]) continue;
      cat = Cat::AnonEnum;
      name = xc_name(btf, enum_at(t, 0).name_off);
    }
    if (is_cut(name)) {  // invalid BTF, and looking it up whole costs types x length
      ++long_names;
      continue;
    }
    if ((t.kind() == kEnum || t.kind() == kEnum64) && t.vlen() == 0) continue;  // a forward enum
    ++compared;
    const auto* cands = idx.find(*cat, name);
    // A FUNC of a function only a non-C unit defines: an assembler function
    // (the Debian 6.12 vmlinux has 88: memcpy, __get_user_1, ...), whose
    // DWARF from GNU as has no prototype to compare. Counted, not looked
    // for in function bodies.
    const bool non_c_func = !cands && *cat == Cat::Func && idx.non_c_code.count(name);
    // Types defined in function bodies need the bodies pass (the cost of a
    // second read of nearly all .debug_info).
    if (!cands && !bodies_indexed && *cat != Cat::Var && !non_c_func) {
      bodies_indexed = true;
      build_index(session->dwarf(), idx, true);
      cands = idx.find(*cat, name);
    }
    if (!cands || cands->empty()) {
      if (non_c_func) {
        ++non_c_funcs;
        continue;
      }
      // A name DWARF does not define; with non-C units skipped it may be
      // theirs (Rust nests its functions in namespaces). An anonymous enum
      // is only looked for by its first enumerator. A FUNC named after a
      // GCC clone of a function DWARF defines (pahole 1.32's true_signature:
      // 'f.isra.0' with the clone's own parameters) has no DIE of its name:
      // DWARF describes the clone as an instance of f. In a BPF object clang
      // writes BTF that its DWARF has no definition for: types that only
      // CO-RE builtins name, extern .kconfig/.ksyms variables and functions
      // (declarations in DWARF), 'func.var' for a function's static variable
      // and libbpf's dummy_ksym.
      const size_t dot = *cat == Cat::Func ? name.find('.') : std::string_view::npos;
      const bool clone_of_defined = dot != std::string_view::npos && dot > 0 && idx.find(Cat::Func, name.substr(0, dot));
      if (idx.skipped_cus > 0 || *cat == Cat::AnonEnum || clone_of_defined || in.artifact.machine == EM_BPF) {
        ++missing;
        continue;
      }
      const std::string what = *cat == Cat::Func ? "subprogram" : *cat == Cat::Var ? "variable" : "definition";
      report({{&rule_of(*cat), id,
               "no DWARF " + what + " named '" + printable(name) + "' in " + std::to_string(idx.cus) +
                   " compile units"}});
      continue;
    }
    Outcome o;
    o.all_nocall = *cat == Cat::Func;
    for (const Candidate& c : *cands)
      if (try_definition(id, *cat, c.off, o)) break;
    if (*cat == Cat::Func && (o.agree || o.all_nocall))
      abi_changed += report_changed_abi(id, name, o.all_nocall && !o.agree);
    if (o.agree) {
      ++agreed;
      continue;
    }
    if (o.all_nocall) {
      ++tolerated_nocall;
      continue;
    }
    pending.push_back({id, *cat, name, std::move(o)});
  }

  // The second chance (index_copies): the types that agreed with no
  // candidate are compared with every other definition of their name.
  size_t second_copy = 0;
  if (!pending.empty() && !cmp.exhausted()) {
    std::unordered_set<Key, KeyHash> wanted;
    bool nested = false;  // walk the bodies only for a name found there
    for (const Pending& p : pending) {
      wanted.insert(Key{p.cat, p.name});
      if (const auto* cands = idx.find(p.cat, p.name))
        nested |= std::any_of(cands->begin(), cands->end(), [](const Candidate& c) { return !c.cu_scope; });
    }
    const auto copies = index_copies(session->dwarf(), wanted, nested);
    // Several BTF types of one name go through the same copies: the
    // comparisons are capped as the copies are, besides the work budget.
    size_t second_tries = 0;
    for (Pending& p : pending) {
      auto it = copies.find(Key{p.cat, p.name});
      if (it == copies.end()) continue;
      const auto* cands = idx.find(p.cat, p.name);
      for (Dwarf_Off off : it->second) {
        if (cmp.exhausted() || second_tries == kMaxCopiesTotal) break;
        if (cands && std::any_of(cands->begin(), cands->end(), [&](const Candidate& c) { return c.off == off; }))
          continue;  // tried already (at most kMaxCandidates)
        ++second_tries;
        if (try_definition(p.id, p.cat, off, p.outcome)) break;
      }
      if (!p.outcome.agree) continue;
      ++agreed;
      ++second_copy;
      if (p.cat == Cat::Func) abi_changed += report_changed_abi(p.id, p.name, false);
    }
  }
  for (const Pending& p : pending)
    if (!p.outcome.agree) report(p.outcome.best);

  const size_t absent = report_absent_from_btf(in, session->dwarf(), idx, cmp, findings);

  std::string note = "XC-DW: " + std::to_string(compared) + " BTF types compared with the DWARF of " +
                     std::to_string(idx.cus) + " compile units, " + std::to_string(agreed) + " agree";
  if (idx.skipped_cus)
    note += "; " + std::to_string(idx.skipped_cus) + " non-C compile units skipped: " + std::to_string(non_c_funcs) +
            " FUNCs of functions only they define (no prototype in their DWARF), " + std::to_string(missing) +
            " other BTF names not found in the C units";
  else if (missing)
    note += "; " + std::to_string(missing) + " anonymous enums not found by their first enumerator";
  if (tolerated_nocall) note += "; " + std::to_string(tolerated_nocall) + " FUNCs of DW_CC_nocall functions skipped";
  if (second_copy)
    note += "; " + std::to_string(second_copy) +
            " agree only with another definition of the same declaration (a header compiled under other macros)";
  if (absent) note += "; " + std::to_string(absent) + " DWARF definitions without a BTF record";
  if (abi_changed) note += "; " + std::to_string(abi_changed) + " FUNCs whose code has another ABI (XC-SYM-004)";
  if (cmp.tolerated_static_members) note += "; static members skipped";
  if (long_names)
    note += "; " + std::to_string(long_names) + " BTF names longer than " + std::to_string(input::kMaxSymbolName) +
            " bytes not compared";
  if (cmp.exhausted()) note += "; stopped after " + std::to_string(kWorkBudget) + " comparisons";
  findings.note(".BTF", std::move(note));
}

}  // namespace elfmeta::btf::xc
