// DEFINE_PER_CPU_FIRST: compiled without -g, so pahole sees no DWARF variable.
struct fixed_percpu_data { char gsbase[40]; unsigned long stack_canary; };
__attribute__((section(".data..percpu..first"))) struct fixed_percpu_data fixed_percpu_data;
