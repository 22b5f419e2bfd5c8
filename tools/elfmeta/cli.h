// Subcommands of the elfmeta CLI. Each returns the process exit status:
// 0 clean, 1 findings (errors, or warnings with --Werror), 2 usage or input
// that could not be read.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace elfmeta::cli {

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Walks argv; options take their value from the next argument or "--opt=value".
class Args {
 public:
  explicit Args(std::vector<std::string> args) : args_(std::move(args)) {}
  bool done() const { return pos_ >= args_.size(); }
  const std::string& peek() const { return args_[pos_]; }
  std::string next() { return args_[pos_++]; }
  // If the current argument is `name` (or `name=value`), consume it and its value.
  bool option(const std::string& name, std::string& value);
  bool flag(const std::string& name);

 private:
  std::vector<std::string> args_;
  size_t pos_ = 0;
};

int run_check(Args args);
int run_stats(Args args);
int run_diff(Args args);
int run_report(Args args);
int run_rules(Args args);
int run_kernels(Args args);
int run_explain(Args args);
int run_dump(Args args);
int run_oracle(Args args);
int run_coverage(Args args);

}  // namespace elfmeta::cli
