# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# The bundled benchmarks.  Each NAME is NAME.c, run with one size argument:
# NAME_SIZE by default, NAME_SIZE_small with SIZE=small (reference outputs
# NAME.reference_output and NAME.reference_output.small).
BENCH_NAMES := exprparse fft hash lcs matmul memwalk nbody qsort sieve spawn tak wordfreq

exprparse_SIZE := 20
exprparse_SIZE_small := 2
fft_SIZE := 160
fft_SIZE_small := 24
hash_SIZE := 4000000
hash_SIZE_small := 900000
lcs_SIZE := 20000
lcs_SIZE_small := 10000
matmul_SIZE := 1100
matmul_SIZE_small := 550
memwalk_SIZE := 6000000
memwalk_SIZE_small := 500000
nbody_SIZE := 5000000
nbody_SIZE_small := 1200000
qsort_SIZE := 12
qsort_SIZE_small := 1
sieve_SIZE := 25
sieve_SIZE_small := 4
spawn_SIZE := 3000000
spawn_SIZE_small := 500000
tak_SIZE := 150
tak_SIZE_small := 30
wordfreq_SIZE := 5000000
wordfreq_SIZE_small := 1200000

# Floating-point results may differ in the last digits between compilers.
fft_FP_TOLERANCE := 1e-6
nbody_FP_TOLERANCE := 1e-8
matmul_FP_TOLERANCE := 1e-9
