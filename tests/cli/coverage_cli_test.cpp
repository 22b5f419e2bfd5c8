// elfmeta coverage from the command line: a built image with its kallsyms
// (--kallsyms FILE) as JSON and as a table, package-less inputs summed, and
// usage errors.
#include <gtest/gtest.h>

#include <fstream>

#include <nlohmann/json.hpp>

#include "synth/btf_builder.h"
#include "synth/xc_image.h"
#include "tests/support/cli_run.h"
#include "tests/support/scratch_dir.h"

namespace elfmeta::testing {
namespace {

namespace fs = std::filesystem;

struct Inputs {
  std::string image, kallsyms;
};

// An image with FUNCs alpha and beta, a percpu VAR; kallsyms with alpha,
// a clone of beta, a third function and the percpu variable.
Inputs write_inputs() {
  synth::BtfBuilder b;
  const uint32_t int_id = b.add_int("int", 4, 32, 1);
  const uint32_t proto = b.add_func_proto(int_id, {{"x", int_id}});
  b.add_func("alpha", proto);
  b.add_func("beta", proto);
  const uint32_t v = b.add_var("counter", int_id, 1);
  b.add_datasec(".data..percpu", 8, {{v, 0x8, 4}});
  const auto image = synth::xc_image(b.build(), {});
  Inputs in{(scratch_dir("coverage-cli") / "vmlinux").string(), (scratch_dir("coverage-cli") / "kallsyms").string()};
  std::ofstream(in.image, std::ios::binary).write(reinterpret_cast<const char*>(image.data()), image.size());
  std::ofstream(in.kallsyms) << "ffffffff81000000 T alpha\nffffffff81000040 t beta.isra.0\nffffffff81000080 t gamma\n"
                                "0000000000000000 A __per_cpu_start\n0000000000000008 A counter\n"
                                "0000000000000040 A __per_cpu_end\n";
  return in;
}

TEST(CliCoverage, JsonPerArtifactAndTotal) {
  const Inputs in = write_inputs();
  const CliRun r = run_cli("coverage --format json --kallsyms " + in.kallsyms + " " + in.image + " " + in.image);
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["artifacts"].size(), 2u);
  const auto& a = j["artifacts"][0];
  EXPECT_EQ(a["kind"], "kernel image");
  EXPECT_EQ(a["functions"]["total"], 3u);
  EXPECT_EQ(a["functions"]["covered"], 1u);
  EXPECT_EQ(a["functions"]["clone_symbols"], 1u);
  EXPECT_EQ(a["variables"]["percpu_covered"], 1u);
  EXPECT_EQ(j["total"]["functions"]["total"], 6u);  // the inputs summed
  EXPECT_TRUE(j["packages"].empty());
}

TEST(CliCoverage, TextIsATable) {
  const Inputs in = write_inputs();
  const CliRun r = run_cli("coverage --kallsyms " + in.kallsyms + " " + in.image);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("functions (ABI prototype)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("1/3 33.3%"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("- (no ORC/SFrame)"), std::string::npos) << r.out;
}

TEST(CliCoverage, UsageErrorsExitTwo) {
  const Inputs in = write_inputs();
  EXPECT_EQ(run_cli("coverage --format sarif " + in.image).status, 2);
  EXPECT_EQ(run_cli("coverage").status, 2);
  EXPECT_EQ(run_cli("coverage /nonexistent/input").status, 2);
}

}  // namespace
}  // namespace elfmeta::testing
