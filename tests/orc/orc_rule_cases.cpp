#include "tests/orc/orc_rule_cases.h"

#include <elf.h>

#include <algorithm>
#include <cstring>
#include <set>
#include <sstream>

#include "core/report.h"
#include "orc/orc_format.h"
#include "orc/verifier.h"
#include "synth/elf_patch.h"

namespace elfmeta::testing {

using namespace orc;

std::optional<Release> object_kernel(orc::Layout layout) { return layout_info(layout).first; }

OrcMutation::OrcMutation(std::vector<uint8_t> elf, std::optional<input::SymbolIndex> symbols, std::optional<Release> kernel)
    : bytes_(std::move(elf)), symbols_(std::move(symbols)), kernel_(kernel) {
  auto opened = input::open_bytes("table", bytes_);
  if (!opened.artifact) throw std::runtime_error(opened.error);
  artifact_ = std::move(opened.artifact);
  NullSink discard;
  OrcFindings f("table", discard);
  table_ = read_orc(*artifact_, kernel_, f);
  if (!table_) throw std::runtime_error("no ORC in the table to mutate");
}

uint8_t* OrcMutation::header(const std::string& section) {
  const input::Section* s = artifact_->section(section);
  if (!s) throw std::runtime_error("no section " + section);
  Elf64_Ehdr eh;
  std::memcpy(&eh, bytes_.data(), sizeof eh);
  return bytes_.data() + eh.e_shoff + uint64_t(s->index) * eh.e_shentsize;
}

void OrcMutation::set_size(const std::string& section, uint64_t size) { std::memcpy(header(section) + offsetof(Elf64_Shdr, sh_size), &size, 8); }
void OrcMutation::set_flags(const std::string& section, uint64_t flags) { std::memcpy(header(section) + offsetof(Elf64_Shdr, sh_flags), &flags, 8); }
void OrcMutation::set_addr(const std::string& section, uint64_t addr) { std::memcpy(header(section) + offsetof(Elf64_Shdr, sh_addr), &addr, 8); }
void OrcMutation::set_type(const std::string& section, uint32_t type) { std::memcpy(header(section) + offsetof(Elf64_Shdr, sh_type), &type, 4); }

uint8_t* OrcMutation::contents(const std::string& section) {
  const input::Section* s = artifact_->section(section);
  if (!s) throw std::runtime_error("no section " + section);
  return bytes_.data() + s->file_offset;
}

void OrcMutation::replace(const std::string& section, const std::vector<uint8_t>& data) {
  auto patched = synth::replace_section(bytes_, section, data);
  if (!patched) throw std::runtime_error("cannot replace " + section);
  bytes_ = std::move(*patched);
}

void OrcMutation::rename(const std::string& section, const std::string& name) {
  uint32_t name_off;
  std::memcpy(&name_off, header(section) + offsetof(Elf64_Shdr, sh_name), 4);
  Elf64_Ehdr eh;
  std::memcpy(&eh, bytes_.data(), sizeof eh);
  const input::Section* names = artifact_->section_at(eh.e_shstrndx);
  std::memcpy(bytes_.data() + names->file_offset + name_off, name.data(), name.size());
}

size_t OrcMutation::relas() const {
  const input::Section* s = artifact_->section(".rela.orc_unwind_ip");
  return s ? s->data.size() / sizeof(Elf64_Rela) : 0;
}
uint8_t* OrcMutation::rela(size_t k) { return contents(".rela.orc_unwind_ip") + k * sizeof(Elf64_Rela); }

void OrcMutation::set_symbol(const std::string& name, uint64_t value) {
  const input::Section* symtab = artifact_->section(".symtab");
  const input::Section* strtab = symtab ? artifact_->section_at(symtab->link) : nullptr;
  if (!strtab) throw std::runtime_error("no .symtab");
  for (size_t off = 0; off + sizeof(Elf64_Sym) <= symtab->data.size(); off += sizeof(Elf64_Sym)) {
    Elf64_Sym sym;
    std::memcpy(&sym, symtab->data.data() + off, sizeof sym);
    if (sym.st_name < strtab->data.size() && name == reinterpret_cast<const char*>(strtab->data.data()) + sym.st_name) {
      std::memcpy(bytes_.data() + symtab->file_offset + off + offsetof(Elf64_Sym, st_value), &value, 8);
      return;
    }
  }
  throw std::runtime_error("no symbol " + name);
}

void OrcMutation::set_raw_entry(size_t i, const std::array<uint8_t, 6>& e) {
  std::memcpy(contents(".orc_unwind") + i * kEntrySize, e.data(), kEntrySize);
}
void OrcMutation::set_entry(size_t i, const Entry& e) { set_raw_entry(i, encode(e, table_->layout)); }

void OrcMutation::set_address(size_t i, uint64_t address) {
  const uint32_t rel = static_cast<uint32_t>(address - (table_->ip->addr + i * kIpSize));
  std::memcpy(contents(".orc_unwind_ip") + i * kIpSize, &rel, 4);
}

std::optional<size_t> OrcMutation::find(const std::function<bool(size_t)>& pred, size_t from) const {
  for (size_t i = from; i < entries(); ++i)
    if (pred(i)) return i;
  return std::nullopt;
}

std::set<std::string> orc_rules_fired(OrcMutation& m, std::string* listing) {
  std::set<std::string> rules;
  for (const auto& [rule, count] : orc_rule_counts(m, listing)) rules.insert(rule);
  return rules;
}

std::map<std::string, size_t> orc_rule_counts(OrcMutation& m, std::string* listing) {
  auto opened = input::open_bytes("mutated", m.bytes());
  std::map<std::string, size_t> rules;
  if (!opened.artifact) {
    rules["<unreadable: " + opened.error + ">"] = 1;
    return rules;
  }
  OrcOptions options;
  options.symbols = m.symbols() ? &*m.symbols() : nullptr;
  options.kernel = m.kernel();
  DiagnosticList list;
  check_orc(*opened.artifact, options, list);
  std::ostringstream out;
  for (const auto& d : list.items()) {
    write_text(out, d);
    if (d.rule) ++rules[std::string(d.rule->id)];
  }
  if (listing) *listing = out.str();
  return rules;
}

namespace {

bool frame(const OrcMutation& m, size_t i) {
  const Entry& e = m.entry(i);
  return e.type == kTypeCall && !is_weak(e);
}
// A call frame that is not at a function start (so that changing it does
// not also break ORC-SYM-001): the state after a push.
std::optional<size_t> inner_frame(const OrcMutation& m) {
  return m.find([&](size_t i) { return frame(m, i) && m.entry(i).sp_reg == kRegSp && m.entry(i).sp_offset == 16 &&
                                       m.entry(i).bp_reg == kRegPrevSp; });
}
uint64_t u64_at(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}
void put_u64(uint8_t* p, uint64_t v) { std::memcpy(p, &v, 8); }
// A symbol of an image moved: in its .symtab, or in the kallsyms it is
// checked with.
void shift_symbol(OrcMutation& m, const std::string& name, int64_t delta) {
  if (!m.symbols()) {
    const auto own = input::symbols_from_symtab(m.original());
    const input::Symbol* s = own ? own->find(name) : nullptr;
    if (!s) throw std::runtime_error("no symbol " + name);
    m.set_symbol(name, s->address + static_cast<uint64_t>(delta));
    return;
  }
  input::SymbolIndex edited;
  edited.origin = m.symbols()->origin;
  for (auto s : m.symbols()->symbols()) {
    if (s.name == name) s.address += static_cast<uint64_t>(delta);
    edited.add(std::move(s));
  }
  edited.finish();
  m.symbols() = std::move(edited);
}

// Entry i moved `delta` bytes: its slot (images) or its relocation's addend.
void move_entry(OrcMutation& m, size_t i, int64_t delta) {
  if (!m.table().relocatable) {
    m.set_address(i, m.address(i) + static_cast<uint64_t>(delta));
    return;
  }
  for (size_t k = 0; k < m.relas(); ++k)
    if (u64_at(m.rela(k)) == i * kIpSize) put_u64(m.rela(k) + 16, u64_at(m.rela(k) + 16) + static_cast<uint64_t>(delta));
}

std::vector<OrcRuleCase> make_cases() {
  std::vector<OrcRuleCase> c;
  // ---------------------------------------------------------------- sections
  c.push_back({"ORC-SEC-001", kAnyScope, kAnyLayout, [](OrcMutation& m) {
                 m.rename(".orc_unwind", ".orc_unwinx");
                 return true;
               }});
  // Two more bytes: no longer whole entries (an image's boundary symbols
  // keep the old size).
  c.push_back({"ORC-SEC-002", kAnyScope, kAnyLayout, [](OrcMutation& m) {
                 m.set_size(".orc_unwind", m.original().section(".orc_unwind")->size + 2);
                 return true;
               }, {"ORC-SEC-009"}});
  c.push_back({"ORC-SEC-003", kRelocatable, kAnyLayout, [](OrcMutation& m) {
                 m.set_flags(".orc_unwind", SHF_ALLOC | SHF_WRITE);
                 return true;
               }});
  // A relocation moved off its slot leaves the slot without one.
  c.push_back({"ORC-SEC-004", kRelocatable, kAnyLayout, [](OrcMutation& m) {
                 if (!m.relas()) return false;
                 put_u64(m.rela(0), u64_at(m.rela(0)) + 2);
                 return true;
               }});
  c.push_back({"ORC-SEC-005", kRelocatable, kAnyLayout, [](OrcMutation& m) {
                 if (!m.relas()) return false;
                 const uint64_t info = u64_at(m.rela(0) + 8);
                 put_u64(m.rela(0) + 8, (info & ~uint64_t(0xffffffff)) | R_X86_64_PLT32);
                 return true;
               }});
  c.push_back({"ORC-SEC-006", kRelocatable, kAnyLayout, [](OrcMutation& m) {
                 if (!m.relas()) return false;
                 put_u64(m.rela(0) + 16, u64_at(m.rela(0) + 16) + (1u << 24));
                 return true;
               }});
  c.push_back({"ORC-SEC-007", kRelocatable, kAnyLayout, [](OrcMutation& m) {
                 m.contents(".orc_unwind_ip")[0] = 0x11;
                 return true;
               }});
  c.push_back({"ORC-SEC-008", kModule | kImage, kWithHeader, [](OrcMutation& m) {
                 if (!m.original().section(".orc_header")) return false;
                 m.contents(".orc_header")[0] ^= 0xff;
                 return true;
               }});
  c.push_back({"ORC-SEC-009", kImage, kAnyLayout, [](OrcMutation& m) {
                 shift_symbol(m, "__stop_orc_unwind_ip", 8);
                 return true;
               }});
  c.push_back({"ORC-SEC-010", kImage, kAnyLayout, [](OrcMutation& m) {
                 if (!m.table().lookup) return false;
                 m.set_size(".orc_lookup", m.table().lookup->size - 4);
                 return true;
               }});
  c.push_back({"ORC-SEC-011", kImage, kAnyLayout, [](OrcMutation& m) {
                 m.set_addr(".orc_unwind", m.table().unwind->addr + 1);
                 shift_symbol(m, "__start_orc_unwind", 1);
                 shift_symbol(m, "__stop_orc_unwind", 1);
                 return true;
               }});
  // No header, no release, and every entry but the terminators with a bit
  // that is reserved in every layout: none fits, and the entries go
  // unchecked (the reserved bits are never reported).
  c.push_back({"ORC-SEC-012", kAnyScope, kAnyLayout, [](OrcMutation& m) {
                 m.kernel().reset();
                 if (m.original().section(".orc_header")) m.rename(".orc_header", ".orc_headex");
                 for (const char* section : {".rodata", ".modinfo"})
                   if (const input::Section* s = m.original().section(section))
                     for (const std::string_view key : {"Linux version ", "vermagic="}) {
                       const std::string_view text(reinterpret_cast<const char*>(s->data.data()), s->data.size());
                       for (size_t at = text.find(key); at != std::string_view::npos; at = text.find(key, at + 1))
                         m.contents(section)[at] = 'X';
                     }
                 // One broken entry among a few is still a table of its layout:
                 // it takes two.
                 size_t broken = 0;
                 for (size_t i = 0; i < m.entries(); ++i) {
                   std::array<uint8_t, 6> raw = m.entry(i).bytes;
                   if (raw == std::array<uint8_t, 6>{}) continue;
                   raw[5] |= 0x80;
                   m.set_raw_entry(i, raw);
                   ++broken;
                 }
                 return broken >= 2;
               }});
  // ---------------------------------------------------------------- entries
  c.push_back({"ORC-ENT-001", kAnyScope, kAnyLayout, [](OrcMutation& m) {
                 const auto i = inner_frame(m);
                 if (!i) return false;
                 Entry e = m.entry(*i);
                 const uint16_t mask = layout_info(m.table().layout).reserved_mask;
                 e.reserved = mask & static_cast<uint16_t>(-mask);  // its lowest reserved bit
                 m.set_entry(*i, e);
                 return true;
               }});
  c.push_back({"ORC-ENT-002", kAnyScope, kAnyLayout, [](OrcMutation& m) {
                 const auto i = inner_frame(m);
                 if (!i) return false;
                 Entry e = m.entry(*i);
                 e.bp_reg = kRegDx;
                 m.set_entry(*i, e);
                 return true;
               }});
  c.push_back({"ORC-ENT-003", kAnyScope, kAnyLayout, [](OrcMutation& m) {
                 const auto i = inner_frame(m);
                 if (!i) return false;
                 Entry e = m.entry(*i);
                 // The layout's first undefined type code (3 before 6.4, 5 after).
                 const auto& types = layout_info(m.table().layout).types;
                 e.type = kTypeInvalid;
                 e.raw_type = static_cast<uint8_t>(std::find(types.begin(), types.end(), kTypeInvalid) - types.begin());
                 m.set_entry(*i, e);
                 return true;
               }});
  c.push_back({"ORC-ENT-004", kAnyScope, kFrom6_4, [](OrcMutation& m) {
                 const auto i = m.find([&](size_t k) { return m.entry(k).type == kTypeUndefined; });
                 if (!i) return false;
                 Entry e = m.entry(*i);
                 e.sp_offset = 8;
                 m.set_entry(*i, e);
                 return true;
               }});
  c.push_back({"ORC-ENT-005", kAnyScope, kBefore6_4, [](OrcMutation& m) {
                 const auto i = m.find([&](size_t k) { return m.entry(k).type == kTypeUndefined; });
                 if (!i) return false;
                 Entry e = m.entry(*i);
                 e.bp_offset = -8;
                 m.set_entry(*i, e);
                 return true;
               }});
  c.push_back({"ORC-ENT-006", kAnyScope, kAnyLayout, [](OrcMutation& m) {
                 const auto i = inner_frame(m);
                 if (!i) return false;
                 Entry e = m.entry(*i);
                 e.sp_offset = 20;
                 m.set_entry(*i, e);
                 return true;
               }});
  c.push_back({"ORC-ENT-007", kAnyScope, kAnyLayout, [](OrcMutation& m) {
                 const auto i = inner_frame(m);
                 if (!i) return false;
                 Entry e = m.entry(*i);
                 e.bp_offset = 8;
                 m.set_entry(*i, e);
                 return true;
               }});
  c.push_back({"ORC-ENT-009", kAnyScope, kWithSignal, [](OrcMutation& m) {
                 const auto i = inner_frame(m);
                 if (!i) return false;
                 Entry e = m.entry(*i);
                 e.signal = true;
                 m.set_entry(*i, e);
                 return true;
               }});
  c.push_back({"ORC-ENT-010", kAnyScope, kAnyLayout, [](OrcMutation& m) {
                 const auto i = inner_frame(m);
                 if (!i) return false;
                 Entry e = m.entry(*i);
                 e.type = kTypeRegs;
                 e.signal = layout_info(m.table().layout).signal_bit >= 0;  // a signal frame, as regs frames are
                 m.set_entry(*i, e);
                 return true;
               }});
  // ---------------------------------------------------------------- order
  // Two neighbouring entries of a linked image swapped with their addresses
  // (re-biased): the later address comes first, and the lookup misses it.
  c.push_back({"ORC-SORT-001", kImage, kAnyLayout, [](OrcMutation& m) {
                 const auto i = m.find([&](size_t k) {
                   return k + 2 < m.entries() && m.address(k) < m.address(k + 1) && m.address(k + 1) < m.address(k + 2) &&
                          frame(m, k) && frame(m, k + 1) && k > 0 && m.address(k - 1) < m.address(k);
                 }, 1);
                 if (!i) return false;
                 const uint64_t a = m.address(*i), b = m.address(*i + 1);
                 const Entry ea = m.entry(*i), eb = m.entry(*i + 1);
                 m.set_address(*i, b);
                 m.set_address(*i + 1, a);
                 m.set_entry(*i, eb);
                 m.set_entry(*i + 1, ea);
                 return true;
               }, {"ORC-LOOKUP-003"}});
  c.push_back({"ORC-SORT-002", kImage, kAnyLayout, [](OrcMutation& m) {
                 // A terminator moved after the real entry at its address.
                 const auto i = m.find([&](size_t k) {
                   return k + 1 < m.entries() && is_weak(m.entry(k)) &&
                          m.address(k + 1) > m.address(k) && frame(m, k + 1) &&
                          (k + 2 >= m.entries() || m.address(k + 2) > m.address(k + 1));
                 });
                 if (!i) return false;
                 const Entry weak = m.entry(*i), real = m.entry(*i + 1);
                 m.set_address(*i, m.address(*i + 1));
                 m.set_entry(*i, real);
                 m.set_entry(*i + 1, weak);
                 return true;
               }});
  c.push_back({"ORC-SORT-003", kImage, kAnyLayout, [](OrcMutation& m) {
                 // Two real entries at one address: an inner frame moved back
                 // onto the one before it.
                 const auto i = m.find([&](size_t k) {
                   return k > 0 && frame(m, k) && frame(m, k - 1) && !is_entry_state(m.entry(k)) &&
                          !is_entry_state(m.entry(k - 1)) && m.address(k - 1) < m.address(k) &&
                          (k + 1 >= m.entries() || m.address(k + 1) > m.address(k));
                 });
                 if (!i) return false;
                 m.set_address(*i, m.address(*i - 1));
                 return true;
               }});
  // ---------------------------------------------------------------- coverage
  c.push_back({"ORC-COV-001", kImage, kAnyLayout, [](OrcMutation& m) {
                 const size_t last = m.entries() - 1;
                 m.set_address(last, m.address(last) + (uint64_t(1) << 30));
                 return true;
               }});
  c.push_back({"ORC-COV-002", kRelocatable, kAnyLayout, [](OrcMutation& m) {
                 // The terminator at a section's end moved one byte back.
                 for (size_t k = 0; k < m.relas(); ++k) {
                   const size_t slot = u64_at(m.rela(k)) / 4;
                   if (slot >= m.entries() || !is_weak(m.entry(slot))) continue;
                   const input::Section* code = m.table().code_section(m.table().sites[slot].section);
                   if (!code || m.address(slot) != code->size) continue;
                   put_u64(m.rela(k) + 16, u64_at(m.rela(k) + 16) - 1);
                   return true;
                 }
                 return false;
               }});
  c.push_back({"ORC-COV-004", kObject, kAnyLayout, [](OrcMutation& m) {
                 const auto i = m.find([&](size_t k) {
                   return k > 0 && frame(m, k) && frame(m, k - 1) && m.table().sites[k].section == m.table().sites[k - 1].section &&
                          m.entry(k).sp_offset == 16 && m.entry(k).bp_reg == kRegPrevSp;
                 });
                 if (!i) return false;
                 m.set_raw_entry(*i, m.entry(*i - 1).bytes);
                 return true;
               }, {"ORC-SYM-001"}});
  c.push_back({"ORC-COV-005", kImage, kAnyLayout, [](OrcMutation& m) {
                 // The first entry made a terminator at the second's address.
                 if (m.entries() < 2 || m.address(1) == m.address(0)) return false;
                 m.set_address(0, m.address(1));
                 m.set_entry(0, terminator());
                 return true;
               }});
  c.push_back({"ORC-COV-007", kAnyScope, kAnyLayout, [](OrcMutation& m) {
                 // An inner call frame between two others (all three in one
                 // function: none is a function's entry state) made
                 // undefined, on code that runs: its first byte made a push
                 // (generated tables' code is all NOPs, which would be fill).
                 const OrcTable& t = m.table();
                 const auto i = m.find([&](size_t k) {
                   if (k == 0 || k + 1 >= m.entries() || !frame(m, k - 1) || !frame(m, k) || !frame(m, k + 1)) return false;
                   if (is_entry_state(m.entry(k)) || is_entry_state(m.entry(k + 1))) return false;
                   const Site a = t.sites[k - 1], b = t.sites[k], c = t.sites[k + 1];
                   return a.resolved && b.resolved && c.resolved && a.section == b.section && b.section == c.section &&
                          a.address < b.address && b.address < c.address && c.address - b.address < 256;
                 });
                 if (!i) return false;
                 const Site at = t.sites[*i];
                 const input::Section* code = t.relocatable ? t.code_section(at.section) : t.code_at(at.address);
                 if (!code || code->data.empty()) return false;
                 m.set_entry(*i, terminator());
                 m.contents(code->name)[at.address - (t.relocatable ? 0 : code->addr)] = 0x55;
                 return true;
               }});
  // ---------------------------------------------------------------- lookup
  // A filled .orc_lookup, as in a memory image, with one word changed.
  // word -1: the last one.
  auto filled_lookup = [](OrcMutation& m, int32_t delta, int64_t which) -> bool {
    const input::Section* lookup = m.table().lookup;
    if (!lookup) return false;
    const size_t words = lookup->size / 4;
    const input::Section* text = m.original().section(".text");
    uint64_t start = text->addr;
    if (m.symbols())
      if (const auto* s = m.symbols()->find("_stext")) start = s->address;
    std::vector<uint32_t> table(words);
    size_t k = 0;
    for (size_t i = 0; i < words; ++i) {
      const uint64_t ip = i + 1 == words ? start + (words - 1) * 256 : start + i * 256;
      while (k + 1 < m.entries() && m.address(k + 1) <= ip) ++k;
      table[i] = static_cast<uint32_t>(k);
    }
    const size_t word = which < 0 ? words - 1 : static_cast<size_t>(which);
    if (word >= words) return false;
    const int64_t value = int64_t(table[word]) + delta;
    // The last word only ends the last block's window: one more (while
    // still an entry) changes no lookup.
    if (which < 0 && value >= int64_t(m.entries())) return false;
    table[word] = static_cast<uint32_t>(value);
    std::vector<uint8_t> data(words * 4);
    std::memcpy(data.data(), table.data(), data.size());
    m.replace(".orc_lookup", data);
    m.set_type(".orc_lookup", SHT_PROGBITS);
    return true;
  };
  c.push_back({"ORC-LOOKUP-001", kImage, kAnyLayout, [filled_lookup](OrcMutation& m) { return filled_lookup(m, 1, -1); }});
  c.push_back({"ORC-LOOKUP-002", kImage, kAnyLayout, [filled_lookup](OrcMutation& m) { return filled_lookup(m, 1 << 30, 1); }});
  c.push_back({"ORC-LOOKUP-003", kImage, kAnyLayout, [filled_lookup](OrcMutation& m) {
                 // Word 0 pointing past the entries of block 0.
                 return m.entries() > 4 && m.address(2) < m.table().code.front()->addr + 256 && filled_lookup(m, 2, 0);
               }, {"ORC-LOOKUP-001"}});
  // ---------------------------------------------------------------- symbols
  c.push_back({"ORC-SYM-001", kAnyScope, kAnyLayout, [](OrcMutation& m) {
                 // A function's first entry (call sp+8) made call sp+16.
                 const auto i = m.find([&](size_t k) {
                   return is_entry_state(m.entry(k)) && k + 1 < m.entries() && m.address(k + 1) != m.address(k);
                 });
                 if (!i) return false;
                 Entry e = m.entry(*i);
                 e.sp_offset = 16;
                 m.set_entry(*i, e);
                 return true;
               }, {"ORC-SYM-003"}});
  OrcRuleCase pfx{"ORC-SYM-003", kAnyScope, kFrom6_4, [](OrcMutation& m) {
                    // The entry state moved from the prefix to the function: the
                    // prefix falls under the padding before it. A prefix it is:
                    // a __pfx_ symbol starts there (not every entry state after
                    // padding is one, in 7.2's image the first is not).
                    std::set<uint64_t> prefixes;
                    const auto own = m.symbols() ? std::nullopt : input::symbols_from_symtab(m.original());
                    const input::SymbolIndex* symbols = m.symbols() ? &*m.symbols() : own ? &*own : nullptr;
                    if (symbols)
                      for (const auto& sym : symbols->symbols())
                        if (sym.name.starts_with("__pfx_")) prefixes.insert(sym.address);
                    const auto i = m.find([&](size_t k) {
                      return k > 0 && is_entry_state(m.entry(k)) && is_weak(m.entry(k - 1)) &&
                             m.table().sites[k - 1].section == m.table().sites[k].section &&
                             k + 1 < m.entries() && m.address(k + 1) > m.address(k) + 16 &&
                             (m.table().relocatable || prefixes.count(m.address(k)));
                    });
                    if (!i) return false;
                    move_entry(m, *i, 16);
                    return true;
                  }};
  pfx.needs_prefixes = true;
  c.push_back(pfx);
  return c;
}

}  // namespace

const std::vector<OrcRuleCase>& orc_rule_cases() {
  static const std::vector<OrcRuleCase> cases = make_cases();
  return cases;
}

}  // namespace elfmeta::testing
