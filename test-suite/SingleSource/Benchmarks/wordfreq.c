/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* wordfreq: string processing.  Generates N words of pseudo-random text
 * from a small syllable table, counts word frequencies in a hash table
 * keyed by the string, reverses every word, and searches for a pattern.
 * Prints distinct words, the most frequent word and the match count. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TABLE (1 << 16)

struct entry {
	char *word;
	long count;
};

static uint32_t hashstr(const char *s)
{
	uint32_t h = 2166136261u; /* FNV-1a (Fowler, Noll, Vo) */

	for (; *s != '\0'; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

int main(int argc, char **argv)
{
	static const char *syl[] = {"ka", "to", "ri", "mon", "sa", "lu", "ve", "dor", "in", "qua", "pe", "zy"};
	long n = argc > 1 ? atol(argv[1]) : 5000000;
	struct entry *tab = calloc(TABLE, sizeof *tab);
	char *text, *w, *save = NULL, rev[16];
	size_t len = 0;
	uint32_t state = 7;
	long distinct = 0, matches = 0, best = 0;
	const char *bestw = "";

	text = malloc((size_t)n * 16 + 1);
	if (tab == NULL || text == NULL) {
		fprintf(stderr, "wordfreq: out of memory\n");
		return 1;
	}
	for (long i = 0; i < n; i++) {
		int k;
		state = state * 1103515245u + 12345u;
		k = 1 + (int)((state >> 16) % 3);
		for (int j = 0; j < k; j++) {
			state = state * 1103515245u + 12345u;
			const char *s = syl[(state >> 16) % 12];
			size_t l = strlen(s);
			memcpy(text + len, s, l);
			len += l;
		}
		text[len++] = i % 13 == 12 ? '\n' : ' ';
	}
	text[len] = '\0';
	for (w = strtok_r(text, " \n", &save); w != NULL; w = strtok_r(NULL, " \n", &save)) {
		uint32_t h = hashstr(w) & (TABLE - 1);
		size_t l = strlen(w);
		while (tab[h].word != NULL && strcmp(tab[h].word, w) != 0)
			h = (h + 1) & (TABLE - 1);
		if (tab[h].word == NULL) {
			tab[h].word = w;
			distinct++;
		}
		if (++tab[h].count > best || (tab[h].count == best && strcmp(w, bestw) < 0)) {
			best = tab[h].count;
			bestw = tab[h].word;
		}
		/* Count words whose reversal contains "ak" ("ka" read backwards). */
		for (size_t i = 0; i < l; i++)
			rev[i] = w[l - 1 - i];
		rev[l] = '\0';
		matches += strstr(rev, "ak") != NULL;
	}
	printf("distinct %ld\nmost frequent %s %ld\nmatches %ld\n", distinct, bestw, best, matches);
	free(tab);
	free(text);
	return 0;
}
