import os, sys
sys.path.insert(0, os.environ["PRODUCERS_LIB"])
from btfgen import Btf
b = Btf()
u8 = b.int("u8", 1, signed=False)
b.struct("*[2]u8", 2, [("ptr", u8, 0), ("len", u8, 8)])
b.write()
