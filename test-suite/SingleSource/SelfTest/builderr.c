/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* builderr: does not compile; reported as "fail build". */
int main(void)
{
	return this_identifier_is_not_declared;
}
