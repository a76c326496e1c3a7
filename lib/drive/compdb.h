/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* compdb.h: a build tree's compilation database, compile_commands.json
 * (the JSON Compilation Database of Clang's LibTooling, written by CMake
 * with CMAKE_EXPORT_COMPILE_COMMANDS and by bear): an array of objects
 * with "directory", "file" and either "arguments" (an array of strings)
 * or "command" (one string, split as sh would), and maybe "output".
 * Nothing here exits or prints: errors come back as -errno with a
 * message. */
#ifndef TI_COMPDB_H
#define TI_COMPDB_H

#include <stddef.h>

/* One translation unit's compile. */
struct ti_compdb_unit {
	char *dir;		/* the working directory of the compile */
	char *file;		/* the source, absolute (DIR/FILE when relative), its
				 * links resolved where it exists */
	char **argv;		/* the compiler and its arguments, NULL-terminated */
	size_t argc;
	int out;		/* argv's index of the object file (after -o), or -1 */
	char *program;		/* what the object belongs to: NAME of a
				 * CMakeFiles/NAME.dir/ in its path, else the
				 * object's directory relative to DIR, else "." */
	char *name;		/* PROGRAM/the source's base name: the unit's name */
};

struct ti_compdb {
	struct ti_compdb_unit *u;
	size_t n;
};

/* Read PATH into DB (free with ti_compdb_free).  Returns 0, or -errno
 * with ERR (LEN bytes) naming the file, and the entry where it is
 * wrong. */
int ti_compdb_read(const char *path, struct ti_compdb *db, char *err, size_t len);
void ti_compdb_free(struct ti_compdb *db);

/* The unit of DB compiling FILE into PROGRAM, or NULL. */
const struct ti_compdb_unit *ti_compdb_find(const struct ti_compdb *db, const char *file,
					    const char *program);

#endif
