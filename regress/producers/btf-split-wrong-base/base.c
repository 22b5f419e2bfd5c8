// The "vmlinux": the rebuilt one (-DREBUILT) has one more type before the
// others and longer names, so every base type id and string offset shifts.
#ifdef REBUILT
struct added_in_rebuild { long long a, b; } g_added;
#endif
struct task { int pid; long state; struct task *parent; };
struct task g_task;
unsigned long jiffies;
