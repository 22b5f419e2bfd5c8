import os, sys
sys.path.insert(0, os.environ["PRODUCERS_LIB"])
from btfgen import Btf
b = Btf()
i = b.int("int", 4)
v = b.var("x", i)
# The name offset is the last byte of the string section: its terminating NUL.
b.datasec(None, 4, [(v, 0, 4)])
b.s("data_end")
raw = bytearray(b.blob())
import struct
last = len(b.strings) - 1
# patch the DATASEC's name_off (record 3 starts after INT (16) + VAR (16) bytes)
struct.pack_into("<I", raw, 24 + 16 + 16, last)
open(sys.argv[1], "wb").write(raw)
