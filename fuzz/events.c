/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* fuzz/events.c: libFuzzer target for the event-list parser
 * (ti_events_parse, what -e/--events hands to lib/measure/events.c).  The input is
 * the list; its first byte also picks whether a buffer for the offending
 * token is passed, and how small it is. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "events.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ti_event_list list;
	char bad[TI_EVENT_NAME_MAX * 2];
	size_t badlen = size ? data[0] % (sizeof bad + 1) : sizeof bad;
	char *s = malloc(size + 1);

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	int rc = ti_events_parse(s, &list, badlen ? bad : NULL, badlen);
	if (rc == 0 && list.n > TI_MAX_EVENTS)
		abort();
	if (rc < 0 && badlen && strnlen(bad, badlen) == badlen)
		abort();	/* the offending token must be NUL-terminated */
	(void)ti_events_strerror(rc);
	free(s);
	return 0;
}
