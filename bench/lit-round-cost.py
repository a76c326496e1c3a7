# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Where the wall of timeit-ab's lit rounds goes, from a run's directory.

    python3 bench/lit-round-cost.py DIR...

For each round of each DIR (a timeit-ab -o directory of lit runs): the
round's wall (first start to last end in samples.tsv); the measured
runs, the tests' exec_time from lit's -o files (a duet's pair counts its
longer run, a sequential round both sides); what lies outside them, and
of that, per side, lit's start and discovery (a job's wall less lit's
own elapsed), the tests' set-up (lit's elapsed for a test less its
exec_time: timeit, the output check, the hash) and, in a duet, the
barrier's waits (each pair's longer job less the shorter).  Then the
median of the rounds' figures.
"""
import collections
import glob
import json
import os
import statistics
import sys


def lit_file(path):
    j = json.load(open(path))
    return j.get('elapsed', 0.0), {t['name']: (t.get('elapsed', 0.0),
                                               t.get('metrics', {}).get('exec_time'))
                                   for t in j['tests']}


def rounds(d):
    rows = [line.rstrip('\n').split('\t') for line in open(os.path.join(d, 'samples.tsv'))][1:]
    by = collections.defaultdict(list)
    for r in rows:
        by[int(r[0])].append(r)
    for rnd, rs in sorted(by.items()):
        sched = rs[0][3]
        t0 = min(float(r[5]) for r in rs)
        wall = max(float(r[5]) + float(r[6]) for r in rs) - t0
        job = collections.Counter()
        lit_el = collections.Counter()
        t_el = collections.Counter()
        exe = collections.Counter()
        waits = 0.0
        if sched == 'duet':
            res = {}
            for s in 'AB':
                for f in glob.glob(os.path.join(d, '%s.%d.*.json' % (s, rnd))):
                    le, tests = lit_file(f)
                    for n, (el, x) in tests.items():
                        res[(s, n)] = (le, el, x or 0.0)
            pairs = collections.defaultdict(dict)
            for r in rs:
                pairs[r[2]][r[1]] = float(r[6])
            measured = 0.0
            for n, p in pairs.items():
                measured += max([res[(s, n)][2] for s in p if (s, n) in res] or [0.0])
                waits += max(p.values()) - min(p.values())
                for s in p:
                    if (s, n) in res:
                        le, el, x = res[(s, n)]
                        job[s] += p[s]
                        lit_el[s] += le
                        t_el[s] += el
                        exe[s] += x
        else:
            for s in 'AB':
                le, tests = lit_file(os.path.join(d, '%s.%d.json' % (s, rnd)))
                lit_el[s] = le
                for el, x in tests.values():
                    t_el[s] += el
                    exe[s] += x or 0.0
            for r in rs:
                job[r[1]] += float(r[6])
            measured = exe['A'] + exe['B']
        yield {
            'round': rnd, 'schedule': sched, 'wall': wall, 'measured': measured,
            'outside': wall - measured,
            'lit start': (job['A'] - lit_el['A'] + job['B'] - lit_el['B']) / 2,
            'set-up': (t_el['A'] - exe['A'] + t_el['B'] - exe['B']) / 2,
            'waits': waits,
        }


def main():
    keys = ['wall', 'measured', 'outside', 'lit start', 'set-up', 'waits']
    print('%-24s %-10s %6s %8s %8s %8s %9s %7s %6s' % (
        'run', 'schedule', 'rounds', 'wall s', 'runs s', 'outside', 'lit start', 'set-up', 'waits'))
    for d in sys.argv[1:]:
        rs = list(rounds(d))
        if not rs:
            continue
        med = {k: statistics.median(r[k] for r in rs) for k in keys}
        print('%-24s %-10s %6d %8.2f %8.2f %5.2f %2.0f%% %9.2f %7.2f %6.2f' % (
            os.path.basename(os.path.normpath(d))[:24], rs[0]['schedule'], len(rs), med['wall'],
            med['measured'], med['outside'], 100 * med['outside'] / med['wall'],
            med['lit start'], med['set-up'], med['waits']))
    return 0


if __name__ == '__main__':
    sys.exit(main())
