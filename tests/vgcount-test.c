/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* vgcount-test: the cachegrind out-file parser, the cost model, the cache
 * geometry and weight parsers, the valgrind lookup and the error phrases of
 * lib/measure/vgcount.c, without running valgrind. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tap.h"
#include "vgcount.h"

static const struct {
	int line;
	const char *text;
	int rc;
	uint64_t ir;
	const char *cmd;
} parse_cases[] = {
	/* The layout cachegrind 3.19 writes with --cache-sim=no. */
	{ __LINE__, "desc: I1 cache: 32768 B, 64 B, 8-way associative\ncmd: ./a.out 1 2\n"
		    "events: Ir\nfl=/tmp/a.c\nfn=main\n3 7\n4 9\nsummary: 127050\n",
	  0, 127050, "./a.out 1 2" },
	{ __LINE__, "cmd: x\nevents: Ir\nsummary: 5", 0, 5, "x" },
	{ __LINE__, "events: Ir I1mr ILmr\nsummary: 5 6 7\n", 0, 5, "" },
	{ __LINE__, "events: Dr Ir\nsummary: 9 10\n", 0, 10, "" },
	{ __LINE__, "events: Dr Ir\nsummary: 9\n", TI_VGCOUNT_BAD_OUTPUT, 0, "" },
	{ __LINE__, "events: Ir\nsummary: 18446744073709551615\n", 0, UINT64_MAX, "" },
	{ __LINE__, "events: Ir\nsummary: 18446744073709551616\n", TI_VGCOUNT_BAD_OUTPUT, 0, "" },
	{ __LINE__, "events: Ir\nsummary: 12x\n", TI_VGCOUNT_BAD_OUTPUT, 0, "" },
	{ __LINE__, "events: Ir\nsummary: -1\n", TI_VGCOUNT_BAD_OUTPUT, 0, "" },
	{ __LINE__, "events: Ir\n3 7\n", TI_VGCOUNT_BAD_OUTPUT, 0, "" },
	{ __LINE__, "summary: 12\n", TI_VGCOUNT_BAD_OUTPUT, 0, "" },
	{ __LINE__, "events: Dr Dw\nsummary: 1 2\n", TI_VGCOUNT_BAD_OUTPUT, 0, "" },
	{ __LINE__, "events: Irx\nsummary: 1\n", TI_VGCOUNT_BAD_OUTPUT, 0, "" },
	{ __LINE__, "", TI_VGCOUNT_BAD_OUTPUT, 0, "" },
};

/* The layout cachegrind 3.19 writes with --cache-sim=yes. */
static const char cache_text[] =
	"desc: I1 cache:         32768 B, 64 B, 8-way associative\n"
	"desc: D1 cache:         49152 B, 64 B, 12-way associative\n"
	"desc: LL cache:         318767104 B, 64 B, 38-way associative\n"
	"cmd: ./hello\n"
	"events: Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw Bc Bcm Bi Bim\n"
	"fl=/tmp/hello.c\nfn=main\n3 7 1 1 2 0 0 1 0 0\n"
	"summary: 724624 1076 1061 128366 1103 971 109933 328 305 124893 3105 279 145\n";

static void cache_sim_cases(void)
{
	struct ti_vgcount_totals t;
	char cmd[64];
	int rc = ti_vgcount_parse(cache_text, &t, cmd, sizeof cmd);

	tap_ok(rc == 0 && t.ev[TI_VG_IR] == 724624 && t.ev[TI_VG_I1MR] == 1076 &&
	       t.ev[TI_VG_ILMR] == 1061 && t.ev[TI_VG_DR] == 128366 && t.ev[TI_VG_D1MR] == 1103 &&
	       t.ev[TI_VG_DLMR] == 971 && t.ev[TI_VG_DW] == 109933 && t.ev[TI_VG_D1MW] == 328 &&
	       t.ev[TI_VG_DLMW] == 305 && t.ev[TI_VG_BC] == 124893 && t.ev[TI_VG_BCM] == 3105 &&
	       t.ev[TI_VG_BI] == 279 && t.ev[TI_VG_BIM] == 145, __LINE__,
	       "cache and branch events: rc %d", rc);
	tap_ok(t.cache[TI_VG_I1].size == 32768 && t.cache[TI_VG_I1].line == 64 &&
	       t.cache[TI_VG_I1].assoc == 8 && t.cache[TI_VG_D1].size == 49152 &&
	       t.cache[TI_VG_D1].assoc == 12 && t.cache[TI_VG_LL].size == 318767104 &&
	       t.cache[TI_VG_LL].assoc == 38 && t.cache[TI_VG_LL].line == 64, __LINE__,
	       "desc lines: the geometry");
	/* As cachegrind's own summary: I1 misses, D1 misses (rd + wr), LL misses. */
	tap_ok(ti_vgcount_misses(&t, TI_VG_I1) == 1076 && ti_vgcount_misses(&t, TI_VG_D1) == 1431 &&
	       ti_vgcount_misses(&t, TI_VG_LL) == 2337, __LINE__, "misses by level");
	tap_ok(ti_vgcount_mispredicts(&t) == 3250, __LINE__, "mispredicts: Bcm + Bim");

	rc = ti_vgcount_parse("desc: I1 cache: 16384 B, 32 B, direct-mapped\n"
			      "desc: D1 cache: 16384 B, 32 B, 2-way\n"
			      "desc: L2 cache: 1 B, 1 B, 1-way associative\n"
			      "desc: LL cache: x B, 64 B, 8-way associative\n"
			      "events: Ir\nsummary: 1\n", &t, cmd, sizeof cmd);
	tap_ok(rc == 0 && t.cache[TI_VG_I1].assoc == 1 && t.cache[TI_VG_I1].line == 32 &&
	       t.cache[TI_VG_D1].size == 0 && t.cache[TI_VG_LL].size == 0, __LINE__,
	       "direct-mapped is one way; a malformed desc line is no geometry");
	rc = ti_vgcount_parse("events: Ir Bc Bcm Bi Bim\nsummary: 10 4 3 2 1\n", &t, cmd,
			      sizeof cmd);
	tap_ok(rc == 0 && t.ev[TI_VG_BC] == 4 && t.ev[TI_VG_BIM] == 1 &&
	       (t.have & (1u << TI_VG_BCM)) && !(t.have & (1u << TI_VG_D1MR)), __LINE__,
	       "branch events");
	rc = ti_vgcount_parse("events: Ir Xyz D1mr\nsummary: 10 99 3\n", &t, cmd, sizeof cmd);
	tap_ok(rc == 0 && t.ev[TI_VG_IR] == 10 && t.ev[TI_VG_D1MR] == 3, __LINE__,
	       "an unknown event is skipped");
}

static const struct {
	int line;
	const char *s;
	bool ok;
	uint64_t size, assoc, line_size;
} geometry[] = {
	{ __LINE__, "32768,8,64", true, 32768, 8, 64 },
	{ __LINE__, "65536,1,64", true, 65536, 1, 64 },
	{ __LINE__, "8388608,16,64", true, 8388608, 16, 64 },
	{ __LINE__, "128,2,64", true, 128, 2, 64 },
	{ __LINE__, "32,1,16", true, 32, 1, 16 },
	{ __LINE__, "32768,3,64", false, 0, 0, 0 },	/* 170.67 sets */
	{ __LINE__, "49152,8,64", false, 0, 0, 0 },	/* 96 sets */
	{ __LINE__, "32768,8,48", false, 0, 0, 0 },	/* line not a power of two */
	{ __LINE__, "256,1,8", false, 0, 0, 0 },		/* line below 16 */
	{ __LINE__, "64,1,64", false, 0, 0, 0 },		/* size = line */
	{ __LINE__, "64,2,64", false, 0, 0, 0 },
	{ __LINE__, "32768,0,64", false, 0, 0, 0 },
	{ __LINE__, "4294967296,8,64", false, 0, 0, 0 },	/* beyond a C int */
	{ __LINE__, "32768,8", false, 0, 0, 0 },
	{ __LINE__, "32768,8,64,1", false, 0, 0, 0 },
	{ __LINE__, "32768, 8,64", false, 0, 0, 0 },
	{ __LINE__, "32k,8,64", false, 0, 0, 0 },
	{ __LINE__, "", false, 0, 0, 0 },
};

static void geometry_cases(void)
{
	for (size_t i = 0; i < sizeof geometry / sizeof geometry[0]; i++) {
		struct ti_vgcount_cache c = { 0, 0, 0 };
		const char *why = ti_vgcount_cache_parse(geometry[i].s, &c);

		tap_ok(geometry[i].ok ? !why && c.size == geometry[i].size &&
					c.assoc == geometry[i].assoc &&
					c.line == geometry[i].line_size
				      : why && c.size == 0,
		       geometry[i].line, "geometry '%s': %s", geometry[i].s, why ? why : "ok");
	}
}

static void weight_cases(void)
{
	struct ti_vgcount_weights w = { 0, 0, 7 };

	tap_ok(!ti_vgcount_weights_parse("10,200", &w) && w.l1 == 10 && w.ll == 200 &&
	       w.mispredict == TI_VGCOUNT_WEIGHT_MISPREDICT, __LINE__,
	       "weights 10,200: the default mispredict weight, not the one before");
	tap_ok(!ti_vgcount_weights_parse("0,0,0", &w) && w.l1 == 0 && w.ll == 0 && w.mispredict == 0,
	       __LINE__, "weights 0,0,0 (est-cycles is the instruction count)");
	tap_ok(!ti_vgcount_weights_parse("4,30,15", &w) && w.l1 == 4 && w.ll == 30 &&
	       w.mispredict == 15, __LINE__, "weights 4,30,15");
	tap_ok(ti_vgcount_weights_parse("10", &w) != NULL, __LINE__, "one weight");
	tap_ok(ti_vgcount_weights_parse("1.5,2", &w) != NULL, __LINE__, "a fraction");
	tap_ok(ti_vgcount_weights_parse("-1,2", &w) != NULL, __LINE__, "a negative weight");
	tap_ok(ti_vgcount_weights_parse("1,2,3,4", &w) != NULL, __LINE__, "four weights");
	tap_ok(ti_vgcount_weights_parse("1,2,", &w) != NULL, __LINE__, "an empty third weight");
	tap_ok(ti_vgcount_weights_parse("1,2,4294967296", &w) != NULL, __LINE__,
	       "a third weight too large");
	tap_ok(ti_vgcount_weights_parse("4294967296,1", &w) != NULL, __LINE__, "too large");
}

static void cost_cases(void)
{
	struct ti_vgcount_totals t;
	struct ti_vgcount_weights w = { TI_VGCOUNT_WEIGHT_L1, TI_VGCOUNT_WEIGHT_LL,
					 TI_VGCOUNT_WEIGHT_MISPREDICT };
	uint64_t c = 0;
	int rc;

	ti_vgcount_parse(cache_text, &t, NULL, 0);
	/* 724624 + 10 x (1076 + 1431) + 200 x 2337 + 20 x (3105 + 145) */
	rc = ti_vgcount_est_cycles(&t, &w, &c);
	tap_ok(rc == 0 && c == 724624 + 25070 + 467400 + 65000, __LINE__, "est-cycles %llu",
	       (unsigned long long)c);
	w.l1 = w.ll = w.mispredict = 0;
	tap_ok(ti_vgcount_est_cycles(&t, &w, &c) == 0 && c == 724624, __LINE__,
	       "zero weights: the instructions");
	w.l1 = 1;
	w.ll = 0;
	t.ev[TI_VG_IR] = UINT64_MAX - 2507;
	tap_ok(ti_vgcount_est_cycles(&t, &w, &c) == 0 && c == UINT64_MAX, __LINE__,
	       "the largest cost that fits");
	t.ev[TI_VG_IR]++;
	tap_ok(ti_vgcount_est_cycles(&t, &w, &c) == -ERANGE, __LINE__, "one more overflows");
	t.ev[TI_VG_IR] = 1;
	t.ev[TI_VG_ILMR] = UINT64_MAX / 3;
	w.ll = 4;
	tap_ok(ti_vgcount_est_cycles(&t, &w, &c) == -ERANGE, __LINE__, "a product overflows");
}

int main(void)
{
	char cmd[64], path[256];

	for (size_t i = 0; i < sizeof parse_cases / sizeof parse_cases[0]; i++) {
		struct ti_vgcount_totals t;
		int rc = ti_vgcount_parse(parse_cases[i].text, &t, cmd, sizeof cmd);
		uint64_t ir = t.ev[TI_VG_IR];

		tap_ok(rc == parse_cases[i].rc && (rc != 0 || ir == parse_cases[i].ir) &&
		       (rc != 0 || strcmp(cmd, parse_cases[i].cmd) == 0),
		       parse_cases[i].line, "parse: rc %d ir %llu cmd '%s'", rc,
		       (unsigned long long)ir, rc == 0 ? cmd : "");
	}
	/* A long cmd line is cut to the buffer, not overflowing it. */
	{
		struct ti_vgcount_totals t;
		char small[4];
		int rc = ti_vgcount_parse("cmd: abcdefgh\nevents: Ir\nsummary: 1\n", &t, small,
					  sizeof small);
		tap_ok(rc == 0 && strcmp(small, "abc") == 0, __LINE__, "cmd truncated to '%s'",
		       small);
	}

	cache_sim_cases();
	geometry_cases();
	weight_cases();
	cost_cases();

	tap_ok(ti_vgcount_find("/nonexistent/valgrind", path, sizeof path) == TI_VGCOUNT_NOT_FOUND,
	       __LINE__, "a missing path is not found");
	tap_ok(ti_vgcount_find("/tmp", path, sizeof path) == TI_VGCOUNT_NOT_FOUND,
	       __LINE__, "a directory is not an executable");
	tap_ok(ti_vgcount_find("/bin/sh", path, sizeof path) == 0 && strcmp(path, "/bin/sh") == 0,
	       __LINE__, "a path is taken as it is");
	setenv("PATH", "/nonexistent:/bin", 1);
	tap_ok(ti_vgcount_find("sh", path, sizeof path) == 0 && strcmp(path, "/bin/sh") == 0,
	       __LINE__, "PATH is searched in order: '%s'", path);
	setenv("PATH", "/nonexistent", 1);
	tap_ok(ti_vgcount_find(NULL, path, sizeof path) == TI_VGCOUNT_NOT_FOUND, __LINE__,
	       "valgrind not in PATH");
	tap_ok(strstr(ti_vgcount_strerror(TI_VGCOUNT_NOT_FOUND), "package 'valgrind'") != NULL,
	       __LINE__, "the missing valgrind error names the package");
	/* A relative path is made absolute: the extra run executes it after
	 * --chdir. */
	{
		char cwd[PATH_MAX], dir[] = "/tmp/vgcount-test.XXXXXX", real[PATH_MAX];
		char want[PATH_MAX + 8];
		int ok = getcwd(cwd, sizeof cwd) != NULL && mkdtemp(dir) != NULL &&
			 chdir(dir) == 0 && getcwd(real, sizeof real) != NULL;
		FILE *f = ok ? fopen("vg", "w") : NULL;

		ok = ok && f && fclose(f) == 0 && chmod("vg", 0755) == 0;
		snprintf(want, sizeof want, "%s/vg", real);
		tap_ok(ok && ti_vgcount_find("./vg", path, sizeof path) == 0 &&
		       strcmp(path, want) == 0, __LINE__, "./vg is '%s'", path);
		setenv("PATH", "/nonexistent::/usr/bin", 1);
		tap_ok(ok && ti_vgcount_find("vg", path, sizeof path) == 0 &&
		       strcmp(path, want) == 0, __LINE__, "an empty PATH element: '%s'", path);
		setenv("PATH", ".", 1);
		tap_ok(ok && ti_vgcount_find("vg", path, sizeof path) == 0 &&
		       strcmp(path, want) == 0, __LINE__, "PATH=.: '%s'", path);
		tap_ok(ok && unlink("vg") == 0 && chdir(cwd) == 0 && rmdir(dir) == 0, __LINE__,
		       "back in %s", cwd);
	}
	for (int rc = TI_VGCOUNT_OK; rc >= TI_VGCOUNT_NO_MEMORY; rc--)
		tap_ok(strcmp(ti_vgcount_strerror(rc), "unknown error") != 0, __LINE__,
		       "code %d has a phrase", rc);
	return tap_done();
}
