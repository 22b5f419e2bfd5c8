#include "btf/artifact_check.h"

#include <cstring>

#include "btf/ext/bpf_object.h"
#include "btf/ext/btf_ext.h"
#include "btf/findings.h"
#include "btf/parse.h"
#include "core/findings.h"
#include "input/kernel_release.h"

namespace elfmeta::btf {

KernelChoice clamp_release(Release release, std::string how) {
  if (release > kNewestRelease)
    return {kNewestRelease, how + "; " + release.str() + " is newer than the newest known profile"};
  if (release < kOldestRelease) return {kOldestRelease, how + "; " + release.str() + " predates BTF"};
  return {release, std::move(how)};
}

KernelChoice running_kernel() {
  if (const auto uname = input::running_kernel_release())
    if (const auto r = parse_release(*uname)) return clamp_release(*r, "running kernel");
  return {kNewestRelease, "newest known; the running kernel's release is unreadable"};
}

KernelChoice kernel_of(const input::Artifact& a) {
  if (a.is_vmlinux())
    if (const auto banner = input::kernel_image_release(a))
      if (const auto r = parse_release(*banner)) return clamp_release(*r, "banner " + *banner);
  if (a.is_kernel_module())
    if (const auto vermagic = input::module_vermagic_release(a))
      if (const auto r = parse_release(*vermagic)) return clamp_release(*r, "vermagic " + *vermagic);
  return running_kernel();
}

std::optional<BtfLocation> locate_btf(const input::Artifact& a) {
  if (a.kind == input::ArtifactKind::RawBtf) return BtfLocation{a.raw, "", std::nullopt};
  const input::Section* s = a.section(".BTF");
  if (!s || s->data.empty()) return std::nullopt;
  BtfLocation where{s->data, ".BTF", std::nullopt};
  if (const input::Section* b = a.section(".BTF.base"); b && !b->data.empty()) where.distilled_base = b->data;
  return where;
}

bool needs_base(const input::Artifact& a, const BtfLocation& where) {
  if (where.distilled_base) return false;
  // A raw blob is what BPF_BTF_LOAD takes: base BTF, whatever its header
  // says. Only a module, or a module's blob in /sys/kernel/btf, is split.
  return a.is_kernel_module() || a.implied_btf_base;
}

bool looks_split(const BtfLocation& where) {
  // Split BTF's string section continues its base's, so it does not start
  // with the empty string. The header fields read directly (host order).
  const auto& d = where.data;
  if (d.size() < 24 || d[0] != 0x9f || d[1] != 0xeb) return false;
  uint32_t hdr_len, str_off, str_len;
  std::memcpy(&hdr_len, d.data() + 4, 4);
  std::memcpy(&str_off, d.data() + 16, 4);
  std::memcpy(&str_len, d.data() + 20, 4);
  const uint64_t start = uint64_t(hdr_len) + str_off;
  return hdr_len >= 24 && hdr_len <= 32 && str_len > 0 && start < d.size() && d[start] != 0;
}

ArtifactCheck check_artifact_btf(const input::Artifact& a, const CheckedBtf* base, const CheckOptions& options,
                                 DiagnosticSink& sink) {
  ArtifactCheck out;
  auto where = locate_btf(a);
  auto note = [&](std::string message) {
    Diagnostic d;
    d.location.artifact = a.name;
    d.message = std::move(message);
    sink.report(std::move(d));
  };
  if (!where) {
    note("no .BTF section: BTF checks skipped");
    return out;
  }
  if (where->distilled_base) {
    if (!options.kernel.has(Gate::kDistilledBase)) {
      const CheckContext ctx{a.name, ".BTF.base", options.consumer, options.kernel};
      Findings(ctx, sink).unsupported_at_offset(Gate::kDistilledBase, 0, ".BTF.base (distilled base BTF)");
    }
    out.distilled_base = check_btf(*where->distilled_base, nullptr, options, a.name, ".BTF.base", sink);
    if (!out.distilled_base.btf) return out;
    base = &out.distilled_base;
    note(".BTF.base present: split BTF checked against the distilled base; relocation onto a vmlinux is not checked");
  } else if (needs_base(a, *where) && !base) {
    note("split BTF needs its base: pass --base-btf FILE (the vmlinux the module was built for) or check the module "
         "together with its vmlinux");
    return out;
  }
  if (a.is_vmlinux()) base = nullptr;  // a kernel image is base BTF
  if (base && !where->distilled_base && base->errors) note("the base BTF has errors; check it on its own first");
  if (!base && a.kind == input::ArtifactKind::RawBtf && looks_split(*where))
    note("its string section does not start with the empty string, as split BTF's does: checked as the base BTF "
         "BPF_BTF_LOAD would take it; for split BTF pass --base-btf FILE");
  CheckOptions raw_options = options;
  // A raw blob is judged as the running kernel takes it: BPF_BTF_LOAD does
  // not swap bytes, so the other byte order is refused ("btf_header not
  // found"). ELF files say their target's byte order; libbpf swaps.
  if (a.kind == input::ArtifactKind::RawBtf && (options.consumer == kBpfBtfLoad || options.consumer == kModuleLoad))
    raw_options.assume_host_order = true;
  if (!ext::is_bpf_object(a)) {
    out.btf = check_btf(where->data, base, raw_options, a.name, where->section, sink);
    out.checked = true;
    return out;
  }
  // A BPF object: its raw BTF against the ELF, the BTF libbpf would load
  // (under bpf-object), then .BTF.ext.
  NullSink quiet;
  Findings quiet_findings(CheckContext{a.name, where->section, options.consumer, options.kernel}, quiet);
  const std::optional<Btf> raw = parse(where->data, ParseOptions{base ? base->btf.get() : nullptr, false}, quiet_findings);
  DiagnosticList object_list;
  elfmeta::Findings object_findings(a.name, object_list, options.consumer);
  std::vector<uint8_t> fixed;
  if (raw) {
    fixed = ext::check_object_btf(a, *raw, object_findings);
    if (options.consumer != kBpfObject) ext::note_object_form(a, *raw, object_findings);
  }
  object_findings.finish(".BTF");
  const bool use_fixed = options.consumer == kBpfObject && !fixed.empty();
  if (use_fixed) note(".BTF checked as libbpf's fix-up leaves it (DATASEC sizes, VAR offsets, extern linkage)");
  if (use_fixed) out.fixed_bytes = std::move(fixed);  // out.btf views it: it outlives this function
  out.btf = check_btf(use_fixed ? std::span<const uint8_t>(out.fixed_bytes) : where->data, base, options, a.name,
                      where->section, sink);
  out.checked = true;
  for (auto& d : object_list.items()) sink.report(std::move(d));
  ext::check_btf_ext(a, raw ? &*raw : nullptr, options.consumer, sink);
  return out;
}

}  // namespace elfmeta::btf
