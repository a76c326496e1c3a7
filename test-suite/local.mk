# test-suite/: LLVM-style nightly Makefiles and bundled benchmarks (driven with make -C test-suite).
