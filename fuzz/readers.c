/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* fuzz/readers.c: libFuzzer target for timeit-compare's result readers
 * (ti_ab_read): timeit summaries, timeit --json, lit and LNT JSON, and
 * the verdict model and reports on what they read (the set against
 * itself).  The input becomes a file (in memory with memfd_create(2)
 * where the system has it, else a temporary file); its first byte picks
 * the metric asked for. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#ifdef HAVE_MEMFD_CREATE
#include <sys/mman.h>
#endif

#include "read.h"
#include "report.h"
#include "verdict.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const metrics[] = {
		"exec_time", "real", "user", "sys", "maxrss", "task-clock",
		"instructions", "compile_time", "exit", "link_time", "hash",
		"valgrind-instructions", "code_size",
	};
	struct ti_ab_set set = { 0 };
	struct ti_ab_error err;
	char path[512];
	const char *metric = metrics[size ? data[0] % (sizeof metrics / sizeof metrics[0]) : 0];
#ifdef HAVE_MEMFD_CREATE
	int fd = memfd_create("timeit-fuzz.time", MFD_CLOEXEC);

	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
#else
	const char *dir = getenv("TMPDIR");
	int fd;

	snprintf(path, sizeof path, "%s/timeit-fuzz.XXXXXX", dir && *dir ? dir : "/tmp");
	fd = mkstemp(path);
#endif
	/* An input that could not be made is no input tested: stop loudly. */
	if (fd < 0 || (size > 1 && write(fd, data + 1, size - 1) != (ssize_t)(size - 1)))
		abort();
	if (ti_ab_read(&set, path, metric, 1, &err) >= 0) {
		struct ti_ab_config c;
		struct ti_ab_result r;

		ti_ab_sort(&set);
		for (size_t i = 0; i < set.n; i++)
			if (ti_ab_find(&set, set.b[i].name) == NULL)
				abort();
		ti_ab_config_init(&c);
		c.metric = metric;
		if (ti_ab_verdict_run(&c, &set, &set, NULL, NULL, &r) == 0) {
			for (int f = TI_AB_TEXT; f <= TI_AB_UNDECIDED_LIST; f++) {
				struct ti_ab_report_opts o = { .format = f };
				struct ti_buf out = { 0 };
				ti_ab_report(&out, &r, &c, &o);
				ti_buf_free(&out);
			}
			struct ti_ab_report_opts o = { 0 };
			struct ti_buf svg = { 0 };
			ti_ab_report_svg(&svg, &r, &c, &o);
			ti_buf_free(&svg);
			ti_ab_result_free(&r);
		}
	}
	ti_ab_set_free(&set);
	close(fd);
#ifndef HAVE_MEMFD_CREATE
	unlink(path);
#endif
	return 0;
}
