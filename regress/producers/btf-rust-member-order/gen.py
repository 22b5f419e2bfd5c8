import os, sys
sys.path.insert(0, os.environ["PRODUCERS_LIB"])
from btfgen import Btf
b = Btf()
u8 = b.int("u8", 1, signed=False)
u64 = b.int("u64", 8, signed=False)
b.struct("Foo", 16, [("a", u8, 64), ("b", u64, 0)])
b.write()
