# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""What budgeted runs decided, against a long run of the same pair.

    python3 bench/lit-budget-agree.py LONG.csv RUN.csv...

Each file is the CSV of a timeit-ab run (timeit-ab -C --format=csv);
LONG.csv is the reference, a run of many fixed rounds.  For each RUN:
how many tests it decided (improved, regressed or unchanged, identity
included) and by which verdict, how many it left undecided, the tests
it decided otherwise than the long run did (a test the long run left
undecided contradicts nothing), and of the long run's changes beyond
5 % and beyond 15 %, how many the run decided the same way.
"""
import csv
import sys

DECIDED = ('improved', 'regressed', 'unchanged')


def load(path):
    with open(path, newline='') as f:
        return {r['benchmark']: r for r in csv.DictReader(f)}


def beyond(long, limit):
    return [n for n, r in long.items()
            if r['verdict'] in ('improved', 'regressed') and abs(float(r['change'])) > limit]


def main(argv):
    if len(argv) < 3:
        sys.stderr.write(__doc__)
        return 2
    long = load(argv[1])
    wide = {limit: beyond(long, limit) for limit in (0.05, 0.15)}
    print('%-24s %7s %8s %9s %9s %9s %9s %12s %12s  %s' %
          ('run', 'tests', 'decided', 'improved', 'regressed', 'unchanged', 'undecided',
           'beyond 5 %', 'beyond 15 %', 'contradicted'))
    for path in argv[2:]:
        run = load(path)
        count = {v: sum(1 for r in run.values() if r['verdict'] == v)
                 for v in DECIDED + ('undecided',)}
        contra = ['%s (%s, long: %s)' % (n, r['verdict'], long[n]['verdict'])
                  for n, r in sorted(run.items())
                  if r['verdict'] in DECIDED and n in long and
                  long[n]['verdict'] in DECIDED and long[n]['verdict'] != r['verdict']]
        got = {limit: sum(1 for n in names if run.get(n, {}).get('verdict') == long[n]['verdict'])
               for limit, names in wide.items()}
        print('%-24s %7d %8d %9d %9d %9d %9d %12s %12s  %s' %
              (path, len(run), sum(count[v] for v in DECIDED), count['improved'],
               count['regressed'], count['unchanged'], count['undecided'],
               '%d of %d' % (got[0.05], len(wide[0.05])),
               '%d of %d' % (got[0.15], len(wide[0.15])),
               ', '.join(contra) if contra else 'none'))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
