/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* hang: never ends; killed by --timeout, reported as "fail timeout". */
#include <unistd.h>

int main(void)
{
	for (;;)
		pause();
}
