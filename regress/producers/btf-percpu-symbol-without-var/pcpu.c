// Ordinary percpu variables (DEFINE_PER_CPU), with DWARF.
#define PERCPU __attribute__((section(".data..percpu")))
PERCPU int cpu_number;
PERCPU long irq_count = 3;
int use(void) { return cpu_number + (int)irq_count; }
