#include "fuzz_support.h"

#include <elf.h>

#include <algorithm>
#include <map>
#include <sstream>

#include "btf/artifact_check.h"
#include "btf/xc/cross_check.h"
#include "input/symbols.h"
#include "core/diagnostic.h"
#include "core/report.h"
#include "fuzz/fuzz_image.h"
#include "fuzz/orc_layout_byte.h"
#include "orc/orc_format.h"
#include "orc/verifier.h"
#include "sframe/lookup.h"
#include "sframe/sframe_table.h"
#include "sframe/verifier.h"
#include "synth/elf_writer.h"
#include "synth/xc_image.h"

namespace elfmeta::fuzz {

void check_everything(const input::Artifact& a) {
  NullSink sink;
  btf::CheckOptions options;
  options.concurrent = false;
  options.kernel = btf::KernelProfile(btf::kernel_of(a).release);
  const btf::ArtifactCheck checked = btf::check_artifact_btf(a, nullptr, options, sink);
  // The cross-checks as `elfmeta check` runs them on a file: with its own
  // symtab, and its DWARF when it has some.
  if (checked.checked && checked.btf.btf) {
    const auto symbols = input::symbols_from_symtab(a);
    Findings findings(a.name, sink);
    btf::xc::cross_check({a, *checked.btf.btf, symbols ? &*symbols : nullptr}, findings);
  }
  orc::check_orc(a, orc::OrcOptions{}, sink);
  sframe::check_sframe(a, sframe::SframeOptions{}, sink);
}

std::vector<uint8_t> linked_elf(const std::vector<SectionSpec>& sections, uint16_t type, bool functions) {
  synth::ElfWriter w(type, EM_X86_64);
  std::vector<uint8_t> code(kImageTextEnd - kImageTextStart, 0xcc);
  if (functions)
    for (uint64_t at = 0; at < code.size(); at += kImageFunctionSize)
      std::fill_n(code.begin() + at, kImageFunctionSize / 2, 0x48);
  const uint32_t text =
      w.add_section({".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, kImageTextStart, 16, 0, std::move(code)});
  if (functions)
    for (uint64_t k = 0; k < (kImageTextEnd - kImageTextStart) / kImageFunctionSize; ++k)
      w.add_symbol("f" + std::to_string(k), kImageTextStart + k * kImageFunctionSize, kImageFunctionSize, STT_FUNC,
                   STB_GLOBAL, text);
  uint64_t addr = kImageSectionsStart;
  for (const auto& s : sections) {
    w.add_section({s.name, SHT_PROGBITS, s.flags ? s.flags : SHF_ALLOC, addr, 8, 0, s.data});
    addr += (s.data.size() + 0xfff) & ~uint64_t(0xfff);
  }
  return w.write();
}

namespace {

struct Outcome {
  std::string findings;  // every diagnostic, as text
  // The same, per rule (a rule's closing note under its rule; nullptr for
  // the notes that are not findings), each rule's lines sorted.
  std::map<const Rule*, std::vector<std::string>> by_rule;
  btf::CheckedBtf checked;
};

Outcome check_btf_blob(std::span<const uint8_t> blob, const btf::CheckOptions& options) {
  DiagnosticList list;
  Outcome out;
  out.checked = btf::check_btf(blob, nullptr, options, "blob", "", list);
  std::ostringstream s;
  for (const auto& d : list.items()) {
    std::ostringstream line;
    write_text(line, d);
    s << line.str();
    out.by_rule[d.unlisted_rule ? d.unlisted_rule : d.rule].push_back(line.str());
  }
  for (auto& [rule, lines] : out.by_rule) std::sort(lines.begin(), lines.end());
  out.findings = s.str();
  return out;
}

// Whether two checks report the same findings, in any order: the reference
// resolver (resolve_reference.cpp) resolves FUNCs at their turn, the fast one
// after the other types. Past the per-rule listing limit, which of a rule's
// findings are listed follows that order: there, only their number and the
// closing note must agree.
bool same_findings(const Outcome& a, const Outcome& b) {
  if (a.by_rule.size() != b.by_rule.size()) return false;
  for (const auto& [rule, lines] : a.by_rule) {
    const auto other = b.by_rule.find(rule);
    if (other == b.by_rule.end()) return false;
    if (rule && lines.size() > btf::Findings::kPerRuleLimit) {  // the listed ones and the closing note
      if (other->second.size() != lines.size()) return false;
      continue;
    }
    if (other->second != lines) return false;
  }
  return true;
}

// Between two checks of one blob, "with" and "without" something.
std::string difference(const Outcome& with, const Outcome& without) {
  if (!same_findings(with, without))
    return "findings differ:\n--- with\n" + with.findings + "--- without\n" + without.findings;
  const btf::ResolveState* a = with.checked.resolve.get();
  const btf::ResolveState* b = without.checked.resolve.get();
  if (!a != !b) return "the reference pass ran only one way";
  if (!a) return "";
  for (size_t i = 0; i < a->visit.size(); ++i)
    if (a->visit[i] != b->visit[i] || a->ids[i] != b->ids[i] || a->sizes[i] != b->sizes[i])
      return "resolve state differs at own type " + std::to_string(i);
  return "";
}

}  // namespace

ShortcutComparison compare_shortcuts(std::span<const uint8_t> blob, btf::CheckOptions options) {
  options.shortcuts = true;
  Outcome with = check_btf_blob(blob, options);
  options.shortcuts = false;
  const Outcome without = check_btf_blob(blob, options);
  ShortcutComparison c;
  c.difference = difference(with, without);
  c.resolved = with.checked.resolve != nullptr;
  c.findings = std::move(with.findings);
  return c;
}

std::string compare_concurrency(std::span<const uint8_t> blob, btf::CheckOptions options) {
  options.concurrent = true;
  options.concurrent_always = true;
  const Outcome two = check_btf_blob(blob, options);
  options.concurrent = false;
  return difference(two, check_btf_blob(blob, options));
}

std::pair<std::span<const uint8_t>, std::span<const uint8_t>> split(const uint8_t* data, size_t size) {
  if (size < 2) return {{}, {data, size}};
  const size_t head = std::min<size_t>(size - 2, size_t(data[0]) | size_t(data[1]) << 8);
  return {{data + 2, head}, {data + 2 + head, size - 2 - head}};
}

// The length-prefixed head is .orc_unwind_ip, the rest .orc_unwind, in a
// kernel-like linked image (so every image rule runs); the first byte of the
// rest chooses the layout, through an .orc_header or a release
// (fuzz/orc_layout_byte.h).
void check_orc_input(const uint8_t* data, size_t size, DiagnosticSink& sink) {
  const auto [ip, rest] = split(data, size);
  if (rest.empty()) return;
  std::vector<SectionSpec> sections{{".orc_unwind_ip", {ip.begin(), ip.end()}, SHF_ALLOC},
                                    {".orc_unwind", {rest.begin() + 1, rest.end()}, SHF_ALLOC},
                                    {"__ksymtab", std::vector<uint8_t>(16, 0), SHF_ALLOC},
                                    {".orc_lookup", std::vector<uint8_t>(64, 0), SHF_ALLOC}};
  const OrcLayoutByte how = orc_layout_byte(rest[0]);
  const orc::LayoutInfo* row = how.layout ? &orc::layout_info(*how.layout) : nullptr;
  if (how.header) {
    std::vector<uint8_t> header(orc::kHeaderSize, rest[0]);
    if (row && row->fingerprint) header.assign(row->fingerprint->begin(), row->fingerprint->end());
    sections.push_back({".orc_header", std::move(header), SHF_ALLOC});
  }
  auto opened = input::open_bytes("fuzz", linked_elf(sections, ET_EXEC, true));
  if (!opened.artifact) return;
  orc::OrcOptions options;
  options.cfi = false;
  if (!how.header && row && row->first) options.kernel = *row->first;
  orc::check_orc(*opened.artifact, options, sink);
}

// When the first byte is odd, the section is the .sframe of a linked file.
void check_sframe_input(const uint8_t* data, size_t size, DiagnosticSink& sink) {
  if (size < 1) return;
  std::vector<uint8_t> section(data + 1, data + size);
  std::unique_ptr<input::Artifact> a;
  if (data[0] & 1) {
    auto opened = input::open_bytes("fuzz", linked_elf({{".sframe", section, SHF_ALLOC}}, ET_DYN));
    a = std::move(opened.artifact);
  } else {
    a = std::make_unique<input::Artifact>();
    a->kind = input::ArtifactKind::RawSframe;
    auto bytes = std::make_shared<std::vector<uint8_t>>(std::move(section));
    a->raw = a->content = *bytes;
    a->storage.push_back(bytes);
  }
  if (!a) return;
  sframe::check_sframe(*a, {kLibsframe, true}, sink);
  sframe::check_sframe(*a, {kSframeKernel, false}, sink);
  // Lookups over the model the checks read.
  DiagnosticList discard;
  sframe::SframeFindings f("fuzz", discard, kNoConsumer);
  if (const auto t = sframe::read_sframe(*a, f); t && t->usable)
    for (size_t i = 0; i < t->fdes.size() && i < 64; ++i) {
      sframe::find_fre(*t, t->starts[i].address);
      sframe::find_fre(*t, t->starts[i].address + t->fdes[i].size / 2);
    }
}

// BTF (length-prefixed), .BTF_ids (length-prefixed), kallsyms text: the
// BTF checked as vmlinux's, then every cross-check family on the image
// with the kallsyms symbols.
void check_xc_input(const uint8_t* data, size_t size, DiagnosticSink& sink) {
  const auto [btf_bytes, rest] = split(data, size);
  const auto [btf_ids, text] = split(rest.data(), rest.size());
  auto opened = input::open_bytes("vmlinux", synth::xc_image(btf_bytes, btf_ids));
  if (!opened.artifact) return;
  const input::Section* section = opened.artifact->section(".BTF");
  if (!section) return;
  btf::CheckOptions options;
  options.concurrent = false;
  options.consumer = kModuleLoad;
  const btf::CheckedBtf checked = btf::check_btf(section->data, nullptr, options, "vmlinux", ".BTF", sink);
  if (!checked.btf) return;
  std::string why;
  const auto symbols =
      input::symbols_from_kallsyms_text({reinterpret_cast<const char*>(text.data()), text.size()}, "fuzz", why);
  Findings findings("vmlinux", sink);
  btf::xc::cross_check({*opened.artifact, *checked.btf, symbols ? &*symbols : nullptr}, findings);
}

}  // namespace elfmeta::fuzz
