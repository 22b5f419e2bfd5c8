// The rule tables as a whole (core/rule.h): every rule is documented, and
// the tests name only rules that exist.
#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "core/rule.h"

namespace elfmeta::testing {
namespace {

namespace fs = std::filesystem;

// The string literals of a C or C++ source, concatenated with newlines:
// comments may name rules of the spec that are no rules (XC-DW-007), a
// literal is what an assertion compares with.
std::string string_literals(const std::string& src) {
  std::string out;
  for (size_t i = 0; i < src.size();) {
    const char c = src[i];
    if (c == '/' && i + 1 < src.size() && src[i + 1] == '/') {
      i = src.find('\n', i);
      if (i == std::string::npos) break;
    } else if (c == '/' && i + 1 < src.size() && src[i + 1] == '*') {
      i = src.find("*/", i + 2);
      if (i == std::string::npos) break;
      i += 2;
    } else if (c == 'R' && i + 1 < src.size() && src[i + 1] == '"' && (i == 0 || !std::isalnum(static_cast<unsigned char>(src[i - 1])))) {
      const size_t open = src.find('(', i + 2);
      if (open == std::string::npos) break;
      const std::string close = ")" + src.substr(i + 2, open - i - 2) + "\"";
      const size_t end = src.find(close, open);
      if (end == std::string::npos) break;
      out += src.substr(open + 1, end - open - 1) + "\n";
      i = end + close.size();
    } else if (c == '"' || (c == '\'' && (i == 0 || !std::isalnum(static_cast<unsigned char>(src[i - 1]))))) {
      // A quote after a digit or letter is a digit separator (1'000), not a literal.
      size_t j = i + 1;
      while (j < src.size() && src[j] != c && src[j] != '\n') j += src[j] == '\\' ? 2 : 1;
      if (c == '"') out += src.substr(i + 1, j - i - 1) + "\n";
      i = j + 1;
    } else {
      ++i;
    }
  }
  return out;
}

TEST(RuleTable, StringLiteralsSeeThroughCommentsAndSeparators) {
  EXPECT_EQ(string_literals("// \"one\"\nint x = 1'000; f(\"two\"); /* \"three\" */ g('\"');"), "two\n");
  EXPECT_EQ(string_literals("s = R\"x(a \"q\" b)x\";"), "a \"q\" b\n");
}

// Every page of docs/rules/ says what the kernel or consumer does and how
// producers get it wrong (explanation), and shows the input of the rule's
// case (trigger): tests/*/…rule_cases… hold a case for every rule.
TEST(RuleTable, EveryRuleHasAnExplanationAndATrigger) {
  size_t rules = 0;
  for (const Rule* r : all_rules()) {
    ++rules;
    EXPECT_GE(r->explanation.size(), 20u) << r->id << " has no explanation";
    EXPECT_GE(r->trigger.size(), 10u) << r->id << " has no trigger";
    EXPECT_TRUE(r->trigger.ends_with(".")) << r->id << ": " << r->trigger;
    EXPECT_NE(r->trigger, r->log) << r->id;
    EXPECT_NE(r->trigger, r->explanation) << r->id;
  }
  EXPECT_GT(rules, 300u);
}

// A rule's log is the message of whoever refuses the input: libbpf's for
// the rules of btf__new and btf_ext__new, the kernel's otherwise, and the
// note of a finding says whose it is (it said "kernel log" for libbpf's).
TEST(RuleTable, LogNoteSaysWhoseMessageItIs) {
  const Rule* libbpf = find_rule("BTF-LIBBPF-016");
  const Rule* ext = find_rule("BTF-EXT-002");
  const Rule* kernel = find_rule("BTF-AGG-010");
  const Rule* sframe = find_rule("SFRAME-FDE-008");
  const Rule* silent = find_rule("BTF-LIBBPF-018");
  ASSERT_TRUE(libbpf && ext && kernel && sframe && silent);
  EXPECT_EQ(log_note(*libbpf), "libbpf log: \"invalid referenced type ID\"");
  EXPECT_EQ(log_source(*ext), "libbpf");
  EXPECT_EQ(log_note(*kernel), "kernel log: \"Member exceeds struct_size\"");
  EXPECT_EQ(log_source(*sframe), "kernel");
  EXPECT_EQ(log_note(*silent), "");
}

// A test that names a rule the tables do not have asserts nothing: its
// finding can never occur (tests/real_data/xc_dwarf_test.cpp once expected
// zero XC-DW-007 findings, a spec paragraph and no rule). Every rule id in a
// test's string literals, and in the tests' scripts and expected outputs,
// is in the tables.
TEST(RuleTable, EveryRuleIdTheTestsNameExists) {
  const fs::path root = fs::path(ELFMETA_SOURCE_DIR) / "tests";
  ASSERT_TRUE(fs::is_directory(root)) << root;
  const std::regex id(R"(\b((BTF|XC|ORC|SFRAME)-[A-Z]+-[0-9]{3}|INPUT-[0-9]{3})\b)");
  const std::set<std::string> sources{".cpp", ".cc", ".h", ".c"}, texts{".py", ".md", ".txt", ".json", ".sh"};
  size_t files = 0, named = 0;
  for (const auto& e : fs::recursive_directory_iterator(root)) {
    if (!e.is_regular_file()) continue;
    const std::string ext = e.path().extension().string();
    if (!sources.count(ext) && !texts.count(ext)) continue;
    std::ifstream in(e.path(), std::ios::binary);
    std::stringstream buf;
    buf << in.rdbuf();
    const std::string text = sources.count(ext) ? string_literals(buf.str()) : buf.str();
    ++files;
    for (std::sregex_iterator m(text.begin(), text.end(), id), end; m != end; ++m) {
      ++named;
      EXPECT_NE(find_rule(m->str()), nullptr)
          << fs::relative(e.path(), root.parent_path()).string() << " names " << m->str() << ", which is no rule";
    }
  }
  EXPECT_GT(files, 50u);
  EXPECT_GT(named, 300u);  // the rule cases name every rule
}

}  // namespace
}  // namespace elfmeta::testing
