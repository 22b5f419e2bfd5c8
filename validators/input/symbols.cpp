#include "input/symbols.h"

#include <elf.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <numeric>
#include <utility>

#include "core/byte_reader.h"

namespace elfmeta::input {

// ---------------------------------------------------------------------------
// SymbolIndex

namespace {

// Sorts `items` by address, stably: an LSD radix sort over only the bits
// in which the addresses differ, 11 at a time — two or three passes for the
// span of a program's or a kernel's text, each a sequential read, where a
// comparison sort of (address, position) pairs and the gather after it took
// a tenth of the SFrame check of a 20,000-function program.
template <typename T, typename AddressOf>
void sort_by_address(std::vector<T>& items, AddressOf address_of) {
  if (items.size() < 2) return;
  uint64_t lo = address_of(items[0]), hi = lo;
  for (const T& x : items) {
    lo = std::min(lo, address_of(x));
    hi = std::max(hi, address_of(x));
  }
  constexpr unsigned kDigitBits = 11;
  constexpr size_t kBuckets = size_t{1} << kDigitBits;
  std::vector<T> next(items.size());
  std::vector<size_t> starts(kBuckets);
  for (unsigned shift = 0; shift < 64 && ((hi - lo) >> shift) != 0; shift += kDigitBits) {
    const auto digit = [&](const T& x) { return static_cast<size_t>((address_of(x) - lo) >> shift & (kBuckets - 1)); };
    std::fill(starts.begin(), starts.end(), 0);
    for (const T& x : items) ++starts[digit(x)];
    size_t sum = 0;
    for (auto& c : starts) sum += std::exchange(c, sum);
    for (T& x : items) next[starts[digit(x)]++] = std::move(x);
    items.swap(next);
  }
}

}  // namespace

void SymbolIndex::add(Symbol s) {
  if (!copied_names_) copied_names_ = std::make_shared<std::deque<std::string>>();
  // A deque never moves its strings, so earlier views stay valid.
  s.name = SymbolName(copied_names_->emplace_back(s.name));
  add_in_place(s);
}

SymbolIndex SymbolIndex::moved_back(uint64_t delta, uint64_t from) const {
  SymbolIndex out(*this);
  for (Symbol& s : out.symbols_)
    if (s.address >= from) s.address -= delta;
  out.finish();
  return out;
}

void SymbolIndex::finish() {
  const auto by_address = [](const Symbol& a, const Symbol& b) { return a.address < b.address; };
  if (!std::is_sorted(symbols_.begin(), symbols_.end(), by_address)) {  // kallsyms and the symtab reader already are
    sort_by_address(symbols_, [](const Symbol& s) { return s.address; });
  }
  finished_ = true;
  derived_ = std::make_unique<Derived>();
}

const SymbolIndex::Derived& SymbolIndex::derived() const {
  std::call_once(derived_->once, [&] {
    build_name_lookup(*derived_);
    find_code_starts(*derived_);
  });
  return *derived_;
}

void SymbolIndex::build_name_lookup(Derived& d) const {
  // Hashes sort much faster than kernel names, which share long prefixes.
  // Within a hash, by position: the first symbol of a name is the lowest address.
  std::vector<std::pair<uint64_t, uint32_t>> keys;
  keys.reserve(symbols_.size());
  const std::hash<std::string_view> hash;
  for (size_t i = 0; i < symbols_.size(); ++i) keys.emplace_back(hash(symbols_[i].name), static_cast<uint32_t>(i));
  std::sort(keys.begin(), keys.end());
  d.by_name.resize(keys.size());
  d.name_hashes.resize(keys.size());
  for (size_t i = 0; i < keys.size(); ++i) {
    d.name_hashes[i] = keys[i].first;
    d.by_name[i] = keys[i].second;
  }
}

const std::vector<CodeStart>& SymbolIndex::code_starts() const {
  static const std::vector<CodeStart> none;
  return finished_ ? derived().code_starts : none;
}

CodeRole code_role(std::string_view name) {
  const auto ends_with = [&](std::string_view suffix) { return name.ends_with(suffix); };
  if (name.starts_with("__pfx_")) return CodeRole::Prefix;
  if (name.find(".cold") != std::string_view::npos) return CodeRole::ColdFragment;
  if (name.starts_with("__") && (ends_with("_start") || ends_with("_end"))) return CodeRole::Marker;
  if ((name.starts_with("_s") || name.starts_with("_e")) && ends_with("text")) return CodeRole::Marker;
  return CodeRole::Function;
}

void SymbolIndex::find_code_starts(Derived& d) const {
  auto& code_starts_ = d.code_starts;
  code_starts_.clear();
  std::vector<uint32_t> start_of(symbols_.size(), kNoCodeStart);
  for (size_t i = 0; i < symbols_.size(); ++i) {
    if (!symbols_[i].function()) continue;
    start_of[i] = static_cast<uint32_t>(code_starts_.size());
    const CodeRole role = symbols_[i].label ? CodeRole::Label : code_role(symbols_[i].name);
    code_starts_.push_back({symbols_[i].address, static_cast<uint32_t>(i), role});
  }
  for (size_t k = 0; k < code_starts_.size(); ++k) {
    CodeStart& c = code_starts_[k];
    if (c.role != CodeRole::Prefix) continue;
    // The function follows its prefix: the next few starts first (static
    // functions share names), then any symbol of that name.
    const std::string_view fn = std::string_view(symbols_[c.symbol].name).substr(6);
    for (size_t j = k + 1; j < code_starts_.size() && j < k + 8 && c.prefixed == kNoCodeStart; ++j)
      if (symbols_[code_starts_[j].symbol].name == fn) c.prefixed = static_cast<uint32_t>(j);
    if (c.prefixed == kNoCodeStart)
      if (const Symbol* s = find_in(d, fn)) c.prefixed = start_of[static_cast<size_t>(s - symbols_.data())];
  }
}

const Symbol* SymbolIndex::find(std::string_view name) const {
  if (!finished_) {  // finish() not called (or symbols added since)
    for (const auto& s : symbols_)
      if (s.name == name) return &s;
    return nullptr;
  }
  return find_in(derived(), name);
}

std::vector<const Symbol*> SymbolIndex::find_all(std::string_view name) const {
  std::vector<const Symbol*> out;
  if (!finished_) {
    for (const auto& s : symbols_)
      if (s.name == name) out.push_back(&s);
    return out;
  }
  const Derived& d = derived();
  const uint64_t h = std::hash<std::string_view>()(name);
  for (auto it = std::lower_bound(d.name_hashes.begin(), d.name_hashes.end(), h); it != d.name_hashes.end() && *it == h;
       ++it) {
    const Symbol& s = symbols_[d.by_name[static_cast<size_t>(it - d.name_hashes.begin())]];
    if (s.name == name) out.push_back(&s);  // by position within a hash, i.e. by address
  }
  return out;
}

const Symbol* SymbolIndex::find_in(const Derived& d, std::string_view name) const {
  const uint64_t h = std::hash<std::string_view>()(name);
  for (auto it = std::lower_bound(d.name_hashes.begin(), d.name_hashes.end(), h); it != d.name_hashes.end() && *it == h;
       ++it) {
    const Symbol& s = symbols_[d.by_name[static_cast<size_t>(it - d.name_hashes.begin())]];
    if (s.name == name) return &s;
  }
  return nullptr;
}

// ---------------------------------------------------------------------------
// ELF .symtab

namespace {

char section_letter(const Section* s) {
  if (!s) return '?';
  if (!(s->flags & SHF_ALLOC)) return 'n';
  if (s->flags & SHF_EXECINSTR) return 't';
  if (s->type == SHT_NOBITS) return 'b';
  if (s->flags & SHF_WRITE) return 'd';
  return 'r';
}

char symtab_letter(uint8_t bind, uint8_t type, uint32_t shndx, const Section* s) {
  if (type == STT_GNU_IFUNC) return 'i';
  if (bind == STB_WEAK) return (type == STT_OBJECT || type == STT_TLS) ? 'V' : 'W';
  if (bind == STB_GNU_UNIQUE) return 'u';
  char c;
  if (shndx == SHN_ABS)
    c = 'a';
  else if (shndx == SHN_COMMON || type == STT_COMMON)
    c = 'c';
  else
    c = section_letter(s);
  if (c == '?' || bind == STB_LOCAL) return c;
  return static_cast<char>(c - 'a' + 'A');
}

}  // namespace

std::optional<SymtabSymbols> read_symtab(const Artifact& a, SymtabFilter filter) {
  if (a.kind != ArtifactKind::Elf) return std::nullopt;
  const Section* symtab = nullptr;
  for (const auto& s : a.sections)
    if (s.type == SHT_SYMTAB) {
      symtab = &s;
      break;
    }
  if (!symtab) return std::nullopt;
  const Section* strtab = a.section_at(symtab->link);
  if (!strtab || strtab->type != SHT_STRTAB || symtab->link == symtab->index) return std::nullopt;
  const Section* xindex = nullptr;  // SHT_SYMTAB_SHNDX: section indexes >= SHN_LORESERVE
  for (const auto& s : a.sections)
    if (s.type == SHT_SYMTAB_SHNDX && s.link == symtab->index) xindex = &s;

  const uint64_t min_entsize = a.elf64 ? sizeof(Elf64_Sym) : sizeof(Elf32_Sym);
  const uint64_t entsize = symtab->entsize ? symtab->entsize : min_entsize;
  if (entsize < min_entsize || entsize > 4096) return std::nullopt;
  const ByteReader syms(symtab->data, a.endian);
  const ByteReader strings(strtab->data, a.endian);
  const ByteReader shndx_table = xindex ? ByteReader(xindex->data, a.endian) : ByteReader();

  // Sections by ELF index, looked up for every symbol (the first of an
  // index, as Artifact::section_at finds it).
  std::vector<const Section*> by_index;
  for (const auto& s : a.sections) {
    if (s.index >= by_index.size()) by_index.resize(size_t{s.index} + 1, nullptr);
    if (!by_index[s.index]) by_index[s.index] = &s;
  }
  const auto section_at = [&](uint32_t shndx) { return shndx < by_index.size() ? by_index[shndx] : nullptr; };

  SymtabSymbols out{{}, strings};
  std::vector<SymtabSymbol>& kept = out.symbols;
  const uint64_t count = syms.size() / entsize;
  kept.reserve(static_cast<size_t>(count));
  for (uint64_t i = 1; i < count; ++i) {  // entry 0 is the null symbol
    const uint64_t at = i * entsize;
    uint32_t name = 0;
    uint8_t info = 0;
    uint32_t shndx = 0;
    uint64_t value = 0, size = 0;
    if (a.elf64) {
      name = syms.at<uint32_t>(at);
      info = syms.at<uint8_t>(at + 4);
      shndx = syms.at<uint16_t>(at + 6);
      value = syms.at<uint64_t>(at + 8);
      size = syms.at<uint64_t>(at + 16);
    } else {
      name = syms.at<uint32_t>(at);
      value = syms.at<uint32_t>(at + 4);
      size = syms.at<uint32_t>(at + 8);
      info = syms.at<uint8_t>(at + 12);
      shndx = syms.at<uint16_t>(at + 14);
    }
    const uint8_t type = info & 0xf, bind = info >> 4;
    if (type == STT_SECTION || type == STT_FILE || shndx == SHN_UNDEF) continue;
    if (shndx == SHN_XINDEX) shndx = shndx_table.u32(i * 4).value_or(SHN_UNDEF);
    const bool reserved = shndx == SHN_UNDEF || (shndx >= SHN_LORESERVE && shndx <= SHN_HIRESERVE);
    const Section* section = reserved ? nullptr : section_at(shndx);
    const char letter = symtab_letter(bind, type, shndx, section);
    if (filter == SymtabFilter::Functions && !is_function_letter(letter)) continue;
    // Compilers type every function STT_FUNC; assembly's labels (local
    // ones, SYM_INNER_LABEL's global ones) have no type.
    const bool label = type == STT_NOTYPE && section && (section->flags & SHF_EXECINSTR);
    kept.push_back({value, size, name, section ? shndx : 0, letter, label});
  }
  sort_by_address(kept, [](const SymtabSymbol& k) { return k.address; });
  return out;
}

// Built once each, in address order (SymbolIndex::finish then has nothing
// to sort).
std::optional<SymbolIndex> symbols_from_symtab(const Artifact& a, SymtabFilter filter) {
  const auto table = read_symtab(a, filter);
  if (!table) return std::nullopt;
  SymbolIndex index;
  index.origin = "symtab";
  // The names stay in the string table: the index keeps the artifact's
  // bytes (the file, libelf's decompressed sections) alive instead.
  for (const auto& storage : a.storage) index.keep(storage);
  index.reserve(table->symbols.size());
  for (const SymtabSymbol& k : table->symbols) {
    Symbol s;
    s.name = table->name(k);
    s.address = k.address;
    s.size = k.size;
    s.type = k.type;
    s.section = k.section;
    s.label = k.label;
    index.add_in_place(s);
  }
  index.finish();
  return index;
}


// ---------------------------------------------------------------------------
// /proc/kallsyms and System.map

namespace {

constexpr size_t kMaxKallsymsText = size_t{1} << 30;
constexpr std::string_view kDebianPlaceholder = "The real System.map is in the linux-image-";

bool is_blank(char c) { return c == ' ' || c == '\t'; }

std::string_view next_field(std::string_view& line) {
  size_t start = 0;
  while (start < line.size() && is_blank(line[start])) ++start;
  size_t end = start;
  while (end < line.size() && !is_blank(line[end])) ++end;
  const std::string_view field = line.substr(start, end - start);
  line.remove_prefix(end);
  return field;
}

bool parse_hex(std::string_view s, uint64_t& v) {
  if (s.empty() || s.size() > 16) return false;
  v = 0;
  for (const char c : s) {
    unsigned d;
    if (c >= '0' && c <= '9')
      d = static_cast<unsigned>(c - '0');
    else if (c >= 'a' && c <= 'f')
      d = static_cast<unsigned>(c - 'a' + 10);
    else if (c >= 'A' && c <= 'F')
      d = static_cast<unsigned>(c - 'A' + 10);
    else
      return false;
    v = v << 4 | d;
  }
  return true;
}

enum class LineKind { Symbol, Module, Malformed };

// "ADDRESS TYPE NAME" with an optional "\t[module]".
LineKind parse_kallsyms_line(std::string_view line, Symbol& out) {
  const std::string_view address = next_field(line), type = next_field(line), name = next_field(line),
                         module = next_field(line), extra = next_field(line);
  if (!parse_hex(address, out.address) || type.size() != 1 || !(type[0] > ' ' && type[0] < 0x7f) || name.empty() ||
      !extra.empty())
    return LineKind::Malformed;
  if (!module.empty()) {
    if (module.size() < 3 || module.front() != '[' || module.back() != ']') return LineKind::Malformed;
    return LineKind::Module;
  }
  out.type = type[0];
  out.name = SymbolName(name.substr(0, kMaxSymbolName + 1));  // a view into the text the index keeps
  return LineKind::Symbol;
}

}  // namespace

namespace {

// The names are views into `kept`, which the index keeps.
std::optional<SymbolIndex> kallsyms_index(std::shared_ptr<const std::string> kept, std::string origin,
                                          std::string& error) {
  const std::string_view text = *kept;
  SymbolIndex index;
  index.origin = std::move(origin);
  index.keep(kept);
  size_t malformed = 0, modules = 0;
  bool any_address = false;
  for (size_t pos = 0; pos < text.size();) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.find_first_not_of(" \t") == std::string_view::npos) continue;
    Symbol s;
    switch (parse_kallsyms_line(line, s)) {
      case LineKind::Malformed: ++malformed; break;
      case LineKind::Module: ++modules; break;
      case LineKind::Symbol:
        any_address = any_address || s.address != 0;
        index.add_in_place(s);
        break;
    }
  }
  if (index.size() == 0) {
    if (text.find(kDebianPlaceholder) != std::string_view::npos)
      error = index.origin + ": Debian's placeholder System.map (" + std::to_string(text.size()) +
              " bytes), not a symbol table: the real System.map is in the linux-image-<version>-dbg package";
    else if (modules)
      error = index.origin + ": only module symbols (" + std::to_string(modules) + "), none of the kernel image";
    else if (malformed)
      error = index.origin + ": no symbols (" + std::to_string(malformed) + " lines are not \"ADDRESS TYPE NAME\")";
    else
      error = index.origin + ": no symbols (empty)";
    return std::nullopt;
  }
  if (!any_address) {
    error = index.origin + ": every address is 0 (kptr_restrict hides them; read it as root)";
    return std::nullopt;
  }
  index.finish();
  return index;
}

}  // namespace

std::optional<SymbolIndex> symbols_from_kallsyms_text(std::string_view text, std::string origin, std::string& error) {
  return kallsyms_index(std::make_shared<const std::string>(text), std::move(origin), error);
}

std::optional<SymbolIndex> symbols_from_kallsyms_file(const std::string& path, std::string& error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = path + ": cannot open (" + std::strerror(errno) + ")";
    return std::nullopt;
  }
  // Read to the end: /proc/kallsyms reports a size of 0.
  std::string text;
  std::array<char, 1 << 16> buffer;
  while (in.read(buffer.data(), buffer.size()) || in.gcount() > 0) {
    text.append(buffer.data(), static_cast<size_t>(in.gcount()));
    if (text.size() > kMaxKallsymsText) {
      error = path + ": larger than 1 GiB, not a symbol list";
      return std::nullopt;
    }
  }
  if (in.bad()) {
    error = path + ": read error";
    return std::nullopt;
  }
  return kallsyms_index(std::make_shared<const std::string>(std::move(text)), path, error);
}

// ---------------------------------------------------------------------------
// The compressed kallsyms tables of a kernel image
//
// Found by content in .rodata: the token table by its "0".."9" single-char
// tokens, confirmed by the u16 token index after it; the marker array (every
// 256th name's offset, strictly increasing from 0) before it, directly or
// with 3 bytes of kallsyms_seqs_of_names per symbol in between; the symbol
// count and name stream before the markers, confirmed entry by entry against
// them; the offsets and relative base before the count (pre-6.4 order) or
// after the token index (6.4+ order), or PC-relative offsets after the token
// index and no base (7.x: each offset is the distance from its own slot),
// chosen by the section anchors (_stext = .text, __start_orc_unwind_ip =
// .orc_unwind_ip, ...). Every table starts at the image's table alignment:
// 8 bytes on 64-bit, 4 on 32-bit, and 4 on both in 7.x (scripts/kallsyms.c's
// output_label()), so a 64-bit image is searched at 8, then at 4.

namespace {

constexpr size_t kMaxTokenTable = 16 * 1024;  // 256 tokens; ~1 KiB in real kernels
constexpr uint32_t kMaxNameTokens = 1024;      // KSYM_NAME_LEN is 512 (6.1+), tokens are >= 1 char
constexpr size_t kMaxNameChars = 1024;
constexpr size_t kMaxEntryBytes = 2 + kMaxNameTokens;
constexpr size_t kMaxSignatureHits = 4096;
// Consistent token tables tried: a real image has one, and each costs a
// scan of .rodata for its marker array.
constexpr size_t kMaxTokenTables = 8;
constexpr size_t kMaxMarkerCandidates = 256;
constexpr size_t kMaxNameTables = 8;

struct Rodata {
  ByteReader r;
  uint64_t addr = 0;
  size_t size = 0;
  unsigned align = 8;  // table alignment

  // The first offset >= off whose address is aligned; may exceed size.
  size_t up(size_t off, unsigned a) const {
    const uint64_t m = (addr + off) % a;
    return m ? off + (a - m) : off;
  }
  size_t up(size_t off) const { return up(off, align); }
  bool aligned(size_t off) const { return (addr + off) % align == 0; }
  const char* chars(size_t off) const { return reinterpret_cast<const char*>(r.data()) + off; }
  uint8_t byte(size_t off) const { return r.data()[off]; }
};

struct TokenTable {
  size_t start = 0, end = 0, index = 0;  // the table, its end, the u16 index after it
  std::array<std::string_view, 256> tokens;
};

struct MarkerCandidate {
  size_t markers = 0;  // kallsyms_markers
  uint32_t count = 0;  // entries (one per 256 symbols)
  uint32_t width = 4;
  bool seqs = false;         // kallsyms_seqs_of_names between the markers and the token table
  uint64_t n_lo = 0, n_hi = 0;  // the symbol counts this placement allows
  const TokenTable* table = nullptr;
};

struct NameTable {
  MarkerCandidate markers;
  size_t num_syms_at = 0, names = 0, names_end = 0;
  uint32_t count = 0;
};

struct Work {
  uint64_t budget;  // bytes the name-stream checks may walk before giving up
  bool exhausted = false;
};

uint64_t marker_at(const Rodata& ro, size_t off, uint32_t width) {
  return width == 8 ? ro.r.at<uint64_t>(off) : ro.r.at<uint32_t>(off);
}

// The token tables in .rodata whose index confirms every token's offset:
// the first kMaxTokenTables of them (`tables_cut` when there were more).
std::vector<TokenTable> find_token_tables(const Rodata& ro, bool& too_many, bool& tables_cut) {
  static constexpr char kDigits[] = "0\0" "1\0" "2\0" "3\0" "4\0" "5\0" "6\0" "7\0" "8\0" "9";
  const std::string_view signature(kDigits, sizeof kDigits);  // with the last NUL
  const std::string_view hay(ro.chars(0), ro.size);
  std::vector<TokenTable> tables;
  size_t hits = 0;
  for (size_t at = hay.find(signature); at != std::string_view::npos; at = hay.find(signature, at + 1)) {
    if (++hits > kMaxSignatureHits) {
      too_many = true;
      break;
    }
    // `at` is where token 0x30 starts; walk to the end of token 0xff.
    const size_t limit = std::min(ro.size, at + kMaxTokenTable);
    size_t end = at;
    bool ok = true;
    for (int i = 0x30; i < 256 && ok; ++i) {
      const void* nul = end < limit ? std::memchr(ro.chars(end), 0, limit - end) : nullptr;
      ok = nul && nul != ro.chars(end);  // tokens are never empty
      if (ok) end = static_cast<size_t>(static_cast<const char*>(nul) - ro.chars(0)) + 1;
    }
    if (!ok) continue;
    // The u16 index follows at the next aligned offset; it says where token 0 is.
    for (const unsigned a : {ro.align, 4u, 2u}) {
      const size_t index = ro.up(end, a);
      if (!ro.r.contains(index, 512)) continue;
      const uint16_t off30 = ro.r.at<uint16_t>(index + 2 * 0x30);
      if (off30 > at || ro.r.at<uint16_t>(index) != 0) continue;
      TokenTable t;
      t.start = at - off30;
      t.end = end;
      t.index = index;
      size_t pos = t.start;
      bool consistent = true;
      for (int i = 0; i < 256 && consistent; ++i) {
        consistent = pos - t.start == ro.r.at<uint16_t>(index + 2 * i) && pos < end;
        if (!consistent) break;
        const size_t len = std::strlen(ro.chars(pos));  // pos < end and byte end-1 is NUL
        consistent = len > 0;
        t.tokens[i] = std::string_view(ro.chars(pos), len);
        pos += len + 1;
      }
      if (consistent && pos == end) {
        tables.push_back(t);
        break;
      }
    }
    if (tables.size() > kMaxTokenTables) {
      tables.pop_back();
      tables_cut = true;
      break;
    }
  }
  return tables;
}

// Marker arrays that end right before the token table, or before a
// kallsyms_seqs_of_names (3 bytes per symbol) that does. Markers start at 0
// and grow by at least 512 (256 entries of at least 2 bytes); one pass over
// .rodata finds every such run and its length.
void find_marker_candidates(const Rodata& ro, const TokenTable& t, uint32_t width,
                            std::vector<MarkerCandidate>& out) {
  size_t pos = ro.up(0);
  uint64_t prev = 0;
  uint32_t chain = 0;
  for (; pos + width <= t.start; pos += width) {
    const uint64_t v = marker_at(ro, pos, width);
    if (v == 0)
      chain = ro.aligned(pos) ? 1 : 0;
    else if (chain > 0 && v > prev && v - prev >= 512 && chain < UINT32_MAX / 256)
      ++chain;
    else
      chain = 0;
    prev = v;
    if (chain == 0) continue;
    const size_t after = ro.up(pos + width);  // where the next table starts
    if (after > t.start) continue;
    MarkerCandidate c;
    c.markers = pos + width - size_t{chain} * width;
    c.count = chain;
    c.width = width;
    c.table = &t;
    c.n_lo = uint64_t{chain - 1} * 256 + 1;
    c.n_hi = uint64_t{chain} * 256;
    if (after != t.start) {
      // seqs_of_names: ro.up(after + 3 * n) == t.start.
      const uint64_t gap = t.start - after;
      const uint64_t lo = gap >= ro.align ? (gap - ro.align + 1 + 2) / 3 : 1;
      c.n_lo = std::max(c.n_lo, lo);
      c.n_hi = std::min(c.n_hi, gap / 3);
      while (c.n_lo <= c.n_hi && ro.up(after + 3 * c.n_lo) != t.start) ++c.n_lo;
      while (c.n_hi >= c.n_lo && ro.up(after + 3 * c.n_hi) != t.start) --c.n_hi;
      if (c.n_lo > c.n_hi) continue;
      c.seqs = true;
    }
    out.push_back(c);
  }
}

// The name stream of `n` entries at `names`: 1- or 2-byte lengths, entries of
// at least one token, every 256th at the offset its marker gives, ending
// within the alignment padding before the markers.
std::optional<size_t> check_name_stream(const Rodata& ro, const MarkerCandidate& m, size_t names, uint64_t n,
                                        Work& work) {
  const size_t limit = m.markers;
  size_t pos = names;
  for (uint64_t i = 0; i < n; ++i) {
    if (i % 256 == 0 && marker_at(ro, m.markers + (i / 256) * m.width, m.width) != pos - names) return std::nullopt;
    if (pos >= limit) return std::nullopt;
    uint32_t len = ro.byte(pos++);
    if (len & 0x80) {
      if (pos >= limit) return std::nullopt;
      const uint8_t high = ro.byte(pos++);
      if (high & 0x80) return std::nullopt;  // a third length byte: no such encoding
      len = (len & 0x7f) | uint32_t{high} << 7;
    }
    if (len == 0 || len > kMaxNameTokens || len > limit - pos) return std::nullopt;
    pos += len;
    if (work.budget < len + 2) {
      work.exhausted = true;
      return std::nullopt;
    }
    work.budget -= len + 2;
  }
  if (ro.up(pos) != m.markers) return std::nullopt;
  return pos;
}

// The symbol count and name stream in front of a marker candidate.
void find_name_tables(const Rodata& ro, const MarkerCandidate& m, Work& work, std::vector<NameTable>& out) {
  const uint64_t last = marker_at(ro, m.markers + size_t{m.count - 1} * m.width, m.width);
  if (last + 2 > m.markers) return;
  // The last marker's entry starts `last` bytes into the stream; its group
  // (1 to 256 entries of 2 to kMaxEntryBytes bytes) ends at the markers.
  const size_t hi = m.markers - static_cast<size_t>(last) - 2;
  const size_t lo = hi > 256 * kMaxEntryBytes + 16 ? hi - 256 * kMaxEntryBytes - 16 : 0;
  for (size_t p = ro.up(lo); p + 4 <= hi; p += ro.align) {
    const uint32_t n = ro.r.at<uint32_t>(p);
    if (n < m.n_lo || n > m.n_hi) continue;
    const size_t names = ro.up(p + 4);
    if (names > hi) continue;
    if (auto end = check_name_stream(ro, m, names, n, work)) {
      out.push_back(NameTable{m, p, names, *end, n});
      if (out.size() >= kMaxNameTables) return;
    }
    if (work.exhausted) return;
  }
}

struct Anchor {
  std::string_view symbol, section;
};
constexpr Anchor kAnchors[] = {
    {"_stext", ".text"},
    {"__start_orc_unwind_ip", ".orc_unwind_ip"},
    {"__start_orc_unwind", ".orc_unwind"},
    {"_sinittext", ".init.text"},
};

// The entry index of each anchor symbol (-1 when absent). Names are expanded
// only as far as they can still match one.
std::array<int64_t, std::size(kAnchors)> find_anchors(const Rodata& ro, const NameTable& nt) {
  std::array<int64_t, std::size(kAnchors)> found;
  found.fill(-1);
  const auto& tokens = nt.markers.table->tokens;
  std::string buffer;
  size_t pos = nt.names;
  for (uint32_t i = 0; i < nt.count; ++i) {
    uint32_t len = ro.byte(pos++);
    if (len & 0x80) len = (len & 0x7f) | uint32_t{ro.byte(pos++)} << 7;
    buffer.clear();
    bool candidate = true;
    for (uint32_t k = 0; k < len && candidate; ++k) {
      buffer += tokens[ro.byte(pos + k)];
      const std::string_view name = std::string_view(buffer).substr(1);  // after the type letter
      candidate = false;
      for (const auto& anchor : kAnchors)
        candidate = candidate || anchor.symbol.starts_with(name.substr(0, anchor.symbol.size()));
    }
    if (candidate && buffer.size() > 1)
      for (size_t k = 0; k < std::size(kAnchors); ++k)
        if (found[k] < 0 && buffer.substr(1) == kAnchors[k].symbol) found[k] = i;
    pos += len;
  }
  return found;
}

struct OffsetsLayout {
  bool order_6_4 = false;
  size_t offsets = 0, base = 0;
  bool pc_relative = false;  // no base: an offset counts from its own slot
};

// CONFIG_KALLSYMS_ABSOLUTE_PERCPU: offsets >= 0 are absolute values (the
// zero-based percpu symbols), negative ones count down from base - 1.
// Otherwise every offset is an unsigned distance from the base.
uint64_t decode_address(int32_t offset, uint64_t base, bool absolute_percpu, bool wide) {
  const uint64_t address = absolute_percpu ? (offset >= 0 ? static_cast<uint64_t>(offset)
                                                          : base - 1 - static_cast<uint64_t>(int64_t{offset}))
                                           : base + static_cast<uint32_t>(offset);
  return wide ? address : address & 0xffffffffu;
}

// The address slot `at` of .rodata holds with a PC-relative `offset`.
uint64_t decode_pc_relative(int32_t offset, uint64_t slot, bool wide) {
  const uint64_t address = slot + static_cast<uint64_t>(int64_t{offset});
  return wide ? address : address & 0xffffffffu;
}

Rodata rodata_of(const Artifact& a, const Section& s, unsigned align) {
  Rodata ro;
  ro.r = ByteReader(s.data, a.endian);
  ro.addr = s.addr;
  ro.size = s.data.size();
  ro.align = align;
  return ro;
}

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

std::optional<detail::ImageKallsyms> locate_aligned(const Artifact& a, const Rodata& ro, std::string& why,
                                                    TokenTable& table_out) {
  using detail::ImageKallsyms;

  bool too_many = false, tables_cut = false;
  const std::vector<TokenTable> tables = find_token_tables(ro, too_many, tables_cut);
  if (tables.empty()) {
    why = too_many ? "more than 4096 \"0\"..\"9\" token runs in .rodata, none a kallsyms token table so far"
                   : "no kallsyms token table in .rodata (no \"0\"..\"9\" single-character tokens with a matching "
                     "token index)";
    return std::nullopt;
  }

  std::vector<MarkerCandidate> markers;
  for (const auto& t : tables)
    for (const uint32_t width : {4u, 8u})
      if (width == 4 || a.elf64) find_marker_candidates(ro, t, width, markers);
  // Long arrays first: a run of zeros gives many one-entry candidates.
  std::stable_sort(markers.begin(), markers.end(),
                   [](const MarkerCandidate& x, const MarkerCandidate& y) { return x.count > y.count; });
  if (markers.size() > kMaxMarkerCandidates) markers.resize(kMaxMarkerCandidates);

  Work work{64 * uint64_t{ro.size} + (uint64_t{1} << 24)};
  std::vector<NameTable> names;
  for (const auto& m : markers) {
    find_name_tables(ro, m, work, names);
    if (work.exhausted || names.size() >= kMaxNameTables) break;
  }
  if (names.empty()) {
    why = "kallsyms token table at .rodata+" + hex(tables.front().start) + ", but " +
          (work.exhausted ? std::string("gave up checking name streams (too many inconsistent candidates)")
                          : std::string("no symbol count, name stream and marker array consistent with it")) +
          (tables_cut ? " (nor with the next " + std::to_string(kMaxTokenTables - 1) +
                            " token tables; more were not tried)"
                      : std::string());
    return std::nullopt;
  }

  // Offsets and relative base, in either order and either encoding, chosen by the anchors.
  const unsigned base_size = a.elf64 ? 8 : 4;
  struct Choice {
    ImageKallsyms found;
    const TokenTable* table = nullptr;
    bool monotonic = false;
    size_t anchors = 0;
  };
  std::vector<Choice> choices;
  std::string mismatch;
  size_t mismatch_matches = 0;
  for (const auto& nt : names) {
    const auto anchor_index = find_anchors(ro, nt);
    const uint64_t offsets_size = 4 * uint64_t{nt.count};
    std::vector<OffsetsLayout> layouts;
    // Pre-6.4: offsets, relative_base, num_syms.
    if (nt.num_syms_at >= base_size) {
      const size_t base = nt.num_syms_at - base_size;
      const uint64_t span = (offsets_size + ro.align - 1) / ro.align * ro.align;  // padded to the next table
      if (base >= span && ro.aligned(base)) layouts.push_back({false, static_cast<size_t>(base - span), base});
    }
    // 6.4+: token index, offsets, relative_base; 7.x: token index, PC-relative offsets.
    {
      const size_t offsets = ro.up(nt.markers.table->index + 512);
      if (ro.r.contains(offsets, offsets_size)) {
        const size_t base = ro.up(offsets + static_cast<size_t>(offsets_size));
        layouts.push_back({true, offsets, base});
        layouts.push_back({true, offsets, 0, true});
      }
    }
    for (const auto& layout : layouts) {
      if (!ro.r.contains(layout.offsets, offsets_size)) continue;
      if (!layout.pc_relative && !ro.r.contains(layout.base, base_size)) continue;
      const uint64_t base = layout.pc_relative ? 0
                            : base_size == 8   ? ro.r.at<uint64_t>(layout.base)
                                               : ro.r.at<uint32_t>(layout.base);
      for (const bool absolute_percpu : {true, false}) {
        if (layout.pc_relative && absolute_percpu) continue;  // no such combination
        auto address = [&](uint32_t i) {
          const size_t slot = layout.offsets + 4 * size_t{i};
          const int32_t offset = ro.r.at<int32_t>(slot);
          return layout.pc_relative ? decode_pc_relative(offset, ro.addr + slot, a.elf64)
                                    : decode_address(offset, base, absolute_percpu, a.elf64);
        };
        Choice c;
        std::string wrong;  // the first anchor that disagrees
        for (size_t k = 0; k < std::size(kAnchors); ++k) {
          const Section* s = a.section(kAnchors[k].section);
          if (anchor_index[k] < 0 || !s) continue;
          const uint64_t got = address(static_cast<uint32_t>(anchor_index[k]));
          if (got == s->addr)
            c.found.anchors.emplace_back(kAnchors[k].symbol);
          else if (wrong.empty())
            wrong = std::string(kAnchors[k].symbol) + " decodes to " + hex(got) + ", " +
                    std::string(kAnchors[k].section) + " is at " + hex(s->addr);
        }
        if (!wrong.empty()) {
          // Name the disagreement of the layout that came closest.
          if (mismatch.empty() || c.found.anchors.size() > mismatch_matches) {
            mismatch = std::move(wrong);
            mismatch_matches = c.found.anchors.size();
          }
          continue;
        }
        c.anchors = c.found.anchors.size();
        c.monotonic = true;
        uint64_t previous = 0;
        for (uint32_t i = 0; i < nt.count && c.monotonic; ++i) {
          const uint64_t addr = address(i);
          c.monotonic = i == 0 || addr >= previous;
          previous = addr;
        }
        if (c.anchors == 0 && !c.monotonic) continue;
        c.table = nt.markers.table;
        ImageKallsyms& f = c.found;
        f.order_6_4 = layout.order_6_4;
        f.pc_relative = layout.pc_relative;
        f.table_align = ro.align;
        f.seqs_before_tokens = nt.markers.seqs;
        f.absolute_percpu = absolute_percpu;
        f.num_syms = nt.count;
        f.marker_width = nt.markers.width;
        f.relative_base = base;
        f.num_syms_at = nt.num_syms_at;
        f.names_at = nt.names;
        f.markers_at = nt.markers.markers;
        f.token_table_at = nt.markers.table->start;
        f.token_index_at = nt.markers.table->index;
        f.offsets_at = layout.offsets;
        f.relative_base_at = layout.pc_relative ? 0 : layout.base;
        choices.push_back(std::move(c));
      }
    }
  }
  if (choices.empty()) {
    why = "kallsyms names at .rodata+" + hex(names.front().names) + " (" + std::to_string(names.front().count) +
          " symbols), but no offsets table decodes to the section addresses" +
          (mismatch.empty() ? std::string() : " (" + mismatch + ")");
    return std::nullopt;
  }
  // Most anchors, then ascending addresses (the tables are sorted by address).
  const auto best = std::max_element(choices.begin(), choices.end(), [](const Choice& x, const Choice& y) {
    return std::pair(x.anchors, x.monotonic) < std::pair(y.anchors, y.monotonic);
  });
  if (best->anchors == 0) {
    const size_t ties = static_cast<size_t>(std::count_if(choices.begin(), choices.end(), [&](const Choice& c) {
      return c.anchors == 0 && c.monotonic;
    }));
    if (ties > 1) {
      why = "kallsyms tables found, but without _stext or another anchor symbol the offset encoding is ambiguous";
      return std::nullopt;
    }
  }
  table_out = *best->table;
  return std::move(best->found);
}

std::optional<detail::ImageKallsyms> locate(const Artifact& a, std::string& why, TokenTable& table_out) {
  if (a.kind != ArtifactKind::Elf) {
    why = "not an ELF kernel image";
    return std::nullopt;
  }
  const Section* rodata = a.section(".rodata");
  if (!rodata || rodata->data.empty()) {
    why = "no .rodata section to find the kallsyms tables in";
    return std::nullopt;
  }
  // The word size first (up to 6.x), then 4 (7.x); the first attempt's
  // reason is the one reported.
  std::string first_why;
  for (const unsigned align : {8u, 4u}) {
    if (align == 8 && !a.elf64) continue;
    std::string attempt_why;
    if (auto found = locate_aligned(a, rodata_of(a, *rodata, align), attempt_why, table_out)) return found;
    if (first_why.empty()) first_why = attempt_why;
  }
  why = first_why;
  return std::nullopt;
}

}  // namespace

namespace detail {

std::optional<ImageKallsyms> locate_image_kallsyms(const Artifact& a, std::string& why) {
  TokenTable table;
  return locate(a, why, table);
}

}  // namespace detail

std::optional<SymbolIndex> symbols_from_image_kallsyms(const Artifact& a, std::string& why) {
  TokenTable table;
  const auto found = locate(a, why, table);
  if (!found) return std::nullopt;
  const Rodata ro = rodata_of(a, *a.section(".rodata"), found->table_align);

  SymbolIndex index;
  index.origin = "kallsyms in the image";
  const auto& tokens = table.tokens;
  // Real names expand to 2-3 times their encoded size; more is hostile.
  const uint64_t max_chars = 32 * uint64_t{found->markers_at - found->names_at} + (uint64_t{1} << 20);
  // Every name expanded into one buffer the index keeps; the symbols view
  // it once it is complete (appending moves it until then).
  auto names = std::make_shared<std::string>();
  std::vector<Symbol> symbols(found->num_syms);
  std::vector<std::pair<size_t, size_t>> spans(found->num_syms);  // (start, length) in *names
  size_t pos = found->names_at;
  for (uint32_t i = 0; i < found->num_syms; ++i) {
    uint32_t len = ro.byte(pos++);  // the locator checked the stream's bounds
    if (len & 0x80) len = (len & 0x7f) | uint32_t{ro.byte(pos++)} << 7;
    const std::string_view first = tokens[ro.byte(pos)];  // the type letter and the name's start
    const size_t start = names->size();
    symbols[i].type = first[0];
    names->append(first.substr(1));
    for (uint32_t k = 1; k < len && names->size() - start < kMaxNameChars; ++k) names->append(tokens[ro.byte(pos + k)]);
    pos += len;
    spans[i] = {start, names->size() - start};
    if (spans[i].second >= kMaxNameChars || names->size() + i + 1 > max_chars) {
      why = "kallsyms names expand to more than any kernel's (entry " + std::to_string(i) + ")";
      return std::nullopt;
    }
    const size_t slot = found->offsets_at + 4 * size_t{i};
    symbols[i].address = found->pc_relative
                             ? decode_pc_relative(ro.r.at<int32_t>(slot), ro.addr + slot, a.elf64)
                             : decode_address(ro.r.at<int32_t>(slot), found->relative_base, found->absolute_percpu, a.elf64);
  }
  index.keep(names);
  index.reserve(symbols.size());
  for (uint32_t i = 0; i < found->num_syms; ++i) {
    symbols[i].name = SymbolName(std::string_view(*names).substr(spans[i].first, spans[i].second));
    index.add_in_place(symbols[i]);
  }
  index.finish();
  return index;
}

}  // namespace elfmeta::input
