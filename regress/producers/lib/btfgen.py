"""A minimal raw-BTF writer for the hand-made cases of regress/producers
(the defects no producer on Debian bookworm writes). Little-endian, version 1,
a 24-byte header; the layout is the kernel's include/uapi/linux/btf.h.

    b = Btf()
    i = b.int("int", 4)
    b.typ("PTR", 0, i)
    b.write("out.btf")
"""
import struct
import sys

KINDS = {"INT": 1, "PTR": 2, "ARRAY": 3, "STRUCT": 4, "UNION": 5, "ENUM": 6, "FWD": 7, "TYPEDEF": 8,
         "VOLATILE": 9, "CONST": 10, "RESTRICT": 11, "FUNC": 12, "FUNC_PROTO": 13, "VAR": 14, "DATASEC": 15,
         "FLOAT": 16, "DECL_TAG": 17, "TYPE_TAG": 18, "ENUM64": 19}


class Btf:
    def __init__(self):
        self.strings = bytearray(b"\0")
        self.offsets = {"": 0}
        self.types = bytearray()
        self.count = 0

    def s(self, name):
        """The offset of `name` in the string section (added once)."""
        if name is None:
            return 0
        if name not in self.offsets:
            self.offsets[name] = len(self.strings)
            self.strings += name.encode() + b"\0"
        return self.offsets[name]

    def typ(self, kind, name, size_or_type, vlen=0, kflag=0, extra=b""):
        """Appends a record; `name` is a string, or an int taken as a raw name offset. Returns its id."""
        name_off = name if isinstance(name, int) else self.s(name)
        info = (kflag << 31) | (KINDS[kind] << 24) | vlen
        self.types += struct.pack("<III", name_off, info, size_or_type) + extra
        self.count += 1
        return self.count

    def int(self, name, size, signed=True):
        return self.typ("INT", name, size, extra=struct.pack("<I", (1 if signed else 0) << 24 | size * 8))

    def struct(self, name, size, members, kind="STRUCT", kflag=0):
        """members: (name, type, bit offset)."""
        extra = b"".join(struct.pack("<III", self.s(m), t, off) for m, t, off in members)
        return self.typ(kind, name, size, vlen=len(members), kflag=kflag, extra=extra)

    def func_proto(self, ret, params):
        """params: (name, type); names are empty in prototypes of FUNCs' parameters only when absent."""
        extra = b"".join(struct.pack("<II", self.s(n), t) for n, t in params)
        return self.typ("FUNC_PROTO", 0, ret, vlen=len(params), extra=extra)

    def func(self, name, proto, linkage=1):
        return self.typ("FUNC", name, proto, vlen=linkage)

    def var(self, name, type_id, linkage=1):
        return self.typ("VAR", name, type_id, extra=struct.pack("<I", linkage))

    def datasec(self, name, size, entries):
        """entries: (var id, offset, size)."""
        extra = b"".join(struct.pack("<III", *e) for e in entries)
        return self.typ("DATASEC", name, size, vlen=len(entries), extra=extra)

    def blob(self):
        header = struct.pack("<HBBIIIII", 0xEB9F, 1, 0, 24, 0, len(self.types), len(self.types), len(self.strings))
        return header + bytes(self.types) + bytes(self.strings)

    def write(self, path=None):
        path = path or (sys.argv[1] if len(sys.argv) > 1 else "out.btf")
        with open(path, "wb") as f:
            f.write(self.blob())
