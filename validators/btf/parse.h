// BTF parser: header, section tiling, string section (the kernel's
// btf_parse_hdr(), btf_check_sec_info(), btf_parse_str_sec()), and the walk
// that sizes every type record (btf_check_all_metas()'s walk; the per-record
// checks are check_records.cpp's). Problems are findings (BTF-HDR-*,
// BTF-STR-001..004, BTF-TYPE-001/003/004); parsing goes as far as the bytes
// allow.
#pragma once

#include <optional>
#include <span>

#include "btf/btf.h"
#include "btf/findings.h"

namespace elfmeta::btf {

struct ParseOptions {
  const Btf* base = nullptr;  // split BTF: the blob it continues
  // Judge the blob as the running (host-order) kernel would: a byte-swapped
  // blob is then "Invalid magic" instead of being checked in its own order.
  bool assume_host_order = false;
};

// The model, when the header could be read and the sections located. Its
// strings_usable()/types_complete() say how far the rest could be parsed.
std::optional<Btf> parse(std::span<const uint8_t> data, const ParseOptions& options, Findings& findings);

// A copy of a blob in the other byte order: header fields and every u32 word
// of each type record are swapped; strings are kept; malformed parts are left
// as they are. `from_host_order` says which order `data` is in.
std::vector<uint8_t> swap_byte_order(std::span<const uint8_t> data, bool from_host_order);

// True when the first two bytes are the BTF magic in either byte order.
bool looks_like_btf(std::span<const uint8_t> data);

}  // namespace elfmeta::btf
