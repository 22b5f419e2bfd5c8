import os, sys
sys.path.insert(0, os.environ["PRODUCERS_LIB"])
from btfgen import Btf
b = Btf()
i = b.int("int", 4)
t = b.typ("TYPE_TAG", "user", i)
b.typ("TYPEDEF", "user_int", t)
b.write()
