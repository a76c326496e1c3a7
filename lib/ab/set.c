/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* set.c: the benchmark set of a side (set.h): runs added by name through
 * a hash index kept at most half full, the set sorted, and the names of
 * two sides aligned. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "set.h"

/* FNV-1a, 64 bits (Fowler, Noll, Vo). */
uint64_t ti_ab_set_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325u;

	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3u;
	}
	/* The low bits index the tables: mix the high ones in. */
	h ^= h >> 32;
	h *= 0x9e3779b97f4a7c15u;
	return h ^ (h >> 29);
}

/* Put benchmark I of SET into its slot (the table has room). */
static void index_put(struct ti_ab_set *set, size_t i)
{
	size_t mask = set->nslot - 1, k = (size_t)ti_ab_set_hash(set->b[i].name) & mask;

	while (set->slot[k])
		k = (k + 1) & mask;
	set->slot[k] = i + 1;
}

/* Index every benchmark of SET, in a table at most half full.  On -ENOMEM
 * the set has no index and is searched in order. */
static int index_build(struct ti_ab_set *set)
{
	size_t ns = 16;

	while (ns < 2 * (set->n + 1))
		ns *= 2;
	free(set->slot);
	set->indexed = 0;
	if (!(set->slot = calloc(ns, sizeof *set->slot))) {
		set->nslot = 0;
		return -ENOMEM;
	}
	set->nslot = ns;
	for (size_t i = 0; i < set->n; i++)
		index_put(set, i);
	set->indexed = set->n;
	return 0;
}

struct ti_ab_bench *ti_ab_find(const struct ti_ab_set *set, const char *name)
{
	if (set->slot && set->indexed == set->n) {
		size_t mask = set->nslot - 1, k = (size_t)ti_ab_set_hash(name) & mask;
		for (; set->slot[k]; k = (k + 1) & mask)
			if (strcmp(set->b[set->slot[k] - 1].name, name) == 0)
				return &set->b[set->slot[k] - 1];
		return NULL;
	}
	for (size_t i = 0; i < set->n; i++)
		if (strcmp(set->b[i].name, name) == 0)
			return &set->b[i];
	return NULL;
}

static struct ti_ab_bench *bench_get(struct ti_ab_set *set, const char *name)
{
	struct ti_ab_bench *b = ti_ab_find(set, name);

	if (b)
		return b;
	if (set->n == set->cap) {
		size_t nc = set->cap ? set->cap * 2 : 16;
		struct ti_ab_bench *nb = realloc(set->b, nc * sizeof *nb);
		if (!nb)
			return NULL;
		set->b = nb;
		set->cap = nc;
	}
	b = &set->b[set->n];
	memset(b, 0, sizeof *b);
	if (!(b->name = strdup(name)))
		return NULL;
	set->n++;
	/* Keep the index: a table at most half full, rebuilt when it is not
	 * (or was not kept up, in a set filled by hand). */
	if (set->slot && set->indexed == set->n - 1 && 2 * (set->n + 1) <= set->nslot) {
		index_put(set, set->n - 1);
		set->indexed = set->n;
	} else if (index_build(set) < 0) {
		return NULL;
	}
	return b;
}

int ti_ab_set_add_null(struct ti_ab_set *set, const char *name)
{
	struct ti_ab_bench *b = bench_get(set, name);

	if (!b)
		return -ENOMEM;
	b->nulls++;
	return 0;
}

int ti_ab_set_add_run(struct ti_ab_set *set, const char *name, struct ti_ab_sample s,
		       const char *where)
{
	struct ti_ab_bench *b = bench_get(set, name);

	if (!b)
		return -ENOMEM;
	if (b->n == b->cap) {
		size_t nc = b->cap ? b->cap * 2 : 8;
		struct ti_ab_sample *ns = realloc(b->s, nc * sizeof *ns);
		if (!ns)
			return -ENOMEM;
		b->s = ns;
		b->cap = nc;
	}
	if (s.failed) {
		s.value = NAN;
		if (b->failures++ == 0 && !(b->failed_in = strdup(where)))
			return -ENOMEM;
	} else if (isnan(s.value)) {
		b->lacking++;
	} else if (s.value == 0) {
		s.value = 0;	/* -0 (a JSON "-0.0") is 0: no "-0" median */
		b->ok++;
		b->flagged += s.flags != 0;
	} else {
		b->ok++;
		b->flagged += s.flags != 0;
	}
	b->s[b->n++] = s;
	return 0;
}

int ti_ab_set_add_geometry(struct ti_ab_set *set, const char *name, const char *geometry)
{
	struct ti_ab_bench *b = bench_get(set, name);

	if (!b)
		return -ENOMEM;
	if (b->geometry) {
		b->geometry_mixed |= strcmp(b->geometry, geometry) != 0;
		return 0;
	}
	return (b->geometry = strdup(geometry)) ? 0 : -ENOMEM;
}

int ti_ab_set_add_hash(struct ti_ab_set *set, const char *name, const char *hash,
			enum ti_ab_hash_kind kind)
{
	struct ti_ab_bench *b = bench_get(set, name);

	if (!b)
		return -ENOMEM;
	/* An identity of the binary itself outranks a reported one. */
	if (b->hash && b->hash_kind > kind)
		return 0;
	if (b->hash && b->hash_kind == kind) {
		b->hash_mixed |= strcmp(b->hash, hash) != 0;
		return 0;
	}
	free(b->hash);
	if (!(b->hash = strdup(hash)))
		return -ENOMEM;
	b->hash_kind = kind;
	b->hash_mixed = false;
	return 0;
}

static int cmp_bench(const void *a, const void *b)
{
	return strcmp(((const struct ti_ab_bench *)a)->name,
		      ((const struct ti_ab_bench *)b)->name);
}

void ti_ab_sort(struct ti_ab_set *set)
{
	if (set->n > 1)
		qsort(set->b, set->n, sizeof *set->b, cmp_bench);
	/* Positions moved: without memory for a new index, search in order. */
	if (set->slot && index_build(set) < 0)
		set->indexed = 0;
}

/* A benchmark's name with the last path component it ends in, for
 * ti_ab_align. */
struct base_ref {
	const char *base;
	size_t i;
};

static int cmp_base(const void *x, const void *y)
{
	return strcmp(((const struct base_ref *)x)->base, ((const struct base_ref *)y)->base);
}

/* The benchmarks of S by their last path component, sorted. */
static struct base_ref *bases(const struct ti_ab_set *s)
{
	struct base_ref *r = malloc((s->n ? s->n : 1) * sizeof *r);

	if (!r)
		return NULL;
	for (size_t i = 0; i < s->n; i++) {
		const char *sl = strrchr(s->b[i].name, '/');
		r[i] = (struct base_ref){ sl ? sl + 1 : s->b[i].name, i };
	}
	qsort(r, s->n, sizeof *r, cmp_base);
	return r;
}

/* Rename the bare benchmarks of FROM that only one benchmark of TO ends
 * in (ti_ab_align), to that benchmark's name. */
static int align_into(struct ti_ab_set *from, const struct ti_ab_set *to,
		      const struct base_ref *tb)
{
	int renamed = 0;

	for (size_t i = 0; i < from->n; i++) {
		struct ti_ab_bench *x = &from->b[i];
		struct base_ref key = { x->name, 0 };
		if (strchr(x->name, '/') || ti_ab_find(to, x->name))
			continue;
		const struct base_ref *hit = bsearch(&key, tb, to->n, sizeof *tb, cmp_base);
		if (!hit)
			continue;
		/* bsearch finds any of equal keys: the only one, or none. */
		if ((hit > tb && strcmp(hit[-1].base, x->name) == 0) ||
		    (hit + 1 < tb + to->n && strcmp(hit[1].base, x->name) == 0))
			continue;
		const char *full = to->b[hit->i].name;
		if (ti_ab_find(from, full))
			continue;	/* on both sides already: not the same */
		char *nn = strdup(full);
		if (!nn)
			return -ENOMEM;
		free(x->name);
		x->name = nn;
		renamed++;
	}
	return renamed;
}

/* Some bare name of FROM is not in TO. */
static bool bare_missing(const struct ti_ab_set *from, const struct ti_ab_set *to)
{
	for (size_t i = 0; i < from->n; i++)
		if (!strchr(from->b[i].name, '/') && !ti_ab_find(to, from->b[i].name))
			return true;
	return false;
}

int ti_ab_align(struct ti_ab_set *a, struct ti_ab_set *b)
{
	if (!bare_missing(a, b) && !bare_missing(b, a))
		return 0;	/* the usual case: nothing to align */

	struct base_ref *ba = bases(a), *bb = bases(b);
	int ra = -ENOMEM, rb = -ENOMEM;

	/* A's bare names from B's paths, then B's from A's: a name renamed on
	 * A is a path, which B's bare names may take in turn. */
	if (ba && bb) {
		ra = align_into(a, b, bb);
		if (ra >= 0) {
			ti_ab_sort(a);	/* names changed: a new index */
			free(ba);
			ba = bases(a);
			rb = ba ? align_into(b, a, ba) : -ENOMEM;
		}
	}
	free(ba);
	free(bb);
	/* Names changed: sorting rebuilds the indexes. */
	ti_ab_sort(a);
	ti_ab_sort(b);
	if (ra < 0 || rb < 0)
		return -ENOMEM;
	return ra + rb;
}

void ti_ab_set_free(struct ti_ab_set *set)
{
	for (size_t i = 0; i < set->n; i++) {
		free(set->b[i].name);
		free(set->b[i].s);
		free(set->b[i].failed_in);
		free(set->b[i].hash);
		free(set->b[i].geometry);
	}
	free(set->b);
	free(set->slot);
	memset(set, 0, sizeof *set);
}
