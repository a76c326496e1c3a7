/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* host.c: hostname, kernel, CPU model, perf_event_paranoid. */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "host.h"

int ti_host_paranoid(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "re");
	int v = -100;

	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = -100;
		fclose(f);
	}
	return v;
}

static void cpu_model(char *out, size_t len)
{
	char line[1024];
	FILE *f = fopen("/proc/cpuinfo", "re");

	if (!f)
		return;
	while (fgets(line, sizeof line, f)) {
		/* x86: "model name"; arm64: no model name, "CPU part" instead. */
		if (strncmp(line, "model name", 10) == 0 || strncmp(line, "Processor", 9) == 0) {
			char *v = strchr(line, ':');
			if (!v)
				continue;
			v += 1 + strspn(v + 1, " \t");
			v[strcspn(v, "\n")] = '\0';
			snprintf(out, len, "%s", v);
			break;
		}
	}
	fclose(f);
}

void ti_host_get(struct ti_host *h)
{
	struct utsname u;

	memset(h, 0, sizeof *h);
	if (uname(&u) == 0) {
		snprintf(h->hostname, sizeof h->hostname, "%s", u.nodename);
		snprintf(h->kernel, sizeof h->kernel, "%s %s", u.sysname, u.release);
		snprintf(h->arch, sizeof h->arch, "%s", u.machine);
	}
	cpu_model(h->cpu_model, sizeof h->cpu_model);
	h->perf_event_paranoid = ti_host_paranoid();
	h->ncpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
}
