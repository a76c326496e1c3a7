/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* summary-test: the summary file and stderr report, byte for byte. */
#include "config.h"

#include <string.h>

#include "summary.h"
#include "tap.h"
#include "vgcount.h"

/* Compare the formatted text with WANT; on a difference show both as TAP
 * diagnostics, one line each. */
static void expect(int line, const char *what, struct ti_buf *b, const char *want)
{
	const char *got = b->data ? b->data : "(null)";
	int ok = strcmp(got, want) == 0;

	tap_ok(ok, line, "%s", what);
	if (!ok) {
		printf("# want: ");
		for (const char *p = want; *p; p++)
			printf(*p == '\n' ? "\\n" : "%c", *p);
		printf("\n# got:  ");
		for (const char *p = got; *p; p++)
			printf(*p == '\n' ? "\\n" : "%c", *p);
		printf("\n");
	}
	ti_buf_free(b);
}

int main(void)
{
	struct ti_record r;
	struct ti_buf b = { 0 };
	struct ti_summary plain = { .r = &r }, rss = { .r = &r, .report_maxrss = true };
	char key[80];

	memset(&r, 0, sizeof r);
	r.status = 3;
	r.real_s = 1.23456;
	r.user_s = 0.5;
	r.sys_s = 0.00004;
	r.maxrss_bytes = 4096000;

	ti_summary_format(&b, &plain);
	expect(__LINE__, "reference lines", &b,
	       "exit 3\nreal       1.2346\nuser       0.5000\nsys        0.0000\nnoise-flags 0\n");
	ti_summary_format(&b, &rss);
	expect(__LINE__, "with maxrss", &b,
	       "exit 3\nreal       1.2346\nuser       0.5000\nsys        0.0000\nmaxrss     4096000\n"
	       "noise-flags 0\n");
	ti_report_format(&b, &plain, false);
	expect(__LINE__, "report", &b, "      1.2346 real       0.5000 user       0.0000 sys\n");
	ti_report_format(&b, &rss, false);
	expect(__LINE__, "report with maxrss", &b,
	       "      1.2346 real       0.5000 user       0.0000 sys      4096000 maxrss\n");
	ti_report_format(&b, &plain, true);
	expect(__LINE__, "posix report", &b, "real       1.2346\nuser       0.5000\nsys        0.0000\n");

	/* Extra keys after the reference's lines. */
	r.ncounts = 3;
	strcpy(r.counts[0].name, "task-clock");
	r.counts[0].counted = true;
	r.counts[0].scaled = 499999999;
	r.counts[0].enabled = r.counts[0].running = 10;
	strcpy(r.counts[1].name, "cycles");
	r.counts[1].err = 2;	/* skipped: no line */
	strcpy(r.counts[2].name, "page-faults");
	r.counts[2].counted = true;
	r.counts[2].scaled = 123;
	r.counts[2].enabled = r.counts[2].running = 10;
	r.tsc_valid = true;
	r.tsc_ticks = 777;
	ti_summary_format(&b, &plain);
	expect(__LINE__, "extra keys", &b,
	       "exit 3\nreal       1.2346\nuser       0.5000\nsys        0.0000\n"
	       "task-clock 0.500000\npage-faults 123\ntsc-ticks  777\nnoise-flags 0\n");

	/* The tail: noise-flags, then the valgrind count when it succeeded;
	 * the stderr report has the count but not the flags. */
	struct ti_vgcount_result vg = { .rc = TI_VGCOUNT_OK, .instructions = 1234567890123ULL };
	struct ti_summary tail = { .r = &r, .noise_flags = 18, .vg = &vg };
	r.ncounts = 0;
	r.tsc_valid = false;
	ti_summary_format(&b, &tail);
	expect(__LINE__, "noise-flags and valgrind-instructions", &b,
	       "exit 3\nreal       1.2346\nuser       0.5000\nsys        0.0000\n"
	       "noise-flags 18\nvalgrind-instructions 1234567890123\n");
	ti_report_format(&b, &tail, false);
	expect(__LINE__, "report with the valgrind count", &b,
	       "      1.2346 real       0.5000 user       0.0000 sys\n"
	       "valgrind-instructions 1234567890123\n");
	vg.rc = TI_VGCOUNT_TIMEOUT;
	ti_summary_format(&b, &tail);
	expect(__LINE__, "no valgrind line for a failed count", &b,
	       "exit 3\nreal       1.2346\nuser       0.5000\nsys        0.0000\n"
	       "noise-flags 18\n");

	/* Keys that would start like a reserved one are prefixed; a blank,
	 * a control character or a non-ASCII byte is '_'. */
	static const struct { int line; const char *in, *out; } keys[] = {
		{ __LINE__, "cycles", "cycles" },
		{ __LINE__, "user_time", "ev-user_time" },
		{ __LINE__, "sys-foo", "ev-sys-foo" },
		{ __LINE__, "realtime", "ev-realtime" },
		{ __LINE__, "exits", "ev-exits" },
		{ __LINE__, "maxrss2", "ev-maxrss2" },
		{ __LINE__, "instructions:u", "instructions:u" },
		/* One word of printable ASCII, whatever a wrapper reports. */
		{ __LINE__, "foo bar", "foo_bar" },
		{ __LINE__, "a\tb\rc\nexit 0", "a_b_c_exit_0" },
		{ __LINE__, "r\xc3\xa9" "f", "r__f" },
		{ __LINE__, "user time", "ev-user_time" },
	};
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		ti_summary_key(keys[i].in, key, sizeof key);
		tap_ok(strcmp(key, keys[i].out) == 0, keys[i].line, "key -> %s (got %s)",
		       keys[i].out, key);
	}
	return tap_done();
}
