// The CLI contract: exit status 0/1/2, one-line errors, unreadable inputs do
// not stop the others, JSON output, rules/explain/dump, and docs/rules in sync.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/support/cli_run.h"
#include "tests/support/deb_builder.h"
#include "synth/btf_builder.h"
#include "synth/elf_writer.h"
#include "synth/orc_builder.h"

namespace elfmeta::testing {
namespace {

namespace fs = std::filesystem;

CliRun elfmeta(const std::string& args) { return run_cli(args); }

std::string write_blob(const std::string& name, const std::vector<uint8_t>& bytes) {
  const fs::path p = scratch_dir() / name;
  std::ofstream(p, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  return p.string();
}

std::string sample() { return std::string(ELFMETA_SOURCE_DIR) + "/samples/sample.btf"; }

std::string broken_blob() {
  synth::BtfBuilder b;
  b.add_int("int", 4, 32, 1);
  b.add_ptr(99);
  return write_blob("broken.btf", b.build());
}

TEST(Cli, CleanInputExitsZero) {
  const CliRun r = elfmeta("check " + sample());
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("0 errors"), std::string::npos);
  EXPECT_NE(r.out.find("kernel 6.18"), std::string::npos);
}

TEST(Cli, FindingsExitOne) {
  const CliRun r = elfmeta("check " + broken_blob());
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find("[type 2 PTR]: error:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("[BTF-TYPE-007]"), std::string::npos);
}

TEST(Cli, UnreadableInputIsOneLineAndTheRestIsChecked) {
  const CliRun r = elfmeta("check /nonexistent/input " + broken_blob());
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find("/nonexistent/input"), std::string::npos);
  EXPECT_NE(r.out.find("BTF-TYPE-007"), std::string::npos) << "the readable input was not checked";
}

TEST(Cli, UsageErrorsExitTwo) {
  for (const char* args : {"", "frobnicate", "check", "check --format yaml x", "check --kernel 3.10 x", "check --kernel 7.2 x", "check --kernel=foo x",
                           "check --consumer libbpf x", "explain NO-SUCH-RULE", "check --bogus x"}) {
    const CliRun r = elfmeta(args);
    EXPECT_EQ(r.status, 2) << args;
    EXPECT_FALSE(r.err.empty()) << args;
  }
}

TEST(Cli, OracleVmWithoutAnImageIsOneLineExitTwo) {
  const CliRun r = elfmeta("oracle --vm /nonexistent/vmlinuz " + sample());
  EXPECT_EQ(r.status, 2) << r.out << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_EQ(r.err.rfind("elfmeta: ", 0), 0u) << r.err;
}

// --consumer bpf-object loads what libbpf would (the fixed-up BTF of a BPF
// object); no other consumer has a meaning for the kernel's verdict.
TEST(Cli, OracleConsumerIsBpfObjectOnly) {
  for (const char* args : {"oracle --consumer bpf-load x", "oracle --consumer kernel x",
                           "oracle --consumer bpf-object --vm /nonexistent/vmlinuz x"}) {
    const CliRun r = elfmeta(args);
    EXPECT_EQ(r.status, 2) << args;
    EXPECT_NE(r.err.find("--consumer"), std::string::npos) << args << ": " << r.err;
  }
}

TEST(Cli, WerrorTurnsWarningsIntoFailure) {
  synth::BtfBuilder b;
  b.add_int("int", 4, 32, 1);
  b.add_struct("s", 4, {{"a", 1, 0}}, /*kflag=*/true);  // BTF-AGG-017, a warning
  const std::string path = write_blob("lint.btf", b.build());
  EXPECT_EQ(elfmeta("check " + path).status, 0);
  EXPECT_EQ(elfmeta("check --Werror " + path).status, 1);
}

TEST(Cli, JsonIsOneObjectPerLineWithASummary) {
  const CliRun r = elfmeta("check --format json " + broken_blob() + " " + sample());
  std::istringstream lines(r.out);
  std::string line, last;
  size_t diagnostics = 0;
  while (std::getline(lines, line)) {
    ASSERT_FALSE(line.empty());
    EXPECT_EQ(line.front(), '{');
    EXPECT_EQ(line.back(), '}');
    if (line.find("\"type\":\"diagnostic\"") != std::string::npos) ++diagnostics;
    last = line;
  }
  EXPECT_GE(diagnostics, 1u);
  EXPECT_NE(last.find("\"type\":\"summary\""), std::string::npos);
  EXPECT_NE(last.find("\"inputs\":2"), std::string::npos);
}

TEST(Cli, RulesExplainAndDump) {
  const CliRun rules = elfmeta("rules");
  EXPECT_EQ(rules.status, 0);
  EXPECT_NE(rules.out.find("BTF-DATASEC-007"), std::string::npos);
  const CliRun json = elfmeta("rules --format json");
  EXPECT_NE(json.out.find("\"id\":\"BTF-HDR-001\""), std::string::npos);
  const CliRun explain = elfmeta("explain BTF-REF-008");
  EXPECT_EQ(explain.status, 0);
  EXPECT_NE(explain.out.find("Type tags don't precede modifiers"), std::string::npos);
  const CliRun dump = elfmeta("dump btf " + sample());
  EXPECT_EQ(dump.status, 0);
  EXPECT_NE(dump.out.find("[1] ENUM 'sample_state' encoding=UNSIGNED size=4 vlen=3"), std::string::npos) << dump.out;
  EXPECT_NE(dump.out.find("'flags' type_id=2 bits_offset=32 bitfield_size=3"), std::string::npos);
}

// docs/rules/ is generated from the rule tables; it must match them.
TEST(Cli, RuleDocsAreInSync) {
  const fs::path out = scratch_dir() / "rule-docs";
  fs::remove_all(out);
  ASSERT_EQ(elfmeta("rules --docs " + out.string()).status, 0);
  const fs::path committed = fs::path(ELFMETA_SOURCE_DIR) / "docs" / "rules";
  size_t pages = 0;
  for (const auto& e : fs::directory_iterator(out)) {
    ++pages;
    std::ifstream a(e.path()), b(committed / e.path().filename());
    std::stringstream sa, sb;
    sa << a.rdbuf();
    sb << b.rdbuf();
    EXPECT_EQ(sa.str(), sb.str()) << e.path().filename() << " differs: run `elfmeta rules --docs docs/rules`";
  }
  size_t committed_pages = 0;
  for (const auto& e : fs::directory_iterator(committed)) committed_pages += e.path().extension() == ".md";
  EXPECT_EQ(pages, committed_pages) << "docs/rules has pages of rules that no longer exist";
}

TEST(Cli, KernelProfileDocsAreInSync) {
  const fs::path out = scratch_dir() / "kernel-profiles.md";
  ASSERT_EQ(elfmeta("kernels --docs " + out.string()).status, 0);
  std::ifstream a(out), b(fs::path(ELFMETA_SOURCE_DIR) / "docs" / "kernel-profiles.md");
  std::stringstream sa, sb;
  sa << a.rdbuf();
  sb << b.rdbuf();
  EXPECT_EQ(sa.str(), sb.str()) << "run `elfmeta kernels --docs docs/kernel-profiles.md`";
  const CliRun text = elfmeta("kernels");
  EXPECT_EQ(text.status, 0);
  EXPECT_NE(text.out.find("TYPE_TAG kind"), std::string::npos) << text.out;
}

TEST(Cli, KernelAndLibbpfProfilesAreNamedInTheSummary) {
  synth::BtfBuilder b;
  b.add_ptr(b.add_type_tag("attr", b.add_int("int", 4, 32, 1), /*kflag=*/true));
  const std::string blob = write_blob("tag-kflag.btf", b.build());
  const CliRun new_kernel = elfmeta("check --kernel 6.18 " + blob);
  EXPECT_EQ(new_kernel.status, 0) << new_kernel.out;
  EXPECT_NE(new_kernel.out.find("kernel 6.18 (--kernel)"), std::string::npos) << new_kernel.out;
  const CliRun old_kernel = elfmeta("check --kernel 6.12 " + blob);
  EXPECT_EQ(old_kernel.status, 1) << old_kernel.out;
  EXPECT_NE(old_kernel.out.find("rejected by kernels before 6.15 [BTF-VER-011]"), std::string::npos) << old_kernel.out;
  const CliRun bare = elfmeta("check --kernel " + blob);  // a bare --kernel: the running kernel
  EXPECT_NE(bare.out.find("(running kernel)"), std::string::npos) << bare.out << bare.err;
  const CliRun json = elfmeta("check --format json --kernel 6.12 " + blob);
  EXPECT_NE(json.out.find("\"kernel\":\"6.12 (--kernel)\""), std::string::npos) << json.out;
  const CliRun libbpf = elfmeta("check --libbpf 1.1 " + blob);
  EXPECT_EQ(libbpf.status, 0) << libbpf.out;
  EXPECT_NE(libbpf.out.find("consumer libbpf 1.1"), std::string::npos) << libbpf.out;
  EXPECT_EQ(elfmeta("check --libbpf 0.8 " + blob).status, 2);
}

// A finding's log note names whose message it quotes: libbpf's for a rule of
// btf__new, the kernel's for the verifier's; so do `explain` and `rules`.
TEST(Cli, LogNotesSayWhoseMessageTheyQuote) {
  synth::BtfBuilder b;
  b.add_ptr(b.add_int("int", 4, 32, 1) + 40);  // past the last type
  const std::string blob = write_blob("ptr-past-last.btf", b.build());
  const CliRun r = elfmeta("check --verbose --libbpf 1.7 " + blob);
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("libbpf log: \"invalid referenced type ID\""), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("kernel log: \"invalid referenced type ID\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("kernel log: \"Invalid type_id\""), std::string::npos) << r.out;
  EXPECT_NE(elfmeta("explain BTF-LIBBPF-016").out.find("  libbpf log: \"invalid referenced type ID\"\n"),
            std::string::npos);
  const std::string json = elfmeta("rules --format json").out;
  EXPECT_NE(json.find("\"log\":\"invalid referenced type ID\",\"log_of\":\"libbpf\""), std::string::npos);
  EXPECT_NE(json.find("\"log\":\"Member exceeds struct_size\",\"log_of\":\"kernel\""), std::string::npos);
}

TEST(Cli, OrcOfAnImageAndItsFindings) {
  std::mt19937_64 rng(4);
  auto table = synth::random_orc(rng, orc::Layout::G3, /*image=*/true);
  const std::string clean = write_blob("orc-image", table.build());
  const CliRun ok = elfmeta("check --only orc " + clean);
  EXPECT_EQ(ok.status, 0) << ok.out << ok.err;
  table.rows().front().entry.reserved = 0x3000;  // bits 12-13: ORC-ENT-001
  const std::string broken = write_blob("orc-broken", table.build());
  const CliRun bad = elfmeta("check --only orc --format json " + broken);
  EXPECT_EQ(bad.status, 1) << bad.out;
  EXPECT_NE(bad.out.find("\"rule\":\"ORC-ENT-001\""), std::string::npos) << bad.out;
  const CliRun no_file = elfmeta("check --only orc --kallsyms /nonexistent/kallsyms " + clean);
  EXPECT_EQ(no_file.status, 2);
  EXPECT_EQ(std::count(no_file.err.begin(), no_file.err.end(), '\n'), 1) << no_file.err;
}

TEST(Cli, CrossChecksWithAKallsymsFile) {
  synth::BtfBuilder b;
  const uint32_t int_id = b.add_int("int", 4, 32, 1);
  b.add_func("present", b.add_func_proto(int_id, {}));
  b.add_func("missing", 2);
  const std::string blob = write_blob("xc.btf", b.build());
  const std::string kallsyms = write_blob("kallsyms", {});
  std::ofstream(kallsyms) << "ffffffff81000000 T present\n";
  const CliRun r = elfmeta("check --only xc --kallsyms " + kallsyms + " " + blob);
  EXPECT_EQ(r.status, 0) << r.out << r.err;  // warnings: the kernel verdict is unchanged
  EXPECT_NE(r.out.find("[type 4 FUNC 'missing']: warning: no text symbol 'missing'"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("'present'"), std::string::npos) << r.out;
  const CliRun strict = elfmeta("check --only xc --Werror --kallsyms " + kallsyms + " " + blob);
  EXPECT_EQ(strict.status, 1);
  // Without symbols the family is skipped with a note; --only btf leaves the cross-checks out.
  // (A note about the run: counted, and listed with --verbose.)
  const CliRun none = elfmeta("check --only xc --verbose " + blob);
  EXPECT_NE(none.out.find("no symbols: XC-SYM checks skipped"), std::string::npos) << none.out;
  const CliRun none_short = elfmeta("check --only xc " + blob);
  EXPECT_EQ(none_short.out.find("no symbols: XC-SYM checks skipped"), std::string::npos) << none_short.out;
  EXPECT_NE(none_short.out.find("1 remark about the run; --verbose lists them"), std::string::npos) << none_short.out;
  const CliRun kernel_only = elfmeta("check --only btf --kallsyms " + kallsyms + " " + blob);
  EXPECT_EQ(kernel_only.out.find("XC-SYM"), std::string::npos) << kernel_only.out;
}

std::string as_string(const std::vector<uint8_t>& b) { return std::string(b.begin(), b.end()); }

// A kernel package: the image and the modules are read out of the .deb, each
// module is checked on top of its own package's image (a split blob checked
// alone would refer to types that do not exist), and a table per artifact
// kind and per rule closes the run.
TEST(Cli, KernelPackageImageAndModules) {
  synth::BtfBuilder base;
  const uint32_t int_id = base.add_int("int", 4, 32, 1);
  base.add_func("present", base.add_func_proto(int_id, {}));
  const std::vector<uint8_t> base_btf = base.build();
  uint32_t base_str_len;
  std::memcpy(&base_str_len, base_btf.data() + 20, 4);
  synth::ElfWriter image(ET_EXEC);
  const uint32_t text = image.add_section({".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, 0xffffffff81000000ull, 16, 0,
                                           std::vector<uint8_t>(64, 0xc3)});
  image.add_section({".BTF", SHT_PROGBITS, 0, 0, 4, 0, base_btf});
  image.add_symbol("present", 0xffffffff81000000ull, 16, STT_FUNC, STB_GLOBAL, text);

  auto module = [&](bool broken) {
    synth::BtfBuilder split(base.next_id(), base_str_len);
    split.add_ptr(broken ? 99 : int_id);  // 99: no such type, in the base or here
    synth::ElfWriter ko(ET_REL);
    ko.add_section({".BTF", SHT_PROGBITS, 0, 0, 4, 0, split.build()});
    const std::string modinfo("license=GPL\0vermagic=6.12.0-1-cloud-amd64 SMP mod_unload \0", 53);
    ko.add_section({".modinfo", SHT_PROGBITS, SHF_ALLOC, 0, 1, 0, std::vector<uint8_t>(modinfo.begin(), modinfo.end())});
    return as_string(ko.write());
  };
  const std::string deb = write_deb({{"./boot/vmlinuz-6.12.0-1-cloud-amd64", as_string(image.write())},
                                     {"./boot/config-6.12.0-1-cloud-amd64", "CONFIG_DEBUG_INFO_BTF=y\n"},
                                     {"./lib/modules/6.12.0-1-cloud-amd64/kernel/good.ko", module(false)},
                                     {"./lib/modules/6.12.0-1-cloud-amd64/kernel/broken.ko", module(true)}});
  const std::string path = write_blob("linux-image-test.deb", std::vector<uint8_t>(deb.begin(), deb.end()));
  const CliRun r = elfmeta("check -j 2 " + path);
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("broken.ko:.BTF"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("[BTF-TYPE-007]"), std::string::npos) << r.out;
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);)
    if (line.starts_with("good.ko:")) {
      EXPECT_EQ(line.find(": error:"), std::string::npos) << line;
    }
  EXPECT_NE(r.out.find("elfmeta: 1 package, 3 artifacts, "), std::string::npos) << r.out;
  // What the package says about itself: notes about the run, with --verbose.
  const CliRun verbose = elfmeta("check -j 2 --verbose " + path);
  EXPECT_NE(verbose.out.find("DEBUG_INFO_BTF=y"), std::string::npos) << verbose.out;
  EXPECT_NE(verbose.out.find("1 image(s), 2 modules"), std::string::npos) << verbose.out;
  EXPECT_NE(r.out.find("kernel image         1"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("module               2"), std::string::npos) << r.out;
  EXPECT_EQ(r.err.find("checking ["), std::string::npos) << "no progress bar when stderr is not a terminal";

  const std::string cut = write_blob("cut.deb", std::vector<uint8_t>(deb.begin(), deb.begin() + deb.size() / 2));
  const CliRun bad = elfmeta("check " + cut + " " + sample());
  EXPECT_EQ(bad.status, 2);
  EXPECT_EQ(std::count(bad.err.begin(), bad.err.end(), '\n'), 1) << bad.err;
  EXPECT_NE(bad.err.find("cut.deb"), std::string::npos) << bad.err;
}

// stats writes a baseline; diff against it (or between two inputs) exits 1
// exactly when NEW has a finding OLD did not, and names it.
TEST(Cli, StatsAndDiffGateOnNewFindings) {
  synth::BtfBuilder clean_b;
  const uint32_t i = clean_b.add_int("int", 4, 32, 1);
  clean_b.add_struct("s", 4, {{"a", i, 0}});
  const std::string clean = write_blob("diff-old.btf", clean_b.build());
  synth::BtfBuilder worse_b;
  const uint32_t j = worse_b.add_int("int", 4, 32, 1);
  worse_b.add_struct("s", 8, {{"a", j, 0}, {"b", j, 32}});
  worse_b.add_ptr(99);  // BTF-TYPE-007
  const std::string worse = write_blob("diff-new.btf", worse_b.build());

  const std::string baseline = write_blob("diff-baseline.json", {});
  const CliRun stats = elfmeta("stats --only btf -o " + baseline + " " + clean);
  ASSERT_EQ(stats.status, 0) << stats.err;
  const CliRun regression = elfmeta("diff --only btf " + baseline + " " + worse);
  EXPECT_EQ(regression.status, 1) << regression.out << regression.err;
  EXPECT_NE(regression.out.find("findings: 1 appeared (exit 1), 0 disappeared"), std::string::npos) << regression.out;
  EXPECT_NE(regression.out.find("+ BTF-TYPE-007 <input>: PTR"), std::string::npos) << regression.out;
  EXPECT_NE(regression.out.find("btf.raw BTF.kinds.PTR: 0 -> 1 (+1)"), std::string::npos) << regression.out;

  // What decides the exit status first; type changes per kind, member by
  // member only with --verbose.
  const CliRun inputs = elfmeta("diff --only btf " + clean + " " + worse);
  EXPECT_EQ(inputs.status, 1);
  EXPECT_LT(inputs.out.find("findings: 1 appeared"), inputs.out.find("BTF types")) << inputs.out;
  EXPECT_NE(inputs.out.find("    STRUCT               +0         -0         ~1\n"), std::string::npos) << inputs.out;
  EXPECT_EQ(inputs.out.find("member 'b'"), std::string::npos) << inputs.out;
  const CliRun verbose = elfmeta("diff --verbose --only btf " + clean + " " + worse);
  EXPECT_EQ(verbose.status, 1);
  EXPECT_NE(verbose.out.find("~ STRUCT 's': size 4 -> 8; member 'b' (int) added at bit 32"), std::string::npos) << verbose.out;
  const CliRun better = elfmeta("diff --only btf " + worse + " " + clean);
  EXPECT_EQ(better.status, 0) << better.out;
  EXPECT_NE(better.out.find("findings: 0 appeared, 1 disappeared"), std::string::npos) << better.out;

  EXPECT_EQ(elfmeta("diff " + clean).status, 2);
  const std::string junk = write_blob("junk.json", {'{', 'x'});
  const CliRun bad = elfmeta("diff " + junk + " " + clean);
  EXPECT_EQ(bad.status, 2);
  EXPECT_EQ(std::count(bad.err.begin(), bad.err.end(), '\n'), 1) << bad.err;
}

// stats, diff and report take check's options but not the output options
// they have no use for: a usage error naming the command, not silence.
TEST(Cli, OutputOptionsOfCheckAreRefusedElsewhere) {
  const std::string out = write_blob("refused-stats.json", {});
  for (const std::string& command : {"stats -o " + out + " --format json " + sample(),
                                     "stats -o " + out + " --Werror " + sample(),
                                     "diff --format=sarif " + sample() + " " + sample(),
                                     "diff --timing " + sample() + " " + sample(),
                                     "report -o " + out + ".html --format junit " + sample()}) {
    const CliRun r = elfmeta(command);
    const std::string name = command.substr(0, command.find(' '));
    EXPECT_EQ(r.status, 2) << command;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find(name + ": --"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("is not an option of " + name), std::string::npos) << r.err;
  }
  const CliRun unknown = elfmeta("diff --bogus");
  EXPECT_EQ(unknown.status, 2);
  EXPECT_NE(unknown.err.find("diff: unknown option '--bogus'"), std::string::npos) << unknown.err;
  const CliRun help = elfmeta("diff --help");  // help, not an unknown option
  EXPECT_EQ(help.status, 0) << help.err;
  EXPECT_EQ(help.out.rfind("usage: elfmeta diff", 0), 0u) << help.out;
  const CliRun timed = elfmeta("stats --only btf --timing -o " + out + " " + sample());
  EXPECT_EQ(timed.status, 0) << timed.err;
  EXPECT_NE(timed.err.find("elfmeta: timing with"), std::string::npos) << timed.err;
}

}  // namespace
}  // namespace elfmeta::testing
