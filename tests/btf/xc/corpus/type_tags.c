// BTF-vs-DWARF corpus, clang only: btf_type_tag annotations (GCC 12 ignores
// the attribute). pahole turns them into TYPE_TAGs under the PTR.
#define __user __attribute__((btf_type_tag("user")))
#define __rcu __attribute__((btf_type_tag("rcu")))
struct tagged { int __user *up; char __user * __rcu *both; const int __user *cu; };
struct tagged g_tagged;
int read_user(int __user *p, struct tagged *t) { return t->up == p; }
