// XC-SYM-013 and the set half of XC-SYM-010: the BTF id sets that
// resolve_btfids fills in .BTF_ids (BTF_SET8 kfunc sets, BTF_SET lists)
// against the BTF. Each set is found by its symbol, __BTF_ID__set8__NAME or
// __BTF_ID__set__NAME; the __BTF_ID__func__NAME__N symbols inside it name
// the functions resolve_btfids looked up.
#include <elf.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>

#include "btf/btf_format.h"
#include "btf/xc/cross_check.h"
#include "btf/xc/xc_rules.h"
#include "core/byte_reader.h"
#include "core/text.h"

namespace elfmeta::btf::xc {
namespace {

constexpr std::string_view kSet8Prefix = "__BTF_ID__set8__", kSetPrefix = "__BTF_ID__set__",
                           kFuncPrefix = "__BTF_ID__func__";

// "bpf_xdp_ct_alloc" from "__BTF_ID__func__bpf_xdp_ct_alloc__1053524" (the
// suffix makes each symbol unique; names may contain "__" themselves).
std::string_view id_symbol_name(std::string_view symbol, std::string_view prefix) {
  std::string_view rest = symbol.substr(prefix.size());
  const size_t cut = rest.rfind("__");
  if (cut != std::string_view::npos && cut + 2 < rest.size() &&
      std::all_of(rest.begin() + cut + 2, rest.end(), [](char c) { return c >= '0' && c <= '9'; }))
    rest = rest.substr(0, cut);
  return rest;
}

class BtfIdsChecker {
 public:
  BtfIdsChecker(const CrossCheckInput& in, Findings& findings, CrossCheckStats& stats)
      : in_(in), btf_(in.btf), findings_(findings), stats_(stats) {}

  void run() {
    section_ = in_.artifact.section(".BTF_ids");
    if (!section_ || !in_.symbols || section_->data.empty()) return;
    bytes_ = ByteReader(section_->data, in_.artifact.endian);
    struct Set {
      std::string_view name;
      uint64_t offset;
      bool eight;
    };
    std::vector<Set> sets;
    std::set<std::pair<uint64_t, bool>> set_at;  // one check per offset and form, however many symbols name it
    for (const input::Symbol& s : in_.symbols->symbols()) {
      const auto offset = offset_in_section(s);
      if (!offset) continue;
      const std::string_view name = s.name;
      if (name.starts_with(kSet8Prefix)) {
        if (set_at.emplace(*offset, true).second) sets.push_back({name.substr(kSet8Prefix.size()), *offset, true});
      } else if (name.starts_with(kSetPrefix)) {
        if (set_at.emplace(*offset, false).second) sets.push_back({name.substr(kSetPrefix.size()), *offset, false});
      } else if (name.starts_with(kFuncPrefix)) {
        functions_at_[*offset] = id_symbol_name(name, kFuncPrefix);
      }
    }
    // Sets at different offsets may still overlap (each count reaching
    // over the next): the entries read are bounded by twice the section's
    // words, which real sets, laid out one after another, never reach.
    budget_ = 2 * (bytes_.size() / 4) + 1024;
    size_t unchecked = 0;
    for (const Set& set : sets) {
      if (!check_set(set.name, set.offset, set.eight)) ++unchecked;
    }
    if (unchecked)
      findings_.note(".BTF_ids", std::to_string(unchecked) + " of " + std::to_string(sets.size()) +
                                     " BTF id sets not checked (XC-SYM-013): their entries overlap other sets' "
                                     "beyond twice the section's " + std::to_string(bytes_.size() / 4) + " words");
    check_kfuncs_in_sets(!sets.empty());
  }

 private:
  // Where a symbol lies in .BTF_ids: its value in an object (in that
  // section), its address minus the section's in a linked image.
  std::optional<uint64_t> offset_in_section(const input::Symbol& s) const {
    if (in_.artifact.elf_type == ET_REL) {
      if (s.section != section_->index || s.address >= section_->data.size()) return std::nullopt;
      return s.address;
    }
    if (s.address < section_->addr || s.address - section_->addr >= section_->data.size()) return std::nullopt;
    return s.address - section_->addr;
  }

  // BTF_SET8: u32 cnt, u32 flags, then cnt pairs {u32 id, u32 flags};
  // BTF_SET: u32 cnt, then cnt ids. resolve_btfids sorts both by id: the
  // kernel looks ids up by binary search.
  // False when the entry budget is spent (the set is then not checked).
  bool check_set(std::string_view name, uint64_t at, bool eight) {
    const uint64_t header = eight ? 8 : 4, stride = eight ? 8 : 4;
    const std::string what = std::string(eight ? "BTF_SET8 '" : "BTF_SET '") + printable(name) + "'";
    if (at + header > bytes_.size()) {
      ++stats_.btf_id_sets;
      findings_.emit(rules::SYM_013, where(at), what + " at .BTF_ids+" + hex(at) + " runs past the section's end");
      return true;
    }
    const uint32_t count = bytes_.at<uint32_t>(at);
    if (count > (bytes_.size() - at - header) / stride) {
      ++stats_.btf_id_sets;
      findings_.emit(rules::SYM_013, where(at),
                     what + " claims " + std::to_string(count) + " entries; the section holds at most " +
                         std::to_string((bytes_.size() - at - header) / stride) + " from there");
      return true;
    }
    if (count > budget_) return false;
    budget_ -= count;
    ++stats_.btf_id_sets;
    // resolve_btfids sorts the entries after filling them in: the symbols
    // still mark the order of the source, so the set's functions are
    // compared with its ids as a whole.
    std::vector<uint32_t> ids;
    std::vector<std::string_view> functions;
    uint32_t previous = 0;
    for (uint32_t k = 0; k < count; ++k) {
      const uint64_t field = at + header + uint64_t(k) * stride;
      const uint32_t id = bytes_.at<uint32_t>(field);
      ++stats_.btf_id_entries;
      if (k && id < previous)
        findings_.emit(rules::SYM_013, where(field),
                       what + " entry " + std::to_string(k) + " has id " + std::to_string(id) + " after " +
                           std::to_string(previous) + ": not sorted, the kernel's binary search misses entries");
      previous = id;
      ids.push_back(id);
      if (eight && id) in_set8_.insert(id);
      if (auto named = functions_at_.find(field); named != functions_at_.end()) functions.push_back(named->second);
    }
    if (functions.empty()) return true;  // a set of other kinds, or no symbols to say what was meant
    std::multiset<std::string_view> unmatched(functions.begin(), functions.end());
    std::vector<uint32_t> strangers;
    size_t zeros = 0;
    for (uint32_t id : ids) {
      if (id == 0) {
        ++zeros;
        continue;
      }
      const bool func = btf_.has_type(id) && btf_.type(id).kind() == kFunc;
      auto it = func ? unmatched.find(xc_name(btf_, btf_.type(id).name_off())) : unmatched.end();
      if (it == unmatched.end())
        strangers.push_back(id);
      else
        unmatched.erase(it);
    }
    // Zeros without a function symbol are BTF_ID_UNUSED placeholders
    // (btf_id_deny starts with one); a named function without its id is
    // what resolve_btfids warns about as an unresolved symbol.
    const std::string missing = join_names(unmatched);
    if (!unmatched.empty())
      findings_.emit(rules::SYM_013, where(at),
                     what + ": no entry is the FUNC of " + missing + " (" + std::to_string(zeros) +
                         " entries are 0): resolve_btfids did not resolve " +
                         (unmatched.size() == 1 ? "it" : "them"));
    for (uint32_t id : strangers) {
      const std::string found = !btf_.has_type(id) ? "no type"
                                                   : std::string(kind_name(btf_.type(id).kind())) + " '" +
                                                         printable(xc_name(btf_, btf_.type(id).name_off())) + "'";
      findings_.emit(rules::SYM_013, where(at),
                     what + " holds type " + std::to_string(id) + ", " + found +
                         ", which none of its __BTF_ID__func__ symbols names");
    }
    return true;
  }

  // The names, and past the first 32 how many there are in all (the sets
  // of Debian's 6.1 modules, which resolve_btfids left unresolved, name at
  // most 10).
  static std::string join_names(const std::multiset<std::string_view>& names) {
    constexpr size_t kListed = 32;
    std::string out;
    size_t n = 0;
    for (auto name : names) {
      if (n++ == kListed) {
        out += ", ... (" + std::to_string(names.size()) + " in all)";
        break;
      }
      out += (out.empty() ? "" : ", ") + printable(name);
    }
    return out;
  }

  // XC-SYM-010, the set half: where the artifact has kfunc sets, every FUNC
  // tagged bpf_kfunc is in one (else no program can call it).
  void check_kfuncs_in_sets(bool any_set) {
    if (!any_set) return;
    for (uint32_t id = btf_.first_id(); id < btf_.type_count(); ++id) {
      const TypeRef tag = btf_.type(id);
      if (tag.kind() != kDeclTag || tag.payload(0) != ~uint32_t(0) || !btf_.has_type(tag.type())) continue;
      if (xc_name(btf_, tag.name_off()) != "bpf_kfunc" || btf_.type(tag.type()).kind() != kFunc) continue;
      if (!in_set8_.count(tag.type()))
        findings_.emit(rules::SYM_010, type_location(in_, tag.type()),
                       "kfunc '" + printable(xc_name(btf_, btf_.type(tag.type()).name_off())) +
                           "' is in no BTF_SET8 of .BTF_ids: no kfunc set registers it");
    }
  }

  Location where(uint64_t offset) const {
    return Location{in_.artifact.name, ".BTF_ids", offset, "", std::nullopt, "", std::nullopt};
  }

  const CrossCheckInput& in_;
  const Btf& btf_;
  Findings& findings_;
  CrossCheckStats& stats_;
  const input::Section* section_ = nullptr;
  ByteReader bytes_;
  std::map<uint64_t, std::string_view> functions_at_;  // id field offset -> function named by its symbol
  uint64_t budget_ = 0;  // set entries left to read
  std::set<uint32_t> in_set8_;
};

}  // namespace

void check_btf_ids(const CrossCheckInput& in, Findings& findings, CrossCheckStats& stats) {
  BtfIdsChecker(in, findings, stats).run();
}

}  // namespace elfmeta::btf::xc
