#include "btf/verifier.h"

#include "btf/check_records.h"
#include "btf/findings.h"
#include "btf/lints.h"
#include "btf/parse.h"
#include "btf/special_fields.h"
#include "btf/type_tags.h"

namespace elfmeta::btf {

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
  check_records(btf, f);

  if (btf.types_complete()) {
    const bool base_resolved = !base || base->resolve;
    auto reference_pass = [&] {
      if (!base_resolved) {
        f.note("reference pass skipped: the base BTF could not be resolved");
        return;
      }
      out.resolve = std::make_unique<ResolveState>();
      resolve_types(btf, base ? base->resolve.get() : nullptr, *out.resolve, f);
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

namespace {
class NullSink final : public DiagnosticSink {
 public:
  void report(Diagnostic) override {}
};
}  // namespace

bool bpf_load_accepts(std::span<const uint8_t> data) {
  NullSink sink;
  CheckOptions options;
  options.lints = false;
  options.assume_host_order = true;
  return check_btf(data, nullptr, options, "", "", sink).errors == 0;
}

}  // namespace elfmeta::btf
