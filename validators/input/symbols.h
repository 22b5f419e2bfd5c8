// Symbol indexes shared by every format's cross-checks (ORC coverage,
// SFrame, BTF names): from an ELF .symtab, from /proc/kallsyms or a
// System.map, or decoded from the compressed kallsyms tables inside a
// stripped kernel image (Debian ships placeholder System.map files).
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "input/artifact.h"
#include "input/symbol_name.h"

namespace elfmeta::input {

// The nm letters of symbols that may name a function: text, and weak
// symbols that are not objects.
constexpr bool is_function_letter(char type) { return type == 'T' || type == 't' || type == 'W' || type == 'w'; }

struct Symbol {
  // A view into storage the SymbolIndex keeps (see SymbolIndex::add).
  SymbolName name;
  uint64_t address = 0;
  uint64_t size = 0;        // 0 when the source does not say (kallsyms)
  char type = '?';          // nm/kallsyms letter: T t D d R r B b A W V ...
  uint32_t section = 0;     // ELF section index when known (symtab), else 0
  // symtab: an STT_NOTYPE symbol in code, an assembly label (a loop, a
  // macro's branch target, SYM_INNER_LABEL), not a compiled function's entry.
  bool label = false;
  bool function() const { return is_function_letter(type); }
};

// What a text symbol marks, for the checks of unwind tables at function
// starts (ORC coverage; SFrame FDE ranges).
enum class CodeRole : uint8_t {
  Function,      // a function's entry
  Prefix,        // __pfx_NAME: the padding in front of NAME (call thunks, FineIBT)
  ColdFragment,  // NAME.cold, NAME.cold.N: a part split off a function, entered by a jump
  Marker,        // _stext, __entry_text_start, __irqentry_text_end: a boundary, not code
  Label,         // an assembly label inside code (symtab: STT_NOTYPE)
};
CodeRole code_role(std::string_view name);

constexpr uint32_t kNoCodeStart = ~uint32_t(0);
struct CodeStart {
  uint64_t address = 0;
  uint32_t symbol = 0;  // index into SymbolIndex::symbols()
  CodeRole role = CodeRole::Function;
  uint32_t prefixed = kNoCodeStart;  // a Prefix: the code start of the function it precedes
};

class SymbolIndex {
 public:
  std::string origin;  // "symtab", "kallsyms in the image", "/proc/kallsyms", a System.map path

  SymbolIndex() = default;
  // A copy shares the names' storage (it only reads it).
  SymbolIndex(const SymbolIndex& other)
      : origin(other.origin), symbols_(other.symbols_), kept_(other.kept_), finished_(other.finished_) {
    if (other.copied_names_) kept_.push_back(other.copied_names_);
  }
  SymbolIndex(SymbolIndex&&) = default;
  SymbolIndex& operator=(SymbolIndex&&) = default;

  // Adds a symbol whose name the index copies: safe for a name that lives
  // anywhere (tests, a symbol taken from another index).
  void add(Symbol s);
  // Adds a symbol whose name lies in storage the index already keeps
  // (keep()): the readers below, which would otherwise copy every name.
  void add_in_place(Symbol s) {
    symbols_.push_back(s);
    finished_ = false;
  }
  // A copy with every symbol at or above `from` moved down by `delta`, the
  // rest kept: a KASLR-moved kernel's kallsyms at its image's link-time
  // addresses (absolute symbols, such as x86-64's zero-based percpu ones,
  // lie below and were never moved).
  SymbolIndex moved_back(uint64_t delta, uint64_t from) const;
  // Keeps `storage` alive as long as the index (and its copies).
  void keep(std::shared_ptr<const void> storage) { kept_.push_back(std::move(storage)); }
  void reserve(size_t n) { symbols_.reserve(n); }
  // Sorts by address (stable); call once after adding. The name lookup and
  // the code starts are built on first use (once, also between threads):
  // an address-only user never pays for them.
  void finish();
  const std::vector<Symbol>& symbols() const { return symbols_; }
  // The text symbols in address order with their role: compact, for passes
  // over every function of a kernel (a Symbol is 40 bytes, a CodeStart 24).
  const std::vector<CodeStart>& code_starts() const;
  // The first symbol of that name, or null.
  const Symbol* find(std::string_view name) const;
  // Every symbol of that name (static functions and variables of one name
  // in several files), in address order.
  std::vector<const Symbol*> find_all(std::string_view name) const;
  size_t size() const { return symbols_.size(); }

 private:
  struct Derived {
    std::once_flag once;
    std::vector<CodeStart> code_starts;
    // The name lookup: indexes into symbols_ sorted by (hash of the name,
    // index), and the hash of each, in the same order.
    std::vector<uint32_t> by_name;
    std::vector<uint64_t> name_hashes;
  };
  const Derived& derived() const;
  void build_name_lookup(Derived& d) const;
  void find_code_starts(Derived& d) const;  // after build_name_lookup(d)
  const Symbol* find_in(const Derived& d, std::string_view name) const;
  std::vector<Symbol> symbols_;
  // What the names point into: an artifact's bytes, a kallsyms text, ...
  std::vector<std::shared_ptr<const void>> kept_;
  // The names add() copied; never shared with a copy's add() (copies keep
  // it through kept_), so that two indexes never append to one store.
  std::shared_ptr<std::deque<std::string>> copied_names_;
  bool finished_ = false;
  std::unique_ptr<Derived> derived_ = std::make_unique<Derived>();
};

// The ELF .symtab of an artifact (defined symbols only; section symbols and
// file symbols left out), with nm's letters: by section (T text, D data,
// R read-only, B NOBITS, N non-alloc; lower case when local), A absolute,
// C common, W/V weak, i IFUNC, u unique; addresses are st_value. nullopt when
// it has none or its string table is missing.
// `Functions` keeps only the symbols whose function() is true (what the
// SFrame checks look at: a fraction of a large program's symtab).
enum class SymtabFilter : uint8_t { All, Functions };
std::optional<SymbolIndex> symbols_from_symtab(const Artifact& a, SymtabFilter filter = SymtabFilter::All);

// The same symbols, in address order, with their names left in the string
// table: 32 bytes each, for a pass over every function of a large program
// (a Symbol was 64 bytes with a copied name when building 20,000 of them
// was most of the memory the SFrame check of a 20,000-function program
// touched; it is 40 now, with its name a view too). Valid while the
// artifact is. Names are read as SymbolName's are (kMaxSymbolName).
struct SymtabSymbol {
  uint64_t address = 0, size = 0;
  uint32_t name = 0;     // offset in the string table
  uint32_t section = 0;  // ELF section index (0 for reserved indexes)
  char type = '?';
  bool label = false;    // STT_NOTYPE in code (Symbol::label)
  bool function() const { return is_function_letter(type); }
};
struct SymtabSymbols {
  std::vector<SymtabSymbol> symbols;
  ByteReader strings;
  SymbolName name(const SymtabSymbol& s) const {
    if (s.name >= strings.size()) return {};
    return bounded_symbol_name(reinterpret_cast<const char*>(strings.data()) + s.name, strings.size() - s.name);
  }
};
std::optional<SymtabSymbols> read_symtab(const Artifact& a, SymtabFilter filter = SymtabFilter::All);

// A "/proc/kallsyms"-style text ("ADDRESS TYPE NAME [module]" per line), as
// /proc/kallsyms and System.map are. Malformed lines are skipped; so are the
// symbols of modules (lines ending in "\t[module]"): the index describes the
// kernel image, as the other sources do. nullopt with `error` set when the
// file cannot be read or holds no symbols, and when every address is 0
// (kptr_restrict hides them from readers without CAP_SYSLOG); Debian's
// System.map placeholder (83 bytes up to 6.12; 98-99 bytes, naming the
// -dbg package of its release, from 6.16) is recognised and named as such.
std::optional<SymbolIndex> symbols_from_kallsyms_file(const std::string& path, std::string& error);
std::optional<SymbolIndex> symbols_from_kallsyms_text(std::string_view text, std::string origin, std::string& error);

// The kallsyms tables compiled into a vmlinux (kallsyms_names,
// kallsyms_token_table/_index, kallsyms_markers, kallsyms_offsets with
// kallsyms_relative_base, kallsyms_num_syms), found by content in its
// read-only data, in the pre-6.4 and the 6.4+ table orders, and 7.x's
// PC-relative offsets at 4-byte alignment. nullopt with
// `why` set when they cannot be found or decoded consistently.
std::optional<SymbolIndex> symbols_from_image_kallsyms(const Artifact& vmlinux, std::string& why);

namespace detail {

// Where symbols_from_image_kallsyms found the tables, for tests and
// diagnostics. Positions are byte offsets into .rodata.
struct ImageKallsyms {
  bool order_6_4 = false;           // 6.4+ order: offsets and relative_base after the token index
  bool seqs_before_tokens = false;  // kallsyms_seqs_of_names between the markers and the token table
  bool absolute_percpu = false;     // CONFIG_KALLSYMS_ABSOLUTE_PERCPU: offsets >= 0 are absolute
  bool pc_relative = false;         // 7.x: each offset counts from its own slot; no relative_base
  unsigned table_align = 8;         // where tables start: 8 on 64-bit up to 6.x, 4 in 7.x
  uint32_t num_syms = 0;
  uint32_t marker_width = 4;  // bytes per kallsyms_markers entry
  uint64_t relative_base = 0;
  uint64_t num_syms_at = 0, names_at = 0, markers_at = 0, token_table_at = 0, token_index_at = 0, offsets_at = 0,
           relative_base_at = 0;
  std::vector<std::string> anchors;  // the symbols whose decoded address matched a section's ("_stext", ...)
};

std::optional<ImageKallsyms> locate_image_kallsyms(const Artifact& vmlinux, std::string& why);

}  // namespace detail

}  // namespace elfmeta::input
