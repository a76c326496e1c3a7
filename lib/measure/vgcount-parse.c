/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* vgcount-parse.c: cachegrind's out file read (its format: the
 * Cachegrind manual, "Output File Format"; what lib/measure/vgcount.c says of
 * it), the figures derived from its totals (misses per level,
 * mispredicts, the estimated cycles), and the --cache and weights option
 * values. */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vgcount.h"

static int parse_u64(const char *s, const char **end, uint64_t *v)
{
	uint64_t x = 0;

	if (*s < '0' || *s > '9')
		return -1;
	for (; *s >= '0' && *s <= '9'; s++) {
		if (x > (UINT64_MAX - (uint64_t)(*s - '0')) / 10)
			return -1;
		x = x * 10 + (uint64_t)(*s - '0');
	}
	*end = s;
	*v = x;
	return 0;
}

/* The text of line LINE (up to the newline) after PREFIX, or NULL. */
static const char *after(const char *line, const char *prefix)
{
	size_t n = strlen(prefix);
	return strncmp(line, prefix, n) == 0 ? line + n : NULL;
}

static const char *skip_spaces(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* The event names of the "events:" line, in enum ti_vgcount_event order. */
static const char *const event_names[TI_VG_NEVENTS] = {
	"Ir", "I1mr", "ILmr", "Dr", "D1mr", "DLmr", "Dw", "D1mw", "DLmw",
	"Bc", "Bcm", "Bi", "Bim",
};

static const char *const level_names[TI_VG_NLEVELS] = { "I1", "D1", "LL" };

const char *ti_vgcount_event_name(enum ti_vgcount_event e)
{
	return (unsigned)e < TI_VG_NEVENTS ? event_names[e] : "?";
}

const char *ti_vgcount_level_name(enum ti_vgcount_level l)
{
	return (unsigned)l < TI_VG_NLEVELS ? level_names[l] : "?";
}

/* A "desc:" line's cache, V after "desc:": "I1 cache:   32768 B, 64 B,
 * 8-way associative" (or "direct-mapped").  Other desc lines are left. */
static void parse_desc(const char *v, struct ti_vgcount_totals *t)
{
	struct ti_vgcount_cache c;
	const char *p;

	v = skip_spaces(v);
	for (int l = 0; l < TI_VG_NLEVELS; l++) {
		if (strncmp(v, level_names[l], 2) != 0 || !(p = after(v + 2, " cache:")))
			continue;
		p = skip_spaces(p);
		if (parse_u64(p, &p, &c.size) < 0 || !(p = after(p, " B, ")) ||
		    parse_u64(p, &p, &c.line) < 0 || !(p = after(p, " B, ")))
			return;
		if (after(p, "direct-mapped"))
			c.assoc = 1;
		else if (parse_u64(p, &p, &c.assoc) < 0 || !after(p, "-way associative"))
			return;
		t->cache[l] = c;
		return;
	}
}

int ti_vgcount_parse(const char *text, struct ti_vgcount_totals *t, char *cmd, size_t len)
{
	/* Position I of the events line is event index[I], or -1. */
	int index[64], nevents = -1;
	const char *line, *v;

	memset(t, 0, sizeof *t);
	if (len)
		cmd[0] = '\0';
	for (line = text; *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : "") {
		size_t n = strcspn(line, "\n");

		if ((v = after(line, "desc:")) != NULL) {
			parse_desc(v, t);
		} else if ((v = after(line, "cmd:")) != NULL) {
			v = skip_spaces(v);
			n -= (size_t)(v - line);
			if (len)
				snprintf(cmd, len, "%.*s", (int)(n < len ? n : len - 1), v);
		} else if ((v = after(line, "events:")) != NULL) {
			nevents = 0;
			while (v < line + n && nevents < (int)(sizeof index / sizeof index[0])) {
				size_t w;

				v = skip_spaces(v);
				w = strcspn(v, " \t\n");
				if (w == 0)
					break;
				index[nevents] = -1;
				for (int e = 0; e < TI_VG_NEVENTS; e++)
					if (strlen(event_names[e]) == w && strncmp(v, event_names[e], w) == 0)
						index[nevents] = e;
				nevents++;
				v += w;
			}
		} else if ((v = after(line, "summary:")) != NULL && nevents >= 0) {
			/* One total per event, in the events line's order. */
			for (int i = 0; i < nevents; i++) {
				uint64_t x;

				v = skip_spaces(v);
				if (parse_u64(v, &v, &x) < 0 ||
				    (*v != ' ' && *v != '\t' && *v != '\n' && *v != '\0'))
					return TI_VGCOUNT_BAD_OUTPUT;
				if (index[i] >= 0) {
					t->ev[index[i]] = x;
					t->have |= 1u << index[i];
				}
			}
			return t->have & (1u << TI_VG_IR) ? 0 : TI_VGCOUNT_BAD_OUTPUT;
		}
	}
	return TI_VGCOUNT_BAD_OUTPUT;
}

uint64_t ti_vgcount_misses(const struct ti_vgcount_totals *t, enum ti_vgcount_level l)
{
	switch (l) {
	case TI_VG_I1: return t->ev[TI_VG_I1MR];
	case TI_VG_D1: return t->ev[TI_VG_D1MR] + t->ev[TI_VG_D1MW];
	case TI_VG_LL: return t->ev[TI_VG_ILMR] + t->ev[TI_VG_DLMR] + t->ev[TI_VG_DLMW];
	case TI_VG_NLEVELS: break;
	}
	return 0;
}

uint64_t ti_vgcount_mispredicts(const struct ti_vgcount_totals *t)
{
	return t->ev[TI_VG_BCM] + t->ev[TI_VG_BIM];
}

/* *ACC += A * B, or false when that does not fit. */
static bool add_product(uint64_t *acc, uint64_t a, uint64_t b)
{
	if (a && b > UINT64_MAX / a)
		return false;
	if (*acc > UINT64_MAX - a * b)
		return false;
	*acc += a * b;
	return true;
}

/* Why this cost: cachegrind counts events, not time.  An instruction is
 * charged one cycle, each miss and each mispredicted branch its latency
 * beyond that, so that code whose instruction count is the same but whose
 * memory behaviour differs (loop order, data layout) costs differently,
 * and so does code that trades branches for instructions.  A miss in the
 * last level is also a miss in L1 (cachegrind looks at LL only after an L1
 * miss), so it costs l1 + ll.  The default weights are the Valgrind
 * manual's (vgcount.h). */
int ti_vgcount_est_cycles(const struct ti_vgcount_totals *t, const struct ti_vgcount_weights *w,
			  uint64_t *out)
{
	uint64_t c = t->ev[TI_VG_IR], l1 = 0, ll = 0, bm = 0;

	if (!add_product(&l1, 1, ti_vgcount_misses(t, TI_VG_I1)) ||
	    !add_product(&l1, 1, ti_vgcount_misses(t, TI_VG_D1)) ||
	    !add_product(&ll, 1, t->ev[TI_VG_ILMR]) || !add_product(&ll, 1, t->ev[TI_VG_DLMR]) ||
	    !add_product(&ll, 1, t->ev[TI_VG_DLMW]) ||
	    !add_product(&bm, 1, t->ev[TI_VG_BCM]) || !add_product(&bm, 1, t->ev[TI_VG_BIM]) ||
	    !add_product(&c, w->l1, l1) || !add_product(&c, w->ll, ll) ||
	    !add_product(&c, w->mispredict, bm))
		return -ERANGE;
	*out = c;
	return 0;
}

/* "N," or "N" at the end: the next number of a comma-separated list. */
static bool list_u64(const char **s, uint64_t *v, bool last)
{
	const char *end;

	if (parse_u64(*s, &end, v) < 0)
		return false;
	if (last ? *end != '\0' : *end != ',')
		return false;
	*s = end + !last;
	return true;
}

static bool power_of_two(uint64_t x)
{
	return x && (x & (x - 1)) == 0;
}

/* Cachegrind's rules for --I1/--D1/--LL (cachegrind/cg_arch.c, check_cache
 * and parse_cache_opt in Valgrind 3.19): three numbers that fit a C int,
 * a line size that is a power of two and at least 16 bytes, a size larger
 * than a line, and a set count, size / (line x ways), that is a whole
 * power of two.  Checked here so that a bad geometry fails before any run. */
const char *ti_vgcount_cache_parse(const char *s, struct ti_vgcount_cache *c)
{
	const char *p = s;
	struct ti_vgcount_cache g;

	if (!list_u64(&p, &g.size, false) || !list_u64(&p, &g.assoc, false) ||
	    !list_u64(&p, &g.line, true))
		return "expected SIZE,ASSOC,LINE (bytes, ways, bytes)";
	if (g.size > INT_MAX || g.assoc > INT_MAX || g.line > INT_MAX)
		return "a number is too large (at most 2147483647)";
	if (!power_of_two(g.line) || g.line < 16)
		return "the line size must be a power of two, at least 16";
	if (g.size <= g.line)
		return "the size must be larger than a line";
	if (g.assoc == 0 || g.size % (g.line * g.assoc) != 0 ||
	    !power_of_two(g.size / (g.line * g.assoc)))
		return "the number of sets, SIZE / (LINE x ASSOC), must be a power of two";
	*c = g;
	return NULL;
}

const char *ti_vgcount_weights_parse(const char *s, struct ti_vgcount_weights *w)
{
	const char *p = s;
	struct ti_vgcount_weights x;

	x.mispredict = TI_VGCOUNT_WEIGHT_MISPREDICT;
	if (!list_u64(&p, &x.l1, false) ||
	    !(list_u64(&p, &x.ll, true) ||
	      (list_u64(&p, &x.ll, false) && list_u64(&p, &x.mispredict, true))))
		return "expected L1,LL[,MISPREDICT] (cycles per L1 miss, per last-level miss, "
		       "per mispredicted branch)";
	/* Beyond 2^32 - 1 cycles a weight is surely a typo (an overflow of
	 * the cost is still checked). */
	if (x.l1 > UINT32_MAX || x.ll > UINT32_MAX || x.mispredict > UINT32_MAX)
		return "a weight is too large (at most 4294967295)";
	*w = x;
	return NULL;
}

/* The whole file PATH, NUL-terminated, in a malloc'd buffer, or NULL. */
