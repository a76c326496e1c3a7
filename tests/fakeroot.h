/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* fakeroot.h: fake /proc and /sys trees for the unit tests of what timeit
 * reads there (lib/os.h's ROOT arguments). */
#ifndef TI_FAKEROOT_H
#define TI_FAKEROOT_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Write TEXT to ROOT/PATH, creating the directories; NULL TEXT removes
 * the file.  A failure bails out (TAP). */
__attribute__((unused))
static void put(const char *root, const char *path, const char *text)
{
	char full[512];
	FILE *f;

	snprintf(full, sizeof full, "%s%s", root, path);
	if (!text) {
		unlink(full);
		return;
	}
	for (char *p = full + strlen(root) + 1; (p = strchr(p, '/')) != NULL; p++) {
		*p = '\0';
		mkdir(full, 0755);
		*p = '/';
	}
	f = fopen(full, "w");
	if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
		printf("Bail out! %s: %s\n", full, strerror(errno));
		exit(99);
	}
}

#endif
