#include "btf/c_type.h"

#include <vector>

#include "core/text.h"

namespace elfmeta::btf {
namespace {

constexpr int kMaxChain = 32;      // modifiers followed before giving up
constexpr int kMaxProtoDepth = 3;  // prototypes inside prototypes' parameters

class Speller {
 public:
  Speller(const Btf& btf, size_t max_chars) : btf_(btf), left_(max_chars) {}

  // The spelling of `id`; each call takes what it writes from the budget.
  std::string spell(uint32_t id, int depth) {
    // The declarator, built from the name outwards: pointers and the
    // qualifiers on them go in front, array and prototype suffixes behind.
    std::string decl;
    std::vector<std::string> quals;  // qualifiers met since the last pointer
    std::string base;
    for (int step = 0; base.empty(); ++step) {
      if (step == kMaxChain) {
        base = "...";
        break;
      }
      if (id == 0) {
        base = "void";
        break;
      }
      if (!btf_.has_type(id)) {
        base = "<type " + std::to_string(id) + ">";
        break;
      }
      const TypeRef t = btf_.type(id);
      switch (t.kind()) {
        case kConst: quals.push_back("const"); id = t.type(); break;
        case kVolatile: quals.push_back("volatile"); id = t.type(); break;
        case kRestrict: quals.push_back("restrict"); id = t.type(); break;
        case kTypeTag: quals.push_back("__tag(" + name(t) + ")"); id = t.type(); break;
        case kPtr: {
          // Qualifiers met before this pointer qualify the pointer itself.
          std::string q = join(quals);
          quals.clear();
          decl = "*" + (q.empty() ? "" : " " + q) + (decl.empty() || q.empty() ? "" : " ") + decl;
          id = t.type();
          break;
        }
        case kArray:
          wrap_pointer(decl);
          decl += "[" + std::to_string(t.payload(2)) + "]";
          id = t.payload(0);  // qualifiers of an array qualify its elements: kept for the base
          break;
        case kFuncProto:
          wrap_pointer(decl);
          quals.clear();
          decl += "(" + params(t, depth) + ")";
          id = t.type();
          break;
        default:
          base = base_name(t);
          break;
      }
    }
    std::string out = join(quals);
    out += (out.empty() ? "" : " ") + base;
    if (!decl.empty()) out += (decl[0] == '[' ? "" : " ") + decl;
    take(out.size());
    return out;
  }

 private:
  std::string name(TypeRef t) const { return printable(btf_.name_of(t.name_off()), 64); }

  std::string base_name(TypeRef t) const {
    const std::string n = name(t);
    switch (t.kind()) {
      case kStruct: return "struct " + (n.empty() ? "{...}" : n);
      case kUnion: return "union " + (n.empty() ? "{...}" : n);
      case kEnum:
      case kEnum64: return "enum " + (n.empty() ? "{...}" : n);
      case kFwd: return (t.kflag() ? "union " : "struct ") + n;
      case kFunc: return n + "()";
      case kVar: return "var " + n;
      case kInt:
      case kFloat:
      case kTypedef: return n;
      default: return std::string(kind_name(t.kind())) + (n.empty() ? "" : " " + n);
    }
  }

  // "(*)" before a suffix: a pointer to an array or a function.
  static void wrap_pointer(std::string& decl) {
    if (!decl.empty() && decl[0] == '*') decl = "(" + decl + ")";
  }

  std::string params(TypeRef proto, int depth) {
    if (proto.vlen() == 0) return "void";
    if (depth >= kMaxProtoDepth) return "...";
    std::string s;
    for (uint32_t i = 0; i < proto.vlen(); ++i) {
      if (left_ == 0) {
        s += ", ...";
        break;
      }
      const uint32_t type = param_at(proto, i).type;
      s += (i ? ", " : "") + (type == 0 ? std::string("...") : spell(type, depth + 1));
    }
    return s;
  }

  static std::string join(const std::vector<std::string>& words) {
    std::string s;
    for (const auto& w : words) s += (s.empty() ? "" : " ") + w;
    return s;
  }

  void take(size_t n) { left_ -= std::min(left_, n); }

  const Btf& btf_;
  size_t left_;
};

}  // namespace

std::string c_type_name(const Btf& btf, uint32_t id, size_t max_chars) {
  std::string s = Speller(btf, max_chars).spell(id, 0);
  if (s.size() > max_chars) s = s.substr(0, max_chars) + "...";
  return s;
}

}  // namespace elfmeta::btf
