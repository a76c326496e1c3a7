/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* host.c: hostname, kernel, architecture, CPU model, perf_event_paranoid. */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "host.h"
#include "os.h"

void ti_host_get(struct ti_host *h)
{
	struct utsname u;

	memset(h, 0, sizeof *h);
	if (uname(&u) == 0) {
		snprintf(h->hostname, sizeof h->hostname, "%s", u.nodename);
		snprintf(h->kernel, sizeof h->kernel, "%s %s", u.sysname, u.release);
		snprintf(h->arch, sizeof h->arch, "%s", u.machine);
	}
	ti_os_cpu_model(NULL, h->cpu_model, sizeof h->cpu_model);
	h->perf_event_paranoid = ti_os_perf_paranoid(NULL);
	h->ncpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
}
