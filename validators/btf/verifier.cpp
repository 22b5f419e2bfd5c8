#include "btf/verifier.h"

#include <thread>

#include "btf/check_records.h"
#include "btf/findings.h"
#include "btf/lints.h"
#include "btf/parse.h"
#include "btf/special_fields.h"
#include "btf/type_tags.h"

namespace elfmeta::btf {

// Below this many types a second thread costs more than it saves.
constexpr uint32_t kConcurrentChecksFrom = 4096;

CheckedBtf check_btf(std::span<const uint8_t> data, const CheckedBtf* base, const CheckOptions& options,
                     const std::string& artifact, const std::string& section, DiagnosticSink& sink) {
  CheckContext ctx{artifact, section, options.consumer};
  Findings f(ctx, sink);
  CheckedBtf out;
  ParseOptions parse_options{base ? base->btf.get() : nullptr, options.assume_host_order};
  auto parsed = parse(data, parse_options, f);
  if (!parsed) {
    f.finish();
    out.errors = f.errors();
    return out;
  }
  out.btf = std::make_unique<Btf>(std::move(*parsed));
  const Btf& btf = *out.btf;
  f.set_btf(&btf);
  const bool base_resolved = !base || base->resolve;
  const ResolveState* base_state = base ? base->resolve.get() : nullptr;
  bool resolved = false;
  if (btf.types_complete() && base_resolved && btf.own_count() >= kConcurrentChecksFrom) {
    // The record checks and the reference pass read the same types but are
    // independent when no record fails: run them on two cores, and redo the
    // reference pass (which must skip failed records) only if one failed.
    DiagnosticList record_diagnostics, resolve_diagnostics;
    Findings records(ctx, record_diagnostics), references(ctx, resolve_diagnostics);
    records.set_btf(&btf);
    references.set_btf(&btf);
    std::thread record_thread([&] { check_records(btf, records); });
    auto state = std::make_unique<ResolveState>();
    resolve_types(btf, base_state, *state, references);
    record_thread.join();
    f.absorb(records, record_diagnostics.items());
    if (!records.any_flagged()) {
      f.absorb(references, resolve_diagnostics.items());
      out.resolve = std::move(state);
      resolved = true;
    }
  } else {
    check_records(btf, f);
  }

  if (btf.types_complete()) {
    auto reference_pass = [&] {
      if (!base_resolved) {
        f.note("reference pass skipped: the base BTF could not be resolved");
        return;
      }
      if (!resolved) {
        out.resolve = std::make_unique<ResolveState>();
        resolve_types(btf, base_state, *out.resolve, f);
      }
      for (uint32_t id = btf.first_id(); id < btf.type_count(); ++id)
        if (out.resolve->state(id) == Visit::Poisoned) f.flag(id);
    };
    if (options.consumer == kModuleLoad) {
      // Kernel BTF: the type-tag pass is all the kernel runs after the record
      // checks; the reference pass follows as advice (its rules are warnings).
      check_type_tags(btf, f, /*report_missing=*/true);
      reference_pass();
    } else {
      reference_pass();
      check_type_tags(btf, f, /*report_missing=*/false);
      // BPF_BTF_LOAD's last step, reached only by otherwise valid user BTF.
      if (!f.errors() && !base) check_special_fields(btf, options.kernel_btf, f);
    }
    // Lints add to a clean verdict; on broken BTF they would mostly repeat it.
    if (options.lints && !f.errors()) lint(btf, f);
  } else if (btf.strings_usable()) {
    f.note("type section could not be parsed to its end: reference checks skipped");
  }
  f.finish();
  out.errors = f.errors();
  return out;
}

bool bpf_load_accepts(std::span<const uint8_t> data) {
  NullSink sink;
  CheckOptions options;
  options.lints = false;
  options.assume_host_order = true;
  return check_btf(data, nullptr, options, "", "", sink).errors == 0;
}

}  // namespace elfmeta::btf
