# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# fuzz/: libFuzzer targets (fuzz/run.sh builds them with clang and runs
# them; not part of the build).  make check replays each target's corpus,
# seeds and found crashes, through the same code built normally.
check_PROGRAMS += fuzz/events-replay fuzz/options-replay fuzz/jsonread-replay \
	fuzz/readers-replay fuzz/perfcsv-replay
fuzz_events_replay_SOURCES = fuzz/events.c fuzz/replay.c
fuzz_options_replay_SOURCES = fuzz/options.c fuzz/replay.c timeit/options.c
fuzz_options_replay_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/timeit
fuzz_jsonread_replay_SOURCES = fuzz/jsonread.c fuzz/replay.c
fuzz_readers_replay_SOURCES = fuzz/readers.c fuzz/replay.c
fuzz_readers_replay_LDADD = $(AB_LIBS)
fuzz_perfcsv_replay_SOURCES = fuzz/perfcsv.c fuzz/replay.c
TESTS += fuzz/replay.sh
EXTRA_DIST += fuzz/replay.sh fuzz/run.sh fuzz/corpus
