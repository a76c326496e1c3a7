# perfwrap/: timeit-perf, the perf-stat-based wrapper with the same contract.
