# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""How far a schedule's pairs move, from timeit-ab runs of lit.

    python3 bench/lit-pair-spread.py DIR...

For each DIR (a timeit-ab -o directory of lit runs, three rounds or
more): each test's standard deviation over the rounds of its log-ratio
ln(B/A), whose change, whatever it is, is the same in every round, so
that what varies is the pairs' noise; then the median over the tests
(and over those whose A runs for more than 0.1 s), with the quartiles,
and the median round's wall.  A schedule whose pairs move less decides
the same change in fewer rounds: the rounds a change needs go as the
spread squared, so spread squared times a round's wall compares
schedules per second of wall.
"""
import collections
import glob
import json
import math
import os
import re
import statistics
import sys


def values(d):
    v = collections.defaultdict(dict)
    for f in glob.glob(os.path.join(d, '[AB].*.json')):
        m = re.match(r'([AB])\.(\d+)(?:\.\d+)?\.json$', os.path.basename(f))
        if not m:
            continue
        for t in json.load(open(f))['tests']:
            x = t.get('metrics', {}).get('exec_time')
            if x:
                v[t['name']][(m.group(1), int(m.group(2)))] = x
    return v


def walls(d):
    span = collections.defaultdict(lambda: [math.inf, 0.0])
    for line in list(open(os.path.join(d, 'samples.tsv')))[1:]:
        r = line.rstrip('\n').split('\t')
        a = float(r[5])
        s = span[int(r[0])]
        s[0] = min(s[0], a)
        s[1] = max(s[1], a + float(r[6]))
    return [b - a for a, b in span.values()]


def main():
    print('%-24s %5s %6s %8s %8s %8s %9s %8s %10s' % (
        'run', 'tests', 'rounds', 'median', 'q1', 'q3', '>0.1 s', 'round s', 'sd^2*wall'))
    for d in sys.argv[1:]:
        sds, big = [], []
        for m in values(d).values():
            rs = sorted(r for (s, r) in m if s == 'A' and ('B', r) in m)
            if len(rs) < 3:
                continue
            sd = statistics.stdev(math.log(m[('B', r)] / m[('A', r)]) for r in rs)
            sds.append(sd)
            if statistics.median(m[('A', r)] for r in rs) > 0.1:
                big.append(sd)
        if not sds:
            continue
        sds.sort()
        w = statistics.median(walls(d))
        med = statistics.median(sds)
        print('%-24s %5d %6d %7.2f%% %7.2f%% %7.2f%% %8.2f%% %8.1f %10.2f' % (
            os.path.basename(os.path.normpath(d))[:24], len(sds), len(walls(d)), 100 * med,
            100 * sds[len(sds) // 4], 100 * sds[(3 * len(sds)) // 4],
            100 * statistics.median(big) if big else math.nan, w, 1e4 * med * med * w))
    return 0


if __name__ == '__main__':
    sys.exit(main())
