/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* tap.h: a minimal Test Anything Protocol emitter for the C unit tests.
 * Each check names the table row (__LINE__) it came from. */
#ifndef TI_TAP_H
#define TI_TAP_H

#include <stdarg.h>
#include <stdio.h>

static int tap_n, tap_failed;

/* unused: a test whose checks are compiled out (built without perf events
 * or libpfm4) includes this header only for its skip plan. */
__attribute__((format(printf, 3, 4), unused))
static void tap_ok(int ok, int line, const char *fmt, ...)
{
	va_list ap;

	printf("%s %d - ", ok ? "ok" : "not ok", ++tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf(" (line %d)\n", line);
	if (!ok)
		tap_failed++;
}

/* Print the plan at the end; the status is for running the test by hand. */
__attribute__((unused))
static int tap_done(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

/* One check that cannot run here, with the reason (a TAP "# SKIP"). */
__attribute__((format(printf, 1, 2), unused))
static void tap_skip(const char *fmt, ...)
{
	va_list ap;

	printf("ok %d # SKIP ", ++tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

#define TAP_OK(cond, ...) tap_ok(!!(cond), __LINE__, __VA_ARGS__)

#endif
