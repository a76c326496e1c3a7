/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* compdb.c: a build tree's compile_commands.json (compdb.h).  The format
 * is Clang's JSON Compilation Database (clang.llvm.org/docs/
 * JSONCompilationDatabase.html): "arguments" wins over "command", which
 * is split by the shell's rules; a relative "file" is relative to
 * "directory". */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compdb.h"
#include "jsonread.h"
#include "read.h"
#include "util.h"

static int fail(char *err, size_t len, int rc, const char *f, ...)
	__attribute__((format(printf, 4, 5)));

static int fail(char *err, size_t len, int rc, const char *f, ...)
{
	va_list ap;

	va_start(ap, f);
	vsnprintf(err, len, f, ap);
	va_end(ap);
	return rc;
}

static char *join(const char *a, const char *b)
{
	size_t n = strlen(a) + strlen(b) + 2;
	char *s = malloc(n);

	if (s)
		snprintf(s, n, "%s/%s", a, b);
	return s;
}

/* The program an object OUT (relative to DIR or absolute) belongs to:
 * NAME of the last CMakeFiles/NAME.dir/ in it, else its directory with
 * '/' as '_', else ".". */
static char *program_of(const char *out)
{
	const char *best = NULL, *end = NULL;

	for (const char *p = out; (p = strstr(p, "CMakeFiles/")) != NULL; p++) {
		const char *t = p + strlen("CMakeFiles/"), *slash = strchr(t, '/');
		if ((p == out || p[-1] == '/') && slash && slash - t > 4 &&
		    strncmp(slash - 4, ".dir", 4) == 0) {
			best = t;
			end = slash - 4;
		}
	}
	if (best)
		return strndup(best, (size_t)(end - best));
	const char *slash = strrchr(out, '/');
	if (!slash || slash == out)
		return strdup(".");
	char *d = strndup(out, (size_t)(slash - out));
	for (char *p = d; p && *p; p++)
		if (*p == '/')
			*p = '_';
	return d;
}

/* The argv of entry E: its "arguments", or its "command" split. */
static int entry_argv(const struct ti_jsonread_value *e, struct ti_compdb_unit *u, char *err,
		      size_t len, const char *path)
{
	const struct ti_jsonread_value *a = ti_jsonread_get(e, "arguments");
	const struct ti_jsonread_value *c = ti_jsonread_get(e, "command");

	if (a && a->type == TI_JSONREAD_ARRAY && a->n > 0) {
		if (!(u->argv = calloc(a->n + 1, sizeof *u->argv)))
			return -ENOMEM;
		for (size_t i = 0; i < a->n; i++) {
			if (a->items[i].type != TI_JSONREAD_STRING)
				return fail(err, len, -EINVAL, "%s:%d: an argument that is not a string",
					    path, a->items[i].line);
			if (!(u->argv[i] = strdup(a->items[i].str)))
				return -ENOMEM;
			u->argc = i + 1;
		}
		return 0;
	}
	if (!c || c->type != TI_JSONREAD_STRING)
		return fail(err, len, -EINVAL, "%s:%d: an entry without \"arguments\" or \"command\"",
			    path, e->line);
	char *t = strdup(c->str), *words;
	int n = t ? ti_split_words(t, NULL) : -2;
	free(t);
	if (n == -2)
		return -ENOMEM;
	if (n <= 0)
		return fail(err, len, -EINVAL, "%s:%d: \"command\" %s", path, c->line,
			    n < 0 ? "has a quote that is not closed" : "is empty");
	/* Split in a scratch copy, each word then copied on its own. */
	if (!(words = strdup(c->str)) || !(u->argv = calloc((size_t)n + 2, sizeof *u->argv))) {
		free(words);
		return -ENOMEM;
	}
	ti_split_words(words, u->argv);
	for (int i = 0; i < n; i++)
		if (!(u->argv[i] = strdup(u->argv[i]))) {
			free(words);
			return -ENOMEM;
		}
	free(words);
	u->argc = (size_t)n;
	return 0;
}

/* Whether WORD, a launcher's option, takes the next word as its argument.
 * LLVM's timeit: -p/--posix, --append-exitstatus and --report-maxrss take
 * none, every other option one (timeit(1) OPTIONS, the same as the
 * test-suite's tools/timeit.c). */
static bool timeit_takes_arg(const char *word)
{
	return strcmp(word, "-p") != 0 && strcmp(word, "--posix") != 0 &&
	       strcmp(word, "--append-exitstatus") != 0 && strcmp(word, "--report-maxrss") != 0 &&
	       strchr(word, '=') == NULL;
}

/* The words of U's argv a launcher takes before the compiler: CMake's
 * <LANG>_COMPILER_LAUNCHER and RULE_LAUNCH_COMPILE put them in the
 * command (the LLVM test-suite's "tools/timeit --summary F.o.time";
 * ccache, sccache).  Left in, the launcher would be timed and taken
 * for the compiler, and would write its summary into the tree; a cache
 * would answer instead of the compiler.  A launcher's --chdir moves the
 * compile's directory.  Returns the count, or -ENOMEM. */
static int launcher_words(struct ti_compdb_unit *u)
{
	size_t i = 0;

	for (;;) {
		if (i >= u->argc)
			return 0;	/* a launcher alone: leave the command whole */
		const char *base = strrchr(u->argv[i], '/');
		base = base ? base + 1 : u->argv[i];
		if (strcmp(base, "ccache") == 0 || strcmp(base, "sccache") == 0) {
			i++;
			continue;
		}
		if (strcmp(base, "timeit") != 0 && strcmp(base, "timeit-target") != 0 &&
		    strcmp(base, "timeit.sh") != 0)
			return (int)i;
		for (i++; i < u->argc && u->argv[i][0] == '-'; i++) {
			const char *w = u->argv[i];
			if (strcmp(w, "--") == 0) {
				i++;
				break;
			}
			if (!timeit_takes_arg(w) || i + 1 >= u->argc)
				continue;
			if (strcmp(w, "-c") == 0 || strcmp(w, "--chdir") == 0) {
				const char *d = u->argv[i + 1];
				char *nd = d[0] == '/' ? strdup(d) : join(u->dir, d);
				if (!nd)
					return -ENOMEM;
				free(u->dir);
				u->dir = nd;
			}
			i++;
		}
	}
}

/* Drop U's launcher words (launcher_words). */
static int strip_launcher(struct ti_compdb_unit *u)
{
	int n = launcher_words(u);

	if (n <= 0)
		return n;
	for (int k = 0; k < n; k++)
		free(u->argv[k]);
	/* The NULL that ends argv moves with the rest. */
	memmove(u->argv, u->argv + n, (u->argc - (size_t)n + 1) * sizeof *u->argv);
	u->argc -= (size_t)n;
	return 0;
}

static int read_entry(const struct ti_jsonread_value *e, struct ti_compdb_unit *u, char *err,
		      size_t len, const char *path)
{
	const struct ti_jsonread_value *dir = ti_jsonread_get(e, "directory");
	const struct ti_jsonread_value *file = ti_jsonread_get(e, "file");
	const struct ti_jsonread_value *out = ti_jsonread_get(e, "output");
	int rc;

	u->out = -1;
	if (e->type != TI_JSONREAD_OBJECT)
		return fail(err, len, -EINVAL, "%s:%d: an entry that is not an object", path, e->line);
	if (!dir || dir->type != TI_JSONREAD_STRING || !file || file->type != TI_JSONREAD_STRING)
		return fail(err, len, -EINVAL, "%s:%d: an entry without \"directory\" and \"file\"",
			    path, e->line);
	if ((rc = entry_argv(e, u, err, len, path)) < 0)
		return rc;
	if (!(u->dir = strdup(dir->str)))
		return -ENOMEM;
	if ((rc = strip_launcher(u)) < 0)
		return rc;
	for (size_t i = 0; i + 1 < u->argc; i++)
		if (strcmp(u->argv[i], "-o") == 0)
			u->out = (int)i + 1;
	const char *obj = out && out->type == TI_JSONREAD_STRING ? out->str :
			  u->out >= 0 ? u->argv[u->out] : "";
	if (!(u->file = file->str[0] == '/' ? strdup(file->str) : join(dir->str, file->str)) ||
	    !(u->program = program_of(obj)))
		return -ENOMEM;
	/* Two trees name one source alike once links and dots are resolved. */
	char *real = realpath(u->file, NULL);
	if (real) {
		free(u->file);
		u->file = real;
	}
	const char *base = strrchr(u->file, '/');
	return (u->name = join(u->program, base ? base + 1 : u->file)) ? 0 : -ENOMEM;
}

/* Two units of one name (a program's sources of one base name in two
 * directories): each named by its whole source path instead. */
static int unique_names(struct ti_compdb *db)
{
	for (size_t i = 0; i < db->n; i++) {
		bool twice = false;
		for (size_t j = 0; j < db->n; j++)
			twice |= j != i && strcmp(db->u[i].name, db->u[j].name) == 0;
		if (!twice)
			continue;
		char *n = join(db->u[i].program, db->u[i].file + (db->u[i].file[0] == '/'));
		if (!n)
			return -ENOMEM;
		free(db->u[i].name);
		db->u[i].name = n;
	}
	return 0;
}

int ti_compdb_read(const char *path, struct ti_compdb *db, char *err, size_t len)
{
	struct ti_ab_error e;
	struct ti_jsonread_value top;
	struct ti_jsonread_error je;
	char *data = NULL;
	size_t n = 0;
	int rc;

	memset(db, 0, sizeof *db);
	if ((rc = ti_ab_read_file(path, &data, &n, &e)) < 0)
		return rc == -ENOMEM ? fail(err, len, rc, "%s", strerror(ENOMEM))
				     : fail(err, len, rc, "%s: %s", path, e.what);
	rc = ti_jsonread_parse(data, n, &top, &je);
	free(data);
	if (rc == -EINVAL)
		return fail(err, len, rc, "%s:%d: column %d: %s", path, je.line, je.column, je.what);
	if (rc < 0)
		return fail(err, len, rc, "%s", strerror(-rc));
	if (top.type != TI_JSONREAD_ARRAY)
		rc = fail(err, len, -EINVAL, "%s: %s, not an array of compile commands", path,
			  ti_jsonread_a_type(top.type));
	else if (top.n == 0)
		rc = fail(err, len, -ENOENT, "%s: no compile command in it", path);
	else if (!(db->u = calloc(top.n, sizeof *db->u)))
		rc = -ENOMEM;
	for (size_t i = 0; rc == 0 && i < top.n; i++, db->n++)
		rc = read_entry(&top.items[i], &db->u[i], err, len, path);
	if (rc == 0)
		rc = unique_names(db);
	if (rc == -ENOMEM)
		fail(err, len, rc, "%s", strerror(ENOMEM));
	ti_jsonread_free(&top);
	if (rc < 0)
		ti_compdb_free(db);
	return rc;
}

void ti_compdb_free(struct ti_compdb *db)
{
	for (size_t i = 0; db->u && i < db->n; i++) {
		struct ti_compdb_unit *u = &db->u[i];
		for (size_t k = 0; u->argv && k < u->argc; k++)
			free(u->argv[k]);
		free(u->argv);
		free(u->dir);
		free(u->file);
		free(u->program);
		free(u->name);
	}
	free(db->u);
	memset(db, 0, sizeof *db);
}

const struct ti_compdb_unit *ti_compdb_find(const struct ti_compdb *db, const char *file,
					    const char *program)
{
	for (size_t i = 0; i < db->n; i++)
		if (strcmp(db->u[i].file, file) == 0 && strcmp(db->u[i].program, program) == 0)
			return &db->u[i];
	return NULL;
}
