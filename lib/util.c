/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* util.c: strict number parsing, a close-on-exec pipe. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"

int ti_parse_u64(const char *s, uint64_t *out)
{
	uint64_t v = 0;

	if (!s || !*s)
		return -EINVAL;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -EINVAL;
		unsigned d = (unsigned)(*s - '0');
		if (v > (UINT64_MAX - d) / 10)
			return -ERANGE;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

int ti_pipe_cloexec(int fd[2])
{
#ifdef HAVE_PIPE2
	return pipe2(fd, O_CLOEXEC);
#else
	if (pipe(fd) < 0)
		return -1;
	if (fcntl(fd[0], F_SETFD, FD_CLOEXEC) < 0 || fcntl(fd[1], F_SETFD, FD_CLOEXEC) < 0) {
		int e = errno;
		close(fd[0]);
		close(fd[1]);
		errno = e;
		return -1;
	}
	return 0;
#endif
}

int ti_anon_tmpfile(const char *name)
{
	const char *dir = getenv("TMPDIR");
	char path[4096];
	int fd;

	if (!dir || !*dir)
		dir = "/tmp";
	snprintf(path, sizeof path, "%s/%s.XXXXXX", dir, name);
	if ((fd = mkstemp(path)) < 0)
		return -errno;
	unlink(path);
	if (fcntl(fd, F_SETFD, FD_CLOEXEC) < 0) {
		int e = errno;
		close(fd);
		return -e;
	}
	return fd;
}

void *ti_grow(void *p, size_t *cap, size_t n, size_t size, size_t first)
{
	size_t nc = *cap ? *cap : first;

	if (n <= *cap)
		return p;
	while (nc < n)
		nc *= 2;
	void *np = realloc(p, nc * size);
	if (np)
		*cap = nc;
	return np;
}

/* As sh splits, without expansions (util.h). */
int ti_split_words(char *s, char **words)
{
	char *out = s;
	int n = 0;

	for (;;) {
		while (*s == ' ' || *s == '\t' || *s == '\n')
			s++;
		if (!*s)
			return n;
		char *word = out;
		while (*s && *s != ' ' && *s != '\t' && *s != '\n') {
			if (*s == '\'') {
				for (s++; *s && *s != '\''; )
					*out++ = *s++;
				if (!*s++)
					return -1;
			} else if (*s == '"') {
				for (s++; *s && *s != '"'; ) {
					if (*s == '\\' && s[1] && strchr("\\\"$`\n", s[1]))
						s++;
					*out++ = *s++;
				}
				if (!*s++)
					return -1;
			} else if (*s == '\\' && s[1]) {
				s++;
				*out++ = *s++;
			} else {
				*out++ = *s++;
			}
		}
		/* The separator (or the end) is read past before the NUL is
		 * written: OUT never overtakes S. */
		bool end = !*s;

		if (!end)
			s++;
		*out++ = '\0';
		if (words)
			words[n] = word;
		n++;
		if (end)
			return n;
	}
}
