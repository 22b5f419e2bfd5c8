import os, sys
sys.path.insert(0, os.environ["PRODUCERS_LIB"])
from btfgen import Btf
b = Btf()
i = b.int("int", 4)
l = b.int("long int", 8)
p = b.func_proto(l, [("k", i)])
b.func("scale", p, linkage=0)
b.func("api", p, linkage=1)
b.func("mod_exit", b.func_proto(0, []), linkage=0)
with open("kallsyms", "w") as f:
    f.write("ffffffff81000000 t scale.constprop.0\nffffffff81000040 T api\n")
b.write()
