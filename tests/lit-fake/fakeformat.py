# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# The test format of tests/lit-fake: a NAME.test file holds "KEY: VALUE"
# lines, and its run reports what they say, without running a program:
#   time: T          exec_time T (times config.scale on side B), varied by
#                    a part in a thousand from run to run
#   hash: H          the hash metric (default: H = the side, so that the
#                    binaries differ; "same" for one identity both sides)
#   micro: K1 K2     micro-results NAME.test:K1, ... (lit's microResults),
#                    each with the test's exec_time
#   fail: SIDE       the test fails on side SIDE (A, B or AB)
#   vanish: N        after its N-th run on a side, the test removes itself
#   slow: N S        from its N-th run on, the run takes S seconds more,
#                    its pid written to config.state/slow.pid
#   leave: MARK      the run leaves a shell behind that sleeps, MARK among
#                    its arguments, its pid appended to config.state/left
# Every run appends "SIDE NAME CPUS" to config.state/runs (the CPUs it may
# run on: a duet pins them).
# lit --no-execute (a duet's listing of the tests) runs nothing and
# counts no run, as lit's own formats (ShTest) do.
import hashlib
import os
import subprocess
import time

import lit.formats
import lit.Test


class FakeTest(lit.formats.FileBasedTest):
    def execute(self, test, lit_config):
        if lit_config.noExecute:
            return lit.Test.Result(lit.Test.PASS)
        cfg = test.config
        path = test.getSourcePath()
        keys = {}
        with open(path, encoding='utf-8') as f:
            for line in f:
                k, sep, v = line.partition(':')
                if sep:
                    keys[k.strip()] = v.strip()
        name = os.path.basename(path)
        count_file = os.path.join(cfg.state, 'count.' + cfg.side + '.' +
                                  hashlib.md5(name.encode('utf-8')).hexdigest())
        n = 1
        if os.path.exists(count_file):
            with open(count_file) as f:
                n = int(f.read()) + 1
        with open(count_file, 'w') as f:
            f.write(str(n))
        cpus = ','.join(str(c) for c in sorted(os.sched_getaffinity(0)))
        with open(os.path.join(cfg.state, 'runs'), 'a', encoding='utf-8') as f:
            f.write('%s %s %s\n' % (cfg.side, name, cpus))
        if 'slow' in keys:
            after, secs = keys['slow'].split()
            if n >= int(after):
                with open(os.path.join(cfg.state, 'slow.pid'), 'w') as f:
                    f.write(str(os.getpid()))
                time.sleep(float(secs))
        if 'leave' in keys:
            p = subprocess.Popen(['sh', '-c', 'while :; do sleep 1; done', keys['leave']],
                                 stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL)
            with open(os.path.join(cfg.state, 'left'), 'a') as f:
                f.write('%d\n' % p.pid)
        if 'vanish' in keys and n >= int(keys['vanish']):
            os.remove(path)
        if cfg.side in keys.get('fail', ''):
            return lit.Test.Result(lit.Test.FAIL, 'failed on side ' + cfg.side)
        t = float(keys.get('time', '1')) * (cfg.scale if cfg.side == 'B' else 1.0)
        t *= 1 + 0.001 * ((n * 7) % 5 - 2)
        result = lit.Test.Result(lit.Test.PASS, '')
        result.addMetric('exec_time', lit.Test.RealMetricValue(t))
        h = keys.get('hash', cfg.side)
        result.addMetric('hash', lit.Test.toMetricValue(h if h != 'same' else 'same'))
        for k in keys.get('micro', '').split():
            m = lit.Test.Result(lit.Test.PASS, '')
            m.addMetric('exec_time', lit.Test.RealMetricValue(t))
            m.addMetric('hash', lit.Test.toMetricValue(h))
            result.addMicroResult(k, m)
        return result
