/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* suggest.c: optimal string alignment distance, the nearest name. */
#include "config.h"

#include <string.h>

#include "suggest.h"

#define LEN_MAX 63

static unsigned min3(unsigned a, unsigned b, unsigned c)
{
	unsigned m = a < b ? a : b;
	return m < c ? m : c;
}

static unsigned distance_n(const char *a, size_t la, const char *b, size_t lb)
{
	unsigned d[LEN_MAX + 1][LEN_MAX + 1];

	if (la > LEN_MAX || lb > LEN_MAX)
		return TI_SUGGEST_MAX_DIST + 1;
	for (size_t i = 0; i <= la; i++)
		d[i][0] = (unsigned)i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = (unsigned)j;
	for (size_t i = 1; i <= la; i++) {
		for (size_t j = 1; j <= lb; j++) {
			unsigned cost = a[i - 1] != b[j - 1];
			d[i][j] = min3(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < d[i][j])
				d[i][j] = d[i - 2][j - 2] + 1;
		}
	}
	return d[la][lb] > TI_SUGGEST_MAX_DIST ? TI_SUGGEST_MAX_DIST + 1 : d[la][lb];
}

unsigned ti_suggest_distance(const char *a, const char *b)
{
	return distance_n(a, strlen(a), b, strlen(b));
}

const char *ti_suggest(const char *word, const char *const *names, size_t n)
{
	const char *eq = strchr(word, '=');
	size_t lw = eq ? (size_t)(eq - word) : strlen(word);
	const char *best = NULL;
	unsigned best_d = TI_SUGGEST_MAX_DIST + 1;

	for (size_t i = 0; i < n; i++) {
		unsigned dd;

		if (!names[i])
			continue;
		dd = distance_n(word, lw, names[i], strlen(names[i]));
		if (dd > 0 && dd < best_d && dd * 3 <= lw) {
			best_d = dd;
			best = names[i];
		}
	}
	return best;
}
