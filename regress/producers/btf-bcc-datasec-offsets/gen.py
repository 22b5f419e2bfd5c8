import os, sys
sys.path.insert(0, os.environ["PRODUCERS_LIB"])
from btfgen import Btf
b = Btf()
i = b.int("int", 4)
vs = [b.var(n, i) for n in ("a", "b", "c")]
b.datasec(".bss", 12, [(v, 0, 4) for v in vs])
b.write()
