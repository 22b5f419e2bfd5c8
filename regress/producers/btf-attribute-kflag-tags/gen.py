import os, sys
sys.path.insert(0, os.environ["PRODUCERS_LIB"])
from btfgen import Btf
b = Btf()
import struct
i = b.int("int", 4)
p = b.func_proto(i, [("x", i)])
f = b.func("f", p)
b.typ("DECL_TAG", "aligned(8)", f, kflag=1, extra=struct.pack("<i", -1))
t = b.typ("TYPE_TAG", "address_space(1)", i, kflag=1)
b.typ("PTR", 0, t)
b.write()
