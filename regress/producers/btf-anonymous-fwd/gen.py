import os, sys
sys.path.insert(0, os.environ["PRODUCERS_LIB"])
from btfgen import Btf
b = Btf()
f = b.typ("FWD", 0, 0)
b.typ("PTR", 0, f)
b.write()
