/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* os-linux.h: what the Linux files of the platform seam share. */
#ifndef TI_OS_LINUX_H
#define TI_OS_LINUX_H

#include <stdbool.h>
#include <stddef.h>

/* The first line of ROOT/PATH (ROOT NULL: "") without its newline into
 * OUT (LEN bytes); false when the file cannot be read. */
bool ti_os_linux_line(const char *root, const char *path, char *out, size_t len);

#endif
