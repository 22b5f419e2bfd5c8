/* /init of the initramfs elfmeta boots to ask a kernel for its verdicts.
 *
 * It loads every /blobs/N.btf with bpf(BPF_BTF_LOAD) and every /modules/N.ko
 * with finit_module, prints one line per verdict on the console, and powers
 * the machine off:
 *   ELFMETA BLOB N OK
 *   ELFMETA BLOB N ERR <errno> <last line of the verifier log>
 *   ELFMETA MODULE N OK <1 if /sys/kernel/btf/<name> appeared, else 0> <1 if unloaded, else 0> <"BPF:" kernel messages>
 *   ELFMETA MODULE N ERR <errno>
 *   ELFMETA DONE
 * Built static: it is the only program in the initramfs. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

static char log_buf[16 << 20];

static char *slurp(const char *path, size_t *size) {
	int fd = open(path, O_RDONLY);
	if (fd < 0) return NULL;
	struct stat st;
	if (fstat(fd, &st) != 0) { close(fd); return NULL; }
	char *buf = malloc(st.st_size ? st.st_size : 1);
	size_t got = 0;
	while (buf && got < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + got, st.st_size - got);
		if (n <= 0) break;
		got += n;
	}
	close(fd);
	*size = got;
	return buf;
}

static int btf_load(const char *data, size_t size, int level) {
	union bpf_attr attr;
	memset(&attr, 0, sizeof(attr));
	attr.btf = (unsigned long)data;
	attr.btf_size = size;
	if (level) {
		log_buf[0] = 0;
		attr.btf_log_buf = (unsigned long)log_buf;
		attr.btf_log_size = sizeof(log_buf) - 1;
		attr.btf_log_level = level;
	}
	return syscall(__NR_bpf, BPF_BTF_LOAD, &attr, sizeof(attr));
}

/* The last non-empty line, with tabs and newlines as spaces. */
static const char *last_line(char *log) {
	size_t n = strlen(log);
	while (n && (log[n - 1] == '\n' || log[n - 1] == ' ')) log[--n] = 0;
	char *nl = strrchr(log, '\n');
	char *line = nl ? nl + 1 : log;
	for (char *p = line; *p; p++)
		if (*p == '\t') *p = ' ';
	return line;
}

static int numeric(const struct dirent *e) { return e->d_name[0] >= '0' && e->d_name[0] <= '9'; }

static void load_blobs(void) {
	struct dirent **list;
	int n = scandir("/blobs", &list, numeric, versionsort);
	for (int i = 0; i < n; i++) {
		char path[512];
		size_t size = 0;
		snprintf(path, sizeof(path), "/blobs/%s", list[i]->d_name);
		char *data = slurp(path, &size);
		int index = atoi(list[i]->d_name);
		int fd = data ? btf_load(data, size, 0) : -1;
		if (fd >= 0) {
			printf("ELFMETA BLOB %d OK\n", index);
			close(fd);
		} else {
			int err = errno;
			fd = btf_load(data, size, 1);
			if (fd >= 0) close(fd);
			printf("ELFMETA BLOB %d ERR %d %s\n", index, err, last_line(log_buf));
		}
		fflush(stdout);
		free(data);
	}
}

/* "BPF:" and "failed to validate module" lines the kernel logged since the
 * last call. */
static void kmsg_btf_lines(int kmsg, char *out, size_t out_size) {
	char rec[2048];
	out[0] = 0;
	for (;;) {
		ssize_t n = read(kmsg, rec, sizeof(rec) - 1);
		if (n <= 0) break;
		rec[n] = 0;
		char *msg = strchr(rec, ';');
		if (!msg) continue;
		msg++;
		char *nl = strchr(msg, '\n');
		if (nl) *nl = 0;
		if (strstr(msg, "BPF:") || strstr(msg, "BTF")) {
			size_t used = strlen(out);
			snprintf(out + used, out_size - used, "%s%s", used ? " | " : "", msg);
		}
	}
}

static void load_modules(void) {
	struct dirent **list;
	int n = scandir("/modules", &list, numeric, versionsort);
	int kmsg = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	char messages[8192];
	if (kmsg >= 0) {
		lseek(kmsg, 0, SEEK_END);
	}
	for (int i = 0; i < n; i++) {
		char path[512], name[256], sys[512];
		snprintf(path, sizeof(path), "/modules/%s", list[i]->d_name);
		/* N.name.ko: the module's own name is needed to unload it. */
		const char *dot = strchr(list[i]->d_name, '.');
		snprintf(name, sizeof(name), "%s", dot ? dot + 1 : list[i]->d_name);
		char *ko = strstr(name, ".ko");
		if (ko) *ko = 0;
		int index = atoi(list[i]->d_name);
		int fd = open(path, O_RDONLY);
		int rc = fd >= 0 ? syscall(__NR_finit_module, fd, "", 0) : -1;
		int err = errno;
		if (fd >= 0) close(fd);
		if (kmsg >= 0) kmsg_btf_lines(kmsg, messages, sizeof(messages));
		else messages[0] = 0;
		if (rc != 0) {
			printf("ELFMETA MODULE %d ERR %d %s\n", index, err, messages);
		} else {
			snprintf(sys, sizeof(sys), "/sys/kernel/btf/%s", name);
			int btf = access(sys, F_OK) == 0;
			/* A module can stay busy for a moment after loading (crypto
			 * self-tests hold a reference): try for up to a second. */
			int unloaded = 0;
			for (int try = 0; try < 100 && !unloaded; try++) {
				unloaded = syscall(__NR_delete_module, name, O_NONBLOCK) == 0;
				if (!unloaded && errno != EAGAIN && errno != EBUSY && errno != EWOULDBLOCK) break;
				if (!unloaded) usleep(10000);
			}
			printf("ELFMETA MODULE %d OK %d %d %s\n", index, btf, unloaded, messages);
		}
		fflush(stdout);
	}
}

int main(void) {
	mount("proc", "/proc", "proc", 0, NULL);
	mount("sysfs", "/sys", "sysfs", 0, NULL);
	mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("ELFMETA START\n");
	load_blobs();
	load_modules();
	printf("ELFMETA DONE\n");
	fflush(stdout);
	sync();
	reboot(RB_POWER_OFF);
	reboot(RB_AUTOBOOT);
	return 0;
}
