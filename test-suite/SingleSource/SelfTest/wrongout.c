/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* wrongout: exits 0 with an answer its reference output disagrees with;
 * reported as "fail output". */
#include <stdio.h>

int main(void)
{
	printf("answer 41\n");
	return 0;
}
