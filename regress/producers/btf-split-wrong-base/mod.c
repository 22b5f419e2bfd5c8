// The "module": its types refer to the base's struct task and unsigned long.
struct task { int pid; long state; struct task *parent; };
struct mod_state { struct task *owner; unsigned long stamp; char name[16]; };
struct mod_state g_mod_state;
