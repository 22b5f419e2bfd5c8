#include "cli.h"

namespace elfmeta::cli {

bool Args::option(const std::string& name, std::string& value) {
  if (done()) return false;
  const std::string& a = args_[pos_];
  if (a == name) {
    if (pos_ + 1 >= args_.size()) throw UsageError(name + " needs a value");
    value = args_[pos_ + 1];
    pos_ += 2;
    return true;
  }
  if (a.size() > name.size() && a.compare(0, name.size(), name) == 0 && a[name.size()] == '=') {
    value = a.substr(name.size() + 1);
    ++pos_;
    return true;
  }
  return false;
}

bool Args::flag(const std::string& name) {
  if (done() || args_[pos_] != name) return false;
  ++pos_;
  return true;
}

}  // namespace elfmeta::cli
