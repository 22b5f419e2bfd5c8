#include "btf/dump.h"

#include <string>

#include "core/text.h"

namespace elfmeta::btf {
namespace {

std::string name(const Btf& btf, uint32_t off) {
  if (off == 0) return "(anon)";
  if (!btf.name_offset_valid(off)) return "<bad name_off " + hex(off) + ">";
  return "'" + printable(btf.name_of(off), 200) + "'";
}

const char* int_encoding_name(uint32_t enc) {
  switch (enc) {
    case 0: return "(none)";
    case kIntSigned: return "SIGNED";
    case kIntChar: return "CHAR";
    case kIntBool: return "BOOL";
    default: return "(invalid)";
  }
}

}  // namespace

void dump(const Btf& btf, std::ostream& out) {
  for (uint32_t id = btf.first_id(); id < btf.type_count(); ++id) {
    const TypeRef t = btf.type(id);
    const uint32_t k = t.kind();
    out << "[" << id << "] " << kind_name(k) << " " << name(btf, t.name_off());
    switch (k) {
      case kInt: {
        const uint32_t d = t.payload(0);
        out << " size=" << t.size() << " bits_offset=" << int_offset(d) << " nr_bits=" << int_bits(d)
            << " encoding=" << int_encoding_name(int_encoding(d)) << "\n";
        break;
      }
      case kPtr:
      case kTypedef:
      case kVolatile:
      case kConst:
      case kRestrict:
        out << " type_id=" << t.type() << "\n";
        break;
      case kTypeTag:
        out << " type_id=" << t.type() << (t.kflag() ? " kind_flag=1" : "") << "\n";
        break;
      case kArray:
        out << " type_id=" << t.payload(0) << " index_type_id=" << t.payload(1) << " nr_elems=" << t.payload(2) << "\n";
        break;
      case kStruct:
      case kUnion:
        out << " size=" << t.size() << " vlen=" << t.vlen() << (t.kflag() ? " kind_flag=1" : "") << "\n";
        for (uint32_t i = 0; i < t.vlen(); ++i) {
          const Member m = member_at(t, i);
          out << "\t" << name(btf, m.name_off) << " type_id=" << m.type << " bits_offset=" << member_bit_offset_of(t, m);
          if (member_bitfield_size_of(t, m)) out << " bitfield_size=" << member_bitfield_size_of(t, m);
          out << "\n";
        }
        break;
      case kEnum:
      case kEnum64:
        out << " encoding=" << (t.kflag() ? "SIGNED" : "UNSIGNED") << " size=" << t.size() << " vlen=" << t.vlen() << "\n";
        for (uint32_t i = 0; i < t.vlen(); ++i) {
          const EnumValue e = enum_at(t, i);
          out << "\t" << name(btf, e.name_off) << " val=";
          if (t.kflag())
            out << (k == kEnum64 ? static_cast<int64_t>(e.value) : static_cast<int32_t>(e.value));
          else
            out << e.value;
          out << "\n";
        }
        break;
      case kFwd:
        out << " fwd_kind=" << (t.kflag() ? "union" : "struct") << "\n";
        break;
      case kFunc:
        out << " type_id=" << t.type() << " linkage=" << (t.vlen() == 0 ? "static" : t.vlen() == 1 ? "global" : "extern")
            << "\n";
        break;
      case kFuncProto:
        out << " ret_type_id=" << t.type() << " vlen=" << t.vlen() << "\n";
        for (uint32_t i = 0; i < t.vlen(); ++i) {
          const Param p = param_at(t, i);
          out << "\t" << name(btf, p.name_off) << " type_id=" << p.type << "\n";
        }
        break;
      case kVar:
        out << " type_id=" << t.type() << " linkage=" << t.payload(0) << "\n";
        break;
      case kDatasec:
        out << " size=" << t.size() << " vlen=" << t.vlen() << "\n";
        for (uint32_t i = 0; i < t.vlen(); ++i) {
          const VarSecInfo e = secinfo_at(t, i);
          out << "\ttype_id=" << e.type << " offset=" << e.offset << " size=" << e.size << "\n";
        }
        break;
      case kFloat:
        out << " size=" << t.size() << "\n";
        break;
      case kDeclTag:
        out << " type_id=" << t.type() << " component_idx=" << static_cast<int32_t>(t.payload(0))
            << (t.kflag() ? " kind_flag=1" : "") << "\n";
        break;
      default:
        out << "\n";
    }
  }
}

}  // namespace elfmeta::btf
