import os, sys
sys.path.insert(0, os.environ["PRODUCERS_LIB"])
from btfgen import Btf
b = Btf()
i = b.int("int", 4)
b.typ("PTR", 0, 99)
b.typ("TYPEDEF", 4096, i)
b.write()
