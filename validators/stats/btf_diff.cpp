#include "stats/btf_diff.h"

#include <map>
#include <set>

#include "btf/btf_format.h"
#include "btf/c_type.h"

namespace elfmeta::stats {
namespace {

using btf::TypeRef;

std::string name_of(const btf::Btf& b, uint32_t name_off) { return std::string(b.name_of(name_off)); }

struct Key {
  uint32_t kind;
  std::string name;
  auto operator<=>(const Key&) const = default;
};

// Named own types by (kind, name); a name defined more than once keeps all its ids.
std::map<Key, std::vector<uint32_t>> named_types(const btf::Btf& b) {
  std::map<Key, std::vector<uint32_t>> out;
  for (uint32_t id = b.first_id(); id < b.type_count(); ++id) {
    const TypeRef t = b.type(id);
    if (!t.name_off()) continue;
    out[{t.kind(), name_of(b, t.name_off())}].push_back(id);
  }
  return out;
}

void compare_size(const TypeRef& o, const TypeRef& n, std::vector<std::string>& d) {
  if (o.size() != n.size()) d.push_back("size " + std::to_string(o.size()) + " -> " + std::to_string(n.size()));
}

void compare_members(const btf::Btf& ob, TypeRef o, const btf::Btf& nb, TypeRef n, std::vector<std::string>& d) {
  struct M {
    std::string type;
    uint32_t bit_offset, bitfield;
  };
  auto members = [](const btf::Btf& b, TypeRef t) {
    std::map<std::string, M> out;
    for (uint32_t i = 0; i < t.vlen(); ++i) {
      const btf::Member m = btf::member_at(t, i);
      std::string key = name_of(b, m.name_off);
      if (key.empty()) key = "#" + std::to_string(i);  // anonymous members by position
      out[key] = {type_string(b, m.type), btf::member_bit_offset_of(t, m), btf::member_bitfield_size_of(t, m)};
    }
    return out;
  };
  const auto om = members(ob, o), nm = members(nb, n);
  for (const auto& [name, m] : nm)
    if (!om.count(name)) d.push_back("member '" + name + "' (" + m.type + ") added at bit " + std::to_string(m.bit_offset));
  for (const auto& [name, m] : om) {
    auto it = nm.find(name);
    if (it == nm.end()) {
      d.push_back("member '" + name + "' (" + m.type + ") removed");
      continue;
    }
    if (it->second.type != m.type) d.push_back("member '" + name + "' type " + m.type + " -> " + it->second.type);
    if (it->second.bit_offset != m.bit_offset)
      d.push_back("member '" + name + "' moved from bit " + std::to_string(m.bit_offset) + " to " +
                  std::to_string(it->second.bit_offset));
    if (it->second.bitfield != m.bitfield)
      d.push_back("member '" + name + "' bitfield size " + std::to_string(m.bitfield) + " -> " +
                  std::to_string(it->second.bitfield));
  }
}

void compare_enumerators(const btf::Btf& ob, TypeRef o, const btf::Btf& nb, TypeRef n, std::vector<std::string>& d) {
  auto values = [](const btf::Btf& b, TypeRef t) {
    std::map<std::string, uint64_t> out;
    for (uint32_t i = 0; i < t.vlen(); ++i) {
      const btf::EnumValue e = btf::enum_at(t, i);
      out[name_of(b, e.name_off)] = e.value;
    }
    return out;
  };
  const auto ov = values(ob, o), nv = values(nb, n);
  for (const auto& [name, v] : nv)
    if (!ov.count(name)) d.push_back("enumerator '" + name + "' = " + std::to_string(v) + " added");
  for (const auto& [name, v] : ov) {
    auto it = nv.find(name);
    if (it == nv.end())
      d.push_back("enumerator '" + name + "' removed");
    else if (it->second != v)
      d.push_back("enumerator '" + name + "' " + std::to_string(v) + " -> " + std::to_string(it->second));
  }
}

std::vector<std::string> compare(const btf::Btf& ob, uint32_t oid, const btf::Btf& nb, uint32_t nid) {
  const TypeRef o = ob.type(oid), n = nb.type(nid);
  std::vector<std::string> d;
  auto same_string = [&](const std::string& what, const std::string& a, const std::string& b) {
    if (a != b) d.push_back(what + " " + a + " -> " + b);
  };
  switch (o.kind()) {
    case btf::kStruct:
    case btf::kUnion:
      compare_size(o, n, d);
      compare_members(ob, o, nb, n, d);
      break;
    case btf::kEnum:
    case btf::kEnum64:
      compare_size(o, n, d);
      if (o.kflag() != n.kflag()) d.push_back(n.kflag() ? "became signed" : "became unsigned");
      compare_enumerators(ob, o, nb, n, d);
      break;
    case btf::kInt:
      compare_size(o, n, d);
      if (o.payload(0) != n.payload(0)) d.push_back("encoding/bits changed");
      break;
    case btf::kFloat: compare_size(o, n, d); break;
    case btf::kTypedef: same_string("target", type_string(ob, o.type()), type_string(nb, n.type())); break;
    case btf::kFunc:
      same_string("prototype", type_string(ob, o.type()), type_string(nb, n.type()));
      if (o.vlen() != n.vlen()) d.push_back("linkage " + std::to_string(o.vlen()) + " -> " + std::to_string(n.vlen()));
      break;
    case btf::kVar:
      same_string("type", type_string(ob, o.type()), type_string(nb, n.type()));
      if (o.payload(0) != n.payload(0))
        d.push_back("linkage " + std::to_string(o.payload(0)) + " -> " + std::to_string(n.payload(0)));
      break;
    case btf::kDatasec:
      compare_size(o, n, d);
      if (o.vlen() != n.vlen()) d.push_back("variables " + std::to_string(o.vlen()) + " -> " + std::to_string(n.vlen()));
      break;
    case btf::kDeclTag: same_string("target", type_string(ob, o.type()), type_string(nb, n.type())); break;
    default: break;
  }
  return d;
}

}  // namespace

std::string type_string(const btf::Btf& b, uint32_t id) { return btf::c_type_name(b, id); }

std::vector<TypeChange> diff_btf(const btf::Btf& old_btf, const btf::Btf& new_btf) {
  const auto old_types = named_types(old_btf), new_types = named_types(new_btf);
  std::vector<TypeChange> out;
  auto kind_text = [](uint32_t k) { return std::string(btf::kind_name(k)); };
  std::set<Key> keys;
  for (const auto& [k, ids] : old_types) keys.insert(k);
  for (const auto& [k, ids] : new_types) keys.insert(k);
  for (const Key& k : keys) {
    auto o = old_types.find(k), n = new_types.find(k);
    if (o == old_types.end()) {
      out.push_back({TypeChange::What::Added, kind_text(k.kind), k.name, {}});
    } else if (n == new_types.end()) {
      out.push_back({TypeChange::What::Removed, kind_text(k.kind), k.name, {}});
    } else if (o->second.size() != n->second.size()) {
      out.push_back({TypeChange::What::Changed, kind_text(k.kind), k.name,
                     {"defined " + std::to_string(o->second.size()) + " -> " + std::to_string(n->second.size()) + " times"}});
    } else if (o->second.size() == 1) {
      auto details = compare(old_btf, o->second.front(), new_btf, n->second.front());
      if (!details.empty()) out.push_back({TypeChange::What::Changed, kind_text(k.kind), k.name, std::move(details)});
    }
  }
  return out;
}

}  // namespace elfmeta::stats
