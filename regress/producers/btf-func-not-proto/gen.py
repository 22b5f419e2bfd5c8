import os, sys
sys.path.insert(0, os.environ["PRODUCERS_LIB"])
from btfgen import Btf
b = Btf()
i = b.int("int", 4)
b.func("f", i)
b.write()
