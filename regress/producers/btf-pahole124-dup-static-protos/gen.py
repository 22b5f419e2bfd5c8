import os, sys
sys.path.insert(0, os.environ["PRODUCERS_LIB"])
from btfgen import Btf
b = Btf()
i = b.int("int", 4)
l = b.int("long int", 8)
p1 = b.func_proto(i, [("x", i)])
p2 = b.func_proto(l, [("x", l), ("y", l)])
b.func("helper", p1, linkage=0)
b.func("helper", p2, linkage=0)
b.write()
# The two static functions, as /proc/kallsyms lists them.
with open("kallsyms", "w") as f:
    f.write("ffffffff81000000 t helper\nffffffff81000100 t helper\n")
