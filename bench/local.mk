# bench/: scripts that measure timeit itself and print ratios (not run by make check).
