/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* series-history.c: a history of runs built from result sets, one a run
 * (series.h).  Only each run's level per benchmark is kept (the median of
 * the samples that passed), so memory grows with runs times benchmarks,
 * not with the samples. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "series.h"
#include "stats.h"
#include "util.h"

/* The benchmark NAME of H, inserted in name order when it is new; NULL
 * when memory runs out. */
static struct ti_series_bench *bench_get(struct ti_series_history *h, const char *name)
{
	size_t lo = 0, hi = h->nb;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(h->b[mid].name, name);
		if (c == 0)
			return &h->b[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	struct ti_series_bench *nb = ti_grow(h->b, &h->capb, h->nb + 1, sizeof *h->b, 64);
	if (!nb)
		return NULL;
	h->b = nb;
	char *copy = strdup(name);
	if (!copy)
		return NULL;
	memmove(&h->b[lo + 1], &h->b[lo], (h->nb - lo) * sizeof *h->b);
	h->b[lo] = (struct ti_series_bench){ .name = copy };
	h->nb++;
	return &h->b[lo];
}

/* A digest of an identity text, never 0 (0: unknown): FNV-1a, 64 bits. */
static uint64_t digest(const char *s)
{
	uint64_t d = 0xcbf29ce484222325u;

	for (; *s; s++)
		d = (d ^ (unsigned char)*s) * 0x100000001b3u;
	return d ? d : 1;
}

static int add_point(struct ti_series_bench *b, struct ti_series_point pt)
{
	struct ti_series_point *np = ti_grow(b->p, &b->cap, b->n + 1, sizeof *b->p, 16);
	if (!np)
		return -ENOMEM;
	b->p = np;
	b->p[b->n++] = pt;
	return 0;
}

static int add_run(struct ti_series_history *h, const struct ti_ab_set *set, const char *path,
		   const char *label)
{
	struct ti_series_run *r;

	struct ti_series_run *nr = ti_grow(h->runs, &h->caprun, h->nruns + 1, sizeof *h->runs, 32);
	if (!nr)
		return -ENOMEM;
	h->runs = nr;
	r = &h->runs[h->nruns];
	memset(r, 0, sizeof *r);
	r->info = set->run;
	if (!label)
		label = set->run.order[0] ? set->run.order : path;
	if (!(r->label = strdup(label)) || !(r->path = strdup(path))) {
		free(r->label);
		return -ENOMEM;
	}
	h->nruns++;
	return 0;
}

int ti_series_add(struct ti_series_history *h, const struct ti_ab_set *set, const char *path,
		  const char *label)
{
	size_t most = 0;
	double *v;
	int rc;

	if (h->nruns >= UINT32_MAX)
		return -EINVAL;
	for (size_t i = 0; i < set->n; i++)
		most = set->b[i].n > most ? set->b[i].n : most;
	if (!(v = malloc((most ? most : 1) * sizeof *v)))
		return -ENOMEM;
	if ((rc = add_run(h, set, path, label)) < 0)
		goto out;
	for (size_t i = 0; i < set->n; i++) {
		const struct ti_ab_bench *ab = &set->b[i];
		struct ti_series_point pt = { .run = (uint32_t)(h->nruns - 1), .level = NAN };
		struct ti_series_bench *b;
		size_t k = 0;

		for (size_t j = 0; j < ab->n; j++) {
			if (!ab->s[j].failed && !isnan(ab->s[j].value))
				v[k++] = ab->s[j].value;
		}
		/* A benchmark named without a single run of the metric is not
		 * in this run. */
		if (k == 0 && ab->failures == 0 && ab->nulls == 0)
			continue;
		pt.nulls = (uint32_t)(ab->nulls > UINT32_MAX ? UINT32_MAX : ab->nulls);
		pt.n = (uint32_t)k;
		pt.failed = (uint32_t)(ab->failures > UINT32_MAX ? UINT32_MAX : ab->failures);
		if (k) {
			ti_stats_sort(v, k);
			pt.level = ti_stats_quantile_sorted(v, k, 0.5);
		}
		if (ab->hash && !ab->hash_mixed)
			pt.hash = digest(ab->hash);
		h->samples += ab->n;
		if (!(b = bench_get(h, ab->name)) || add_point(b, pt) < 0) {
			rc = -ENOMEM;
			goto out;
		}
	}
out:
	free(v);
	return rc;
}

/* The next number in S (a run of digits) into *V, saturated; the rest of S
 * after it, or NULL when there is none. */
static const char *next_number(const char *s, unsigned long long *v)
{
	while (*s && !isdigit((unsigned char)*s))
		s++;
	if (!*s)
		return NULL;
	*v = 0;
	for (; isdigit((unsigned char)*s); s++)
		*v = *v > (~0ull - 9) / 10 ? ~0ull : *v * 10 + (unsigned)(*s - '0');
	return s;
}

int ti_series_order_cmp(const char *a, const char *b)
{
	const char *pa = a, *pb = b;
	unsigned long long va, vb;

	for (;;) {
		pa = next_number(pa, &va);
		pb = next_number(pb, &vb);
		if (!pa || !pb) {
			if (pa != pb)
				return pa ? 1 : -1;	/* (1, 2) after (1) */
			break;
		}
		if (va != vb)
			return va < vb ? -1 : 1;
	}
	return strcmp(a, b);
}

/* N digits at *P as a number into *V, *P moved past them; false for fewer. */
static bool digits(const char **p, int n, long *v)
{
	*v = 0;
	for (int i = 0; i < n; i++, (*p)++) {
		if (!isdigit((unsigned char)**p))
			return false;
		*v = *v * 10 + (**p - '0');
	}
	return true;
}

/* Days from 1970-01-01 to Y-M-D of the proleptic Gregorian calendar (the
 * days-from-civil formula of H. Hinnant, "chrono-Compatible Low-Level
 * Date Algorithms"). */
static long long days_from_civil(long y, long m, long d)
{
	y -= m <= 2;
	long era = (y >= 0 ? y : y - 399) / 400;
	long yoe = y - era * 400;
	long doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return (long long)era * 146097 + doe - 719468;
}

/* Whether *P is C (then *P moves past it). */
static bool skip(const char **p, const char *c)
{
	if (!**p || !strchr(c, **p))
		return false;
	(*p)++;
	return true;
}

/* The zone at P: 'Z', nothing, or +hh[[:]mm] / -hh[[:]mm], into *OFF
 * seconds east of UTC; false for anything else. */
static bool zone(const char *p, long *off)
{
	long oh = 0, om = 0;
	int sign = *p == '+' ? 1 : *p == '-' ? -1 : 0;

	*off = 0;
	if (!sign)
		return !*p || (*p == 'Z' && !p[1]);
	p++;
	if (!digits(&p, 2, &oh) || oh > 23)
		return false;
	skip(&p, ":");
	if (*p && (!digits(&p, 2, &om) || om > 59))
		return false;
	*off = sign * (oh * 3600 + om * 60);
	return !*p;
}

int ti_series_time_key(const char *s, char *out, size_t len)
{
	long y, mo, d, h, mi, sec = 0, ns = 0, off;
	const char *p = s;

	if (!digits(&p, 4, &y) || !skip(&p, "-") || !digits(&p, 2, &mo) || !skip(&p, "-") ||
	    !digits(&p, 2, &d) || !skip(&p, "T ") || !digits(&p, 2, &h) || !skip(&p, ":") ||
	    !digits(&p, 2, &mi) || (skip(&p, ":") && !digits(&p, 2, &sec)))
		return -EINVAL;
	if (skip(&p, ".,")) {
		if (!isdigit((unsigned char)*p))
			return -EINVAL;
		for (long scale = 100000000; isdigit((unsigned char)*p); p++, scale /= 10)
			ns += scale * (*p - '0');
	}
	if (!zone(p, &off) || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 24 || mi > 59 ||
	    sec > 60)
		return -EINVAL;
	long long t = days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + sec - off;
	/* Offset so that every time since year 0 is a positive key. */
	int n = snprintf(out, len, "%020lld.%09ld", t + 62167219200LL, ns);
	return n < 0 || (size_t)n >= len ? -EINVAL : 0;
}

struct keyed {
	const char *key;
	size_t i;
};

static int cmp_keyed(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;
	int c = ti_series_order_cmp(x->key, y->key);
	return c ? c : (x->i > y->i) - (x->i < y->i);
}

static int cmp_point(const void *a, const void *b)
{
	const struct ti_series_point *x = a, *y = b;
	return (x->run > y->run) - (x->run < y->run);
}

int ti_series_sort_runs(struct ti_series_history *h, const char *const *key)
{
	struct keyed *k = malloc((h->nruns ? h->nruns : 1) * sizeof *k);
	struct ti_series_run *runs = malloc((h->nruns ? h->nruns : 1) * sizeof *runs);
	uint32_t *to = malloc((h->nruns ? h->nruns : 1) * sizeof *to);

	if (!k || !runs || !to) {
		free(k);
		free(runs);
		free(to);
		return -ENOMEM;
	}
	for (size_t i = 0; i < h->nruns; i++)
		k[i] = (struct keyed){ key[i], i };
	qsort(k, h->nruns, sizeof *k, cmp_keyed);
	for (size_t i = 0; i < h->nruns; i++) {
		runs[i] = h->runs[k[i].i];
		to[k[i].i] = (uint32_t)i;
	}
	memcpy(h->runs, runs, h->nruns * sizeof *runs);
	for (size_t i = 0; i < h->nb; i++) {
		for (size_t j = 0; j < h->b[i].n; j++)
			h->b[i].p[j].run = to[h->b[i].p[j].run];
		qsort(h->b[i].p, h->b[i].n, sizeof *h->b[i].p, cmp_point);
	}
	free(k);
	free(runs);
	free(to);
	return 0;
}

/* The last K components of PATH (trailing slashes left out), without a
 * ".json" extension, into OUT (LEN bytes); the whole path when it has
 * fewer.  Whether it is the whole path. */
static bool path_tail(const char *path, size_t k, char *out, size_t len)
{
	size_t n = strlen(path), start;

	while (n > 1 && path[n - 1] == '/')
		n--;
	start = n;
	while (k > 0 && start > 0) {
		start--;
		if (path[start] == '/' && --k == 0)
			start++;
	}
	/* "/" has no component: it stays itself. */
	if (start >= n)
		start = 0;
	snprintf(out, len, "%.*s", (int)(n - start), path + start);
	size_t m = strlen(out);
	if (m > 5 && strcmp(out + m - 5, ".json") == 0)
		out[m - 5] = '\0';
	return start == 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Whether the N labels L (sorted here) are all different. */
static bool distinct(char **l, size_t n)
{
	qsort(l, n, sizeof *l, cmp_str);
	for (size_t i = 1; i < n; i++)
		if (strcmp(l[i - 1], l[i]) == 0)
			return false;
	return true;
}

int ti_series_short_labels(struct ti_series_history *h)
{
	char **l = calloc(h->nruns ? h->nruns : 1, sizeof *l), **sorted;
	int rc = -ENOMEM;

	if (!l || !(sorted = malloc((h->nruns ? h->nruns : 1) * sizeof *sorted))) {
		free(l);
		return rc;
	}
	/* The fewest trailing components that tell every night apart, the
	 * same for all, so that labels of one history read alike. */
	for (size_t k = 1;; k++) {
		bool whole = true;
		for (size_t i = 0; i < h->nruns; i++) {
			const struct ti_series_run *r = &h->runs[i];
			size_t len = strlen(r->path) + 1;
			free(l[i]);
			if (!(l[i] = malloc(len)))
				goto out;
			if (strcmp(r->label, r->path) != 0)
				snprintf(l[i], len, "%s", r->label);	/* an order */
			else
				whole &= path_tail(r->path, k, l[i], len);
			sorted[i] = l[i];
		}
		if (distinct(sorted, h->nruns)) {
			for (size_t i = 0; i < h->nruns; i++) {
				free(h->runs[i].label);
				h->runs[i].label = l[i];
				l[i] = NULL;
			}
			break;
		}
		if (whole)
			break;	/* not even whole paths less .json: keep the paths */
	}
	rc = 0;
out:
	for (size_t i = 0; i < h->nruns; i++)
		free(l[i]);
	free(l);
	free(sorted);
	return rc;
}

void ti_series_free(struct ti_series_history *h)
{
	for (size_t i = 0; i < h->nruns; i++) {
		free(h->runs[i].label);
		free(h->runs[i].path);
	}
	for (size_t i = 0; i < h->nb; i++) {
		free(h->b[i].name);
		free(h->b[i].p);
	}
	free(h->runs);
	free(h->b);
	memset(h, 0, sizeof *h);
}
