/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* fpcmp: compare two output files, numbers with a tolerance, text exactly.
 *
 * usage: fpcmp [-r RELTOL] [-a ABSTOL] FILE1 FILE2
 *
 * The semantics follow LLVM test-suite's fpcmp: wherever both files hold a
 * number at the same place, the two values are equal when their difference
 * is within ABSTOL or within RELTOL times the larger magnitude; everything
 * else must match byte for byte.  With both tolerances 0 the files must be
 * identical, as in LLVM's fpcmp ("Files differ without tolerance allowance"):
 * "1.50" does not match "1.5" then.  Exit status: 0 the files match,
 * 1 they differ (the first difference is described on stderr), 2 usage or
 * I/O error. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *prog = "fpcmp";

static char *slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0, got;

	if (fp == NULL) {
		fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(errno));
		return NULL;
	}
	do {
		if (cap - n < 4096) {
			char *nb;
			cap = cap ? cap * 2 : 65536;
			nb = realloc(buf, cap + 1);
			if (nb == NULL) {
				fprintf(stderr, "%s: %s: out of memory\n", prog, path);
				free(buf);
				fclose(fp);
				return NULL;
			}
			buf = nb;
		}
		got = fread(buf + n, 1, cap - n, fp);
		n += got;
	} while (got > 0);
	if (ferror(fp)) {
		fprintf(stderr, "%s: %s: read error\n", prog, path);
		free(buf);
		fclose(fp);
		return NULL;
	}
	fclose(fp);
	buf[n] = '\0';
	*len = n;
	return buf;
}

/* A number starts with a digit, or a sign or point followed by one. */
static int number_at(const char *s, const char *end)
{
	if (s < end && (*s == '+' || *s == '-'))
		s++;
	if (s < end && *s == '.')
		s++;
	return s < end && *s >= '0' && *s <= '9';
}

static int parse_tol(const char *arg, const char *opt, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(arg, &end);
	if (errno != 0 || end == arg || *end != '\0' || !(*out >= 0)) {
		fprintf(stderr, "%s: %s: invalid tolerance '%s'\n", prog, opt, arg);
		return -1;
	}
	return 0;
}

static long line_of(const char *buf, const char *at)
{
	long line = 1;

	for (; buf < at; buf++)
		line += *buf == '\n';
	return line;
}

/* The length of the line at s, without its newline, at most 72. */
static int line_len(const char *s, const char *end)
{
	int n = 0;

	while (s + n < end && s[n] != '\n' && n < 72)
		n++;
	return n;
}

/* Compare A (LA bytes, from NAME_A) with B as LLVM's fpcmp does: 0 when
 * they match within the tolerances, 1 (with the difference on stderr)
 * when not. */
static int compare(const char *a, size_t la, const char *name_a, const char *b, size_t lb,
		   const char *name_b, double rel, double abstol)
{
	const char *pa, *pb, *ea, *eb;

	pa = a, ea = a + la;
	pb = b, eb = b + lb;
	/* No tolerance: LLVM's fpcmp compares the bytes only (llvm-test-suite
	 * tools/fpcmp.c, "Files differ without tolerance allowance"), so that
	 * 1.0 and 1.00, 1e3 and 1000, -0 and 0 are differences. */
	if (rel == 0 && abstol == 0) {
		while (pa < ea && pb < eb && *pa == *pb)
			pa++, pb++;
		if (pa < ea || pb < eb) {
			const char *sa = pa, *sb = pb;

			/* Show both lines, from their start, up to 72 bytes. */
			while (sa > a && sa[-1] != '\n')
				sa--;
			while (sb > b && sb[-1] != '\n')
				sb--;
			fprintf(stderr,
				"%s: %s:%ld and %s:%ld: files differ without tolerance allowance: "
				"'%.*s' and '%.*s'\n",
				prog, name_a, line_of(a, pa), name_b,
				line_of(b, pb), line_len(sa, ea), sa, line_len(sb, eb), sb);
			return 1;
		}
		return 0;
	}
	while (pa < ea && pb < eb) {
		if (number_at(pa, ea) && number_at(pb, eb)) {
			char *na, *nb;
			double va = strtod(pa, &na), vb = strtod(pb, &nb);
			double diff = fabs(va - vb);
			double mag = fmax(fabs(va), fabs(vb));

			/* Equal values (also both infinite) always match. */
			if (!(va == vb || diff <= abstol || diff <= rel * mag)) {
				fprintf(stderr,
					"%s: %s:%ld and %s:%ld: %.*s and %.*s differ by %g "
					"(relative %g; tolerance: absolute %g, relative %g)\n",
					prog, name_a, line_of(a, pa), name_b,
					line_of(b, pb), (int)(na - pa), pa, (int)(nb - pb), pb, diff,
					mag > 0 ? diff / mag : 0.0, abstol, rel);
				return 1;
			}
			pa = na;
			pb = nb;
			continue;
		}
		if (*pa != *pb)
			break;
		pa++;
		pb++;
	}
	if (pa < ea || pb < eb) {
		fprintf(stderr, "%s: %s:%ld and %s:%ld: the text differs\n", prog, name_a,
			line_of(a, pa), name_b, line_of(b, pb));
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	double rel = 0, abstol = 0;
	char *a, *b;
	size_t la, lb;
	int c, rc;

	while ((c = getopt(argc, argv, "r:a:h")) != -1) {
		switch (c) {
		case 'r':
			if (parse_tol(optarg, "-r", &rel) != 0)
				return 2;
			break;
		case 'a':
			if (parse_tol(optarg, "-a", &abstol) != 0)
				return 2;
			break;
		default:
			fprintf(stderr, "usage: %s [-r RELTOL] [-a ABSTOL] FILE1 FILE2\n", prog);
			return c == 'h' ? 0 : 2;
		}
	}
	if (argc - optind != 2) {
		fprintf(stderr, "usage: %s [-r RELTOL] [-a ABSTOL] FILE1 FILE2\n", prog);
		return 2;
	}
	a = slurp(argv[optind], &la);
	if (a == NULL)
		return 2;
	b = slurp(argv[optind + 1], &lb);
	if (b == NULL) {
		free(a);
		return 2;
	}
	rc = compare(a, la, argv[optind], b, lb, argv[optind + 1], rel, abstol);
	free(a);
	free(b);
	return rc;
}
