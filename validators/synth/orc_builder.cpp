#include "synth/orc_builder.h"

#include <algorithm>
#include <cstring>

#include "synth/elf_writer.h"

namespace elfmeta::synth {
namespace {

constexpr uint64_t kTextBase = 0xffffffff81000000ull;
constexpr uint64_t kDataBase = 0xffffffff82000000ull;

void put32(std::vector<uint8_t>& v, size_t at, uint32_t x) { std::memcpy(v.data() + at, &x, 4); }

// A release that writes the layout (banner, vermagic). G3+AX was released
// by no one: a 7.0 stable that took the AX backport would carry it.
std::string sample_release(orc::Layout l) {
  switch (l) {
    case orc::Layout::G1: return "6.1.0-test";
    case orc::Layout::G2: return "6.3.10-test";
    case orc::Layout::G3: return "6.12.0-test";
    case orc::Layout::G4: return "7.2.0-test";
    case orc::Layout::G3_AX: return "7.0.0-test";
  }
  return "";
}

}  // namespace

OrcBuilder::OrcBuilder(orc::Layout layout, bool image, bool module)
    : with_header(orc::layout_info(layout).fingerprint && (image || module)), layout_(layout), image_(image), module_(module) {}

uint32_t OrcBuilder::add_code(std::string name, uint64_t size) {
  uint64_t addr = 0;
  if (image_) {
    addr = kTextBase;
    if (!codes_.empty()) addr = (codes_.back().addr + codes_.back().size + 0xfff) & ~uint64_t(0xfff);
  }
  codes_.push_back({std::move(name), size, addr});
  return static_cast<uint32_t>(codes_.size() - 1);
}

std::vector<OrcBuilder::Row> OrcBuilder::written_rows() const {
  std::vector<Row> rows = rows_;
  if (image_)
    std::stable_sort(rows.begin(), rows.end(), [&](const Row& x, const Row& y) {
      const uint64_t ax = codes_[x.code].addr + x.offset, ay = codes_[y.code].addr + y.offset;
      if (ax != ay) return ax < ay;
      return orc::is_weak(x.entry) && !orc::is_weak(y.entry);
    });
  return rows;
}

std::vector<uint8_t> OrcBuilder::build() const {
  ElfWriter w(image_ ? ET_EXEC : ET_REL);
  std::vector<uint32_t> code_index;
  for (const Code& c : codes_)
    code_index.push_back(w.add_section({c.name, SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, c.addr, 16, 0,
                                        std::vector<uint8_t>(c.size, 0x90)}));
  const auto rows = written_rows();
  const size_t n = rows.size();
  std::vector<uint8_t> ip(n * orc::kIpSize, 0), unwind;
  for (const Row& r : rows) {
    const auto bytes = orc::encode(r.entry, layout_);
    unwind.insert(unwind.end(), bytes.begin(), bytes.end());
  }
  uint64_t data_addr = kDataBase;
  auto place = [&](uint64_t size, uint64_t align) {
    data_addr = (data_addr + align - 1) / align * align;
    const uint64_t at = data_addr;
    data_addr += size;
    return image_ ? at : 0;
  };
  uint32_t header_index = 0;
  uint64_t header_addr = 0;
  if (with_header) {
    const orc::Fingerprint fingerprint = orc::layout_info(layout_).fingerprint.value_or(orc::Fingerprint{});
    header_addr = place(orc::kHeaderSize, 4);
    header_index = w.add_section({".orc_header", SHT_PROGBITS, SHF_ALLOC, header_addr, 4, 0,
                                  std::vector<uint8_t>(fingerprint.begin(), fingerprint.end())});
  }
  const uint64_t ip_addr = place(ip.size(), 4);
  if (image_)
    for (size_t i = 0; i < n; ++i) {
      const uint64_t target = codes_[rows[i].code].addr + rows[i].offset;
      put32(ip, i * 4, static_cast<uint32_t>(target - (ip_addr + i * 4)));
    }
  const uint32_t ip_index =
      w.add_section({".orc_unwind_ip", SHT_PROGBITS, SHF_ALLOC, ip_addr, image_ ? 4u : 1u, image_ ? 0u : 4u, ip});
  const uint64_t unwind_addr = place(unwind.size(), 2);
  w.add_section({".orc_unwind", SHT_PROGBITS, SHF_ALLOC, unwind_addr, image_ ? 2u : 1u, image_ ? 0u : 6u, unwind});
  if (!image_)
    for (size_t i = 0; i < n; ++i)
      w.add_rela(ip_index, i * 4, R_X86_64_PC32, w.section_symbol(code_index[rows[i].code]),
                 static_cast<int64_t>(rows[i].offset));
  for (const Function& f : functions_)
    w.add_symbol(f.name, codes_[f.code].addr + f.offset, f.size, STT_FUNC, STB_GLOBAL, code_index[f.code]);
  const std::string release = sample_release(layout_);
  if (image_ && !codes_.empty()) {
    // The lookup range: the first code section, as _stext.._etext.
    const Code& text = codes_.front();
    const uint64_t words = (text.size + orc::kLookupBlockSize - 1) / orc::kLookupBlockSize + 1;
    const uint64_t lookup_addr = place(words * 4, 4);
    const uint32_t lookup_index = w.add_section({".orc_lookup", SHT_NOBITS, SHF_ALLOC | SHF_WRITE, lookup_addr, 4, 0, {}, words * 4});
    auto sym = [&](const char* name, uint64_t value, uint32_t section) { w.add_symbol(name, value, 0, STT_NOTYPE, STB_GLOBAL, section); };
    sym("_stext", text.addr, code_index.front());
    sym("_etext", text.addr + text.size, code_index.front());
    sym("__start_orc_unwind_ip", ip_addr, ip_index);
    sym("__stop_orc_unwind_ip", ip_addr + ip.size(), ip_index);
    sym("__start_orc_unwind", unwind_addr, ip_index + 1);
    sym("__stop_orc_unwind", unwind_addr + unwind.size(), ip_index + 1);
    if (with_header) {
      sym("__start_orc_header", header_addr, header_index);
      sym("__stop_orc_header", header_addr + orc::kHeaderSize, header_index);
    }
    sym("orc_lookup", lookup_addr, lookup_index);
    sym("orc_lookup_end", lookup_addr + words * 4, lookup_index);
    // What makes an ELF a kernel image for elfmeta, and its banner.
    w.add_section({"__ksymtab_strings", SHT_PROGBITS, SHF_ALLOC, place(1, 1), 1, 0, {0}});
    if (with_release) {
      const std::string banner = "Linux version " + release + " (elfmeta) #1 SMP\n";
      w.add_section({".rodata", SHT_PROGBITS, SHF_ALLOC, place(banner.size() + 1, 8), 8, 0,
                     std::vector<uint8_t>(banner.begin(), banner.end() + 0)});
    }
  } else if (module_) {
    std::string modinfo = "name=elfmeta_test";
    modinfo += '\0';
    if (with_release) modinfo += "vermagic=" + release + " SMP mod_unload " + '\0';
    w.add_section({".modinfo", SHT_PROGBITS, SHF_ALLOC, 0, 1, 0, std::vector<uint8_t>(modinfo.begin(), modinfo.end())});
    w.add_section({".gnu.linkonce.this_module", SHT_PROGBITS, SHF_ALLOC | SHF_WRITE, 0, 64, 0, std::vector<uint8_t>(64, 0)});
  }
  return w.write();
}

OrcBuilder orc_from_plan(const OrcPlan& plan) {
  using orc::Entry;
  const orc::Layout layout = plan.layout;
  OrcBuilder b(layout, plan.image, plan.module);
  static constexpr const char* kNames[] = {".text", ".init.text", ".text.unlikely", ".noinstr.text"};
  const uint64_t lead = plan.prefixes ? 16 : 0;
  int fn = 0;
  for (size_t s = 0; s < plan.sections.size() && s < std::size(kNames); ++s) {
    const auto& functions = plan.sections[s];
    if (functions.empty()) continue;
    // Offsets first, to know the section's size.
    std::vector<uint64_t> offsets;
    uint64_t offset = 0;
    for (const OrcPlan::Function& f : functions) {
      if (plan.prefixes) offset = ((offset + 15) & ~uint64_t(15)) + 16;  // 16-aligned, after its prefix
      offsets.push_back(offset);
      offset += 16 + f.size;
      if (f.padded) offset = (offset + 16) & ~uint64_t(15);  // 1 to 16 bytes of padding
    }
    const uint32_t code = b.add_code(kNames[s], offset);
    Entry last;  // objtool merges repeated state
    bool have_last = false;
    auto emit = [&](uint64_t at, const Entry& e) {
      if (have_last && orc::encode(last, layout) == orc::encode(e, layout)) return;
      b.add_entry(code, at, e);
      last = e;
      have_last = true;
    };
    for (size_t i = 0; i < functions.size(); ++i) {
      const OrcPlan::Function& f = functions[i];
      const uint64_t start = offsets[i], size = 16 + f.size, end = start + size;
      const std::string name = "fn" + std::to_string(fn++);
      b.add_function(code, start, size, name);
      if (plan.prefixes) {
        b.add_function(code, start - 16, 16, "__pfx_" + name);
        emit(start - 16, orc::call_frame(8));  // the entry state, from the prefix on
      }
      emit(start, orc::call_frame(8));
      // push %rbp; a frame pointer or a stack frame; pop %rbp; ret.
      emit(start + 1, orc::call_frame(16, orc::kRegSp, orc::kRegPrevSp, -16));
      if (f.frame_pointer)
        emit(start + 4, orc::call_frame(16, orc::kRegBp, orc::kRegPrevSp, -16));
      else
        emit(start + 4, orc::call_frame(static_cast<int16_t>(16 + 8 * f.frame_words), orc::kRegSp, orc::kRegPrevSp, -16));
      emit(end - 2, orc::call_frame(16, orc::kRegSp, orc::kRegPrevSp, -16));
      emit(end - 1, orc::call_frame(8));
      // Padding after the function has no state.
      const bool next_follows = i + 1 < functions.size() && offsets[i + 1] - lead == end;
      if (!next_follows && end < offset) emit(end, orc::terminator());
    }
    have_last = false;
    emit(offset, orc::terminator());  // the section's end
  }
  return b;
}

OrcPlan random_orc_plan(std::mt19937_64& rng, orc::Layout layout, bool image, bool module, bool prefixes) {
  auto pick = [&](uint64_t n) { return static_cast<uint32_t>(n ? rng() % n : 0); };
  OrcPlan plan{layout, image, module, prefixes, {}};
  plan.sections.resize(1 + pick(3));
  for (auto& functions : plan.sections) {
    functions.resize(1 + pick(8));
    for (auto& f : functions) f = {static_cast<uint16_t>(pick(200)), pick(2) == 1, pick(2) == 1, static_cast<uint8_t>(pick(40))};
  }
  return plan;
}

OrcBuilder random_orc(std::mt19937_64& rng, orc::Layout layout, bool image, bool module, bool prefixes) {
  return orc_from_plan(random_orc_plan(rng, layout, image, module, prefixes));
}

}  // namespace elfmeta::synth
