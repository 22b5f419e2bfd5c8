#include "sframe/sframe_format.h"

#include "sframe/sframe_abi.h"

namespace elfmeta::sframe {

std::string_view abi_name(uint8_t abi) {
  const AbiFacts* facts = abi_facts(abi);
  return facts ? facts->name : "abi?";
}

bool abi_big_endian(uint8_t abi) {
  const AbiFacts* facts = abi_facts(abi);
  return facts && facts->endian == Endian::Big;
}

}  // namespace elfmeta::sframe
