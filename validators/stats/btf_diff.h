// The difference between two BTF blobs of the same thing (a kernel built by
// two pahole versions, or two releases): named types added, removed and
// changed, matched by kind and name (type ids move between builds), with
// member-level detail. Anonymous types are compared through the named
// types that use them.
#pragma once

#include <string>
#include <vector>

#include "btf/btf.h"

namespace elfmeta::stats {

struct TypeChange {
  enum class What { Added, Removed, Changed };
  What what = What::Changed;
  std::string kind;  // "STRUCT"
  std::string name;
  std::vector<std::string> details;  // for Changed: "member 'x' added at bit 64", "size 16 -> 24"
};

// In kind then name order.
std::vector<TypeChange> diff_btf(const btf::Btf& old_btf, const btf::Btf& new_btf);

// A short C-like spelling of a type ("const struct file *", "int[4]",
// "u32 (*)(void *)"), at most a few levels deep.
std::string type_string(const btf::Btf& b, uint32_t id);

}  // namespace elfmeta::stats
