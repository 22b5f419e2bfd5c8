#!/usr/bin/env python3
"""What the kernel's resolve_btfids does after pahole, for the cases that
model a kernel object outside a kernel build: every __BTF_ID__func__NAME__N
symbol in .BTF_ids gets the id of the FUNC named NAME in the file's .BTF, and
the (id, flags) pairs of each BTF_SET8 are sorted by id.

  resolve_btfids.py ELF     (64-bit little-endian; rewritten in place)

Standard library only; written from the ELF and BTF formats, not from the
kernel's tool."""
import re
import struct
import sys

# Bytes after the 12-byte common record, per BTF kind: fixed, and per vlen.
EXTRA = {1: (4, 0), 2: (0, 0), 3: (12, 0), 4: (0, 12), 5: (0, 12), 6: (0, 8), 7: (0, 0), 8: (0, 0),
         9: (0, 0), 10: (0, 0), 11: (0, 0), 12: (0, 0), 13: (0, 8), 14: (4, 0), 15: (0, 12), 16: (0, 0),
         17: (4, 0), 18: (0, 0), 19: (0, 12)}


def sections(data):
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    heads = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]
    names = heads[shstrndx][4]
    out = []
    for h in heads:
        end = data.index(b"\0", names + h[0])
        out.append({"name": data[names + h[0]:end].decode(), "type": h[1], "addr": h[3], "offset": h[4],
                    "size": h[5], "link": h[6]})
    return out


def func_ids(btf):
    magic, _, _, hdr_len, type_off, type_len, str_off, _ = struct.unpack_from("<HBBIIIII", btf, 0)
    assert magic == 0xEB9F, "not BTF"
    types, strings = hdr_len + type_off, hdr_len + str_off
    ids, pos, tid = {}, types, 1
    while pos < types + type_len:
        name_off, info, _ = struct.unpack_from("<III", btf, pos)
        kind, vlen = (info >> 24) & 0x1F, info & 0xFFFF
        if kind == 12:
            end = btf.index(b"\0", strings + name_off)
            ids.setdefault(btf[strings + name_off:end].decode(), tid)
        fixed, per = EXTRA[kind]
        pos += 12 + fixed + per * vlen
        tid += 1
    return ids


def main(path):
    data = bytearray(open(path, "rb").read())
    secs = sections(data)
    by_name = {s["name"]: (i, s) for i, s in enumerate(secs)}
    btf_sec, (ids_index, ids_sec) = by_name[".BTF"][1], by_name[".BTF_ids"]
    ids = func_ids(bytes(data[btf_sec["offset"]:btf_sec["offset"] + btf_sec["size"]]))
    symtab = next(s for s in secs if s["type"] == 2)
    strtab = secs[symtab["link"]]
    sets = []
    for k in range(symtab["size"] // 24):
        st_name, _, _, shndx, value, size = struct.unpack_from("<IBBHQQ", data, symtab["offset"] + 24 * k)
        if shndx != ids_index:
            continue
        end = data.index(b"\0", strtab["offset"] + st_name)
        name = data[strtab["offset"] + st_name:end].decode()
        at = ids_sec["offset"] + value - ids_sec["addr"]
        m = re.fullmatch(r"__BTF_ID__func__(.+)__\d+", name)
        if m:
            struct.pack_into("<I", data, at, ids.get(m.group(1), 0))
        elif name.startswith("__BTF_ID__set8__"):
            sets.append(at)
    for at in sets:
        count, = struct.unpack_from("<I", data, at)
        pairs = sorted(struct.unpack_from("<II", data, at + 8 + 8 * i) for i in range(count))
        for i, pair in enumerate(pairs):
            struct.pack_into("<II", data, at + 8 + 8 * i, *pair)
    open(path, "wb").write(data)


if __name__ == "__main__":
    main(sys.argv[1])
