#include "btf/verifier.h"

#include "btf/check_records.h"
#include "btf/findings.h"
#include "btf/libbpf_dump_order.h"
#include "btf/libbpf_dump_stack.h"
#include "btf/libbpf_model.h"
#include "btf/lints.h"
#include "btf/parse.h"
#include "btf/special_fields.h"
#include "btf/type_tags.h"
#include "core/second_core.h"

namespace elfmeta::btf {

namespace {

// Below this many types a second thread costs more than it saves.
constexpr uint32_t kConcurrentChecksFrom = 4096;

void flag_failed_resolutions(const Btf& btf, const ResolveState& state, Findings& f) {
  for (uint32_t id = btf.first_id(); id < btf.type_count(); ++id)
    if (state.state(id) == Visit::Poisoned) f.flag(id);
}

// The kernel's passes one after the other, each skipping the types earlier
// ones found broken: btf_parse()'s order for BPF_BTF_LOAD (btf_check_all_metas,
// btf_check_all_types, btf_check_type_tags, btf_parse_struct_metas and the
// field checks), btf_parse_base()/btf_parse_module()'s for kernel BTF (the
// metas and the type-tag pass; the resolve pass follows as advice).
void check_sequentially(const Btf& btf, const CheckedBtf* base, const CheckOptions& options, Findings& f,
                        CheckedBtf& out, bool records_done) {
  if (!records_done) check_records(btf, f, options.shortcuts);
  if (!btf.types_complete()) {
    if (btf.strings_usable()) f.note("type section could not be parsed to its end: reference checks skipped");
    return;
  }
  auto reference_pass = [&] {
    if (base && !base->resolve) {
      f.note("reference pass skipped: the base BTF could not be resolved");
      return;
    }
    if (!out.resolve) {
      out.resolve = std::make_unique<ResolveState>();
      resolve_types(btf, base ? base->resolve.get() : nullptr, *out.resolve, f, options.shortcuts);
    }
    flag_failed_resolutions(btf, *out.resolve, f);
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
    if (!f.kernel_errors() && !base) check_special_fields(btf, options.kernel_btf, f);
  }
}

// For a large blob, on two cores: the reference pass on this one; the
// record checks, then the special-field pass, on the other, which then
// takes its share of the reference pass's FUNCs (SharedFuncLoop). The
// type-tag pass goes to the thread that reaches the FUNCs first. The
// type-tag and special-field passes depend on the others only when
// something fails; then their results are dropped (the special fields' also
// after a type-tag error) and they run again after the merge. Returns false
// when the record checks failed, so that everything after them must run
// again (the reference pass skips broken records).
bool check_concurrently(const Btf& btf, const CheckedBtf* base, const CheckOptions& options, Findings& f,
                        CheckedBtf& out) {
  const CheckContext& ctx = f.context();
  DiagnosticList record_list, resolve_list, tag_list, field_list;
  Findings records(ctx, record_list), references(ctx, resolve_list), tags(ctx, tag_list), fields(ctx, field_list);
  for (Findings* x : {&records, &references, &tags, &fields}) x->set_btf(&btf);
  bool fields_ran = false;
  auto state = std::make_unique<ResolveState>();
  SharedFuncLoop func_loop;
  func_loop.first_comer = [&] { check_type_tags(btf, tags, /*report_missing=*/false); };
  auto record_and_field_passes = [&] {
    check_records(btf, records, options.shortcuts);
    if (records.any_flagged() || base) return;
    check_special_fields(btf, options.kernel_btf, fields);
    fields_ran = true;
  };
  run_beside(
      [&] {
        record_and_field_passes();
        func_loop.help();  // then the reference pass's FUNCs, with the other thread
      },
      [&] {
        resolve_types(btf, base ? base->resolve.get() : nullptr, *state, references, options.shortcuts, &func_loop);
      });

  f.absorb(records, record_list.items());
  if (records.any_flagged()) return false;
  f.absorb(references, resolve_list.items());
  out.resolve = std::move(state);
  if (references.kernel_errors()) {  // the later passes must skip what failed to resolve
    flag_failed_resolutions(btf, *out.resolve, f);
    check_type_tags(btf, f, /*report_missing=*/false);
    return true;
  }
  f.absorb(tags, tag_list.items());
  // As in check_sequentially: not after any error, the header's included.
  if (fields_ran && !f.kernel_errors()) f.absorb(fields, field_list.items());
  return true;
}

}  // namespace

CheckedBtf check_btf(std::span<const uint8_t> data, const CheckedBtf* base, const CheckOptions& options,
                     const std::string& artifact, const std::string& section, DiagnosticSink& sink) {
  CheckContext ctx{artifact, section, options.consumer, options.kernel};
  Findings f(ctx, sink);
  CheckedBtf out;
  // libbpf's verdict first; the kernel's findings follow as warnings.
  if (options.consumer == kLibbpf) check_libbpf(data, base ? base->btf.get() : nullptr, options.libbpf, f);
  ParseOptions parse_options{base ? base->btf.get() : nullptr, options.assume_host_order};
  auto parsed = parse(data, parse_options, f);
  if (!parsed) {
    // An accepted blob whose records went unread is not a clean one.
    if (f.errors() == 0)
      f.note("type records not checked: the kernel's parse stops at the header, which " +
             std::string(consumer_name(options.consumer)) + " accepts");
    f.finish();
    out.errors = f.errors();
    return out;
  }
  out.btf = std::make_unique<Btf>(std::move(*parsed));
  const Btf& btf = *out.btf;
  f.set_btf(&btf);
  const bool concurrent = options.concurrent && options.consumer == kBpfBtfLoad && btf.types_complete() && (!base || base->resolve) &&
                          (btf.own_count() >= kConcurrentChecksFrom || options.concurrent_always);
  if (!concurrent || !check_concurrently(btf, base, options, f, out))
    check_sequentially(btf, base, options, f, out, /*records_done=*/concurrent);
  // What libbpf's btf_dump would do with BTF libbpf accepts.
  if (options.consumer == kLibbpf && f.errors() == 0) {
    if (btf.types_complete()) {
      check_btf_dump_order(btf, f);
      check_btf_dump_stack(btf, f);
    } else {
      f.note("btf_dump's rules (BTF-LIBBPF-018, -019, -020) not run: not every type record could be read");
    }
  }
  // Lints add to a clean verdict; on broken BTF they would mostly repeat it.
  if (options.lints && !f.kernel_errors() && btf.types_complete()) lint(btf, f);
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
