// pahole 1.32 (the sid toolchain root, tools/toolchain-root) re-encodes the
// DWARF of Debian's 6.12 -dbg vmlinux with global_var and true_signature at
// test time (about 20 s, 620 MB); elfmeta checks the blob and compares it
// with that DWARF. docs/producers.md has the figures of every
// --btf_features value; this is the one that exercises the most of them.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <string_view>

#include "btf/btf.h"
#include "btf/btf_format.h"
#include "btf/verifier.h"
#include "btf/xc/cross_check.h"
#include "btf/xc/xc_rules.h"
#include "core/report.h"
#include "input/artifact.h"
#include "input/symbols.h"
#include "tests/support/xc_dwarf_tally.h"

namespace elfmeta::testing {
namespace {

namespace fs = std::filesystem;

// The build the figures were measured on; another build is held to the
// kinds of findings, not their counts.
constexpr std::string_view kMeasured = "linux-image-6.12.117+deb12-cloud-amd64-dbg=6.12.117-1~deb12u1";

bool under_ci() {
  const char* ci = std::getenv("CI");
  return ci && std::string_view(ci) == "true";
}

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Runs `command` through sh; its exit status, and its output in `out`.
int run(const std::string& command, std::string& out) {
  out.clear();
  FILE* p = popen((command + " 2>&1").c_str(), "r");
  if (!p) return -1;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  const int status = pclose(p);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(Pahole132DbgVmlinux, GlobalVarAndTrueSignatureAgainstTheDwarf) {
  const char* data = std::getenv("ELFMETA_TEST_DATA");
  if (!data) GTEST_SKIP() << "ELFMETA_TEST_DATA is not set (ctest sets it after tools/fetch-test-data)";
  const fs::path root = fs::path(data) / "debian-6.12-dbg";
  const fs::path boot = root / "usr" / "lib" / "debug" / "boot";
  fs::path vmlinux;
  if (fs::exists(boot))
    for (const auto& e : fs::directory_iterator(boot))
      if (e.path().filename().string().starts_with("vmlinux-")) vmlinux = e.path();
  if (vmlinux.empty() || !fs::exists(root / ".complete")) {
    const char* fetch = std::getenv("ELFMETA_FETCH_DBG");
    if (fetch && std::string_view(fetch) == "0") GTEST_SKIP() << "ELFMETA_FETCH_DBG=0: no -dbg vmlinux";
    FAIL() << "no -dbg vmlinux in " << boot << ": run tools/fetch-test-data";
  }
  std::string package;
  std::ifstream(root / ".package") >> package;

  // The sid root: built under CI=true (its cache holds it), else used if there.
  const std::string tool = ELFMETA_SOURCE_DIR "/tools/toolchain-root";
  std::string out;
  if (geteuid() != 0) GTEST_SKIP() << "running in the sid toolchain root needs root";
  if (run(shell_quote(tool) + (under_ci() ? " ensure" : " versions"), out) != 0) {
    if (under_ci()) FAIL() << out;
    GTEST_SKIP() << out;
  }
  ASSERT_NE(out.find("pahole:                    v1.32"), std::string::npos) << "the figures are pahole 1.32's:\n" << out;

  char dir[] = "/tmp/elfmeta-pahole132-XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  const std::string blob_path = std::string(dir) + "/vmlinux.btf";
  const std::string cmd = "cd " + shell_quote(dir) + " && " + shell_quote(tool) + " run --bind " +
                          shell_quote(boot.string()) +
                          " -- pahole --btf_features=default,global_var,true_signature --btf_encode_detached=" +
                          shell_quote(blob_path) + " " + shell_quote(vmlinux.string());
  const int status = run(cmd, out);
  std::vector<uint8_t> blob;
  {
    std::ifstream in(blob_path, std::ios::binary);
    blob.assign(std::istreambuf_iterator<char>(in), {});
  }
  fs::remove_all(dir);
  ASSERT_EQ(status, 0) << out;
  ASSERT_FALSE(blob.empty()) << out;

  // The blob on its own: the only errors are the weak/strong doubles.
  DiagnosticList list;
  btf::CheckOptions options;
  options.kernel = btf::KernelProfile(btf::Release{6, 12});
  const btf::CheckedBtf checked = btf::check_btf(blob, nullptr, options, "vmlinux.btf", ".BTF", list);
  ASSERT_TRUE(checked.btf);
  const btf::Btf& b = *checked.btf;
  std::map<std::string, size_t> per_rule;
  for (const auto& d : list.items())
    if (d.rule && d.severity != Severity::Note) ++per_rule[std::string(d.rule->id)];
  EXPECT_EQ(per_rule.size(), 1u);
  const size_t overlaps = per_rule["BTF-DATASEC-007"];
  EXPECT_GT(overlaps, 0u);
  // Each overlap: two VARs of one name at one offset (a __weak definition
  // and the strong one, both located at the linked symbol), as the findings
  // say, and what the kernel refuses ("Invalid offset").
  size_t doubles = 0, others = 0;
  for (uint32_t id = 1; id < b.type_count(); ++id) {
    const btf::TypeRef t = b.type(id);
    if (t.kind() != btf::kDatasec) continue;
    for (uint32_t i = 1; i < t.vlen(); ++i) {
      const btf::VarSecInfo prev = btf::secinfo_at(t, i - 1), cur = btf::secinfo_at(t, i);
      if (cur.offset >= uint64_t(prev.offset) + prev.size) continue;
      const bool same = cur.offset == prev.offset && b.has_type(cur.type) && b.has_type(prev.type) &&
                        b.name_of(b.type(cur.type).name_off()) == b.name_of(b.type(prev.type).name_off());
      ++(same ? doubles : others);
    }
  }
  EXPECT_EQ(doubles, overlaps);
  EXPECT_EQ(others, 0u);

  // Against the DWARF it was made from.
  auto opened = input::open_input(vmlinux.string());
  ASSERT_TRUE(opened.artifact) << opened.error;
  const input::Artifact& a = *opened.artifact;
  const auto symbols = input::symbols_from_symtab(a);
  ASSERT_TRUE(symbols);
  DiagnosticList xc_list;
  Findings findings(a.name, xc_list);
  btf::xc::check_dwarf({a, b, &*symbols}, findings);
  XcDwarfTally xc = tally_xc_dwarf(xc_list, "XC-DW-004");
  // Every type agrees with its DWARF; true_signature leaves no FUNC
  // describing a clone by its source's prototype (XC-SYM-004). What is left:
  // XC-DW-004, functions pahole 1.32 leaves out although their code is
  // entered as their prototype says (docs/producers.md).
  EXPECT_TRUE(xc.listing.empty()) << xc.listing;
  for (const auto& [rule, n] : xc.per_rule) EXPECT_EQ(rule, "XC-DW-004") << n;
  ASSERT_TRUE(xc.note_read) << xc.note;
  if (package == kMeasured) {
    EXPECT_EQ(overlaps, 50u);
    EXPECT_EQ(xc.per_rule["XC-DW-004"], 40u);
    // All but the 88 assembler functions' FUNCs, the 504 named after a
    // clone (true_signature: DWARF has them as instances of the source
    // function) and one whose every DWARF subprogram says DW_CC_nocall.
    EXPECT_EQ(xc.compared, 92033u) << xc.note;
    EXPECT_EQ(xc.agree, 91440u) << xc.note;
    EXPECT_EQ(xc.asm_funcs, 88u) << xc.note;
    EXPECT_EQ(xc.not_found, 504u) << xc.note;
  }
}

}  // namespace
}  // namespace elfmeta::testing
