/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* fuzz/readers.c: libFuzzer target for timeit-compare's result readers
 * (ti_ab_read): timeit summaries, timeit --json, lit and LNT JSON.
 * The input becomes a file (in memory, memfd_create(2)); its first byte
 * picks the metric asked for. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const metrics[] = {
		"exec_time", "real", "user", "sys", "maxrss", "task-clock",
		"instructions", "compile_time", "exit",
	};
	struct ti_ab_set set = { 0 };
	struct ti_ab_error err;
	char path[64];
	const char *metric = metrics[size ? data[0] % (sizeof metrics / sizeof metrics[0]) : 0];
	int fd = memfd_create("timeit-fuzz.time", MFD_CLOEXEC);

	if (fd < 0)
		return 0;
	if (size > 1 && write(fd, data + 1, size - 1) != (ssize_t)(size - 1)) {
		close(fd);
		return 0;
	}
	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	if (ti_ab_read(&set, path, metric, &err) >= 0) {
		ti_ab_sort(&set);
		for (size_t i = 0; i < set.n; i++)
			if (ti_ab_find(&set, set.b[i].name) == NULL)
				abort();
	}
	ti_ab_set_free(&set);
	close(fd);
	return 0;
}
