/* Source of samples/sample.btf: a few C types, compiled with gcc -g and
 * encoded by pahole -J, the way a kernel build encodes vmlinux. */
enum sample_state { SAMPLE_IDLE, SAMPLE_RUNNING, SAMPLE_DONE = 7 };

struct sample_list {
	struct sample_list *next, *prev;
};

struct sample_task {
	int pid;
	unsigned int flags : 3, nice : 5;
	enum sample_state state;
	char comm[16];
	struct sample_list node;
	double load;
	const char *(*describe)(const struct sample_task *t, int verbose);
};

typedef struct sample_task sample_task_t;

int sample_count;
sample_task_t sample_tasks[4];

int sample_run(sample_task_t *t, unsigned long budget)
{
	t->state = SAMPLE_RUNNING;
	return t->pid + (int)budget + sample_count;
}
