# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# The test format of tests/lit-ab (loaded by its lit.cfg): a ShTest whose
# RUN line writes a timeit summary to %t.time; the summary's user time
# becomes the metric exec_time and the program's MD5 the metric hash, as
# the LLVM test-suite's litsupport reports them.  A module of its own:
# lit sends the format to its workers by pickling, which a class defined
# in lit.cfg cannot survive.
import hashlib
import os

import lit.formats
import lit.Test
import lit.TestRunner


class TimedTest(lit.formats.ShTest):
    def execute(self, test, lit_config):
        _, base = lit.TestRunner.getTempPaths(test)
        summary = base + '.tmp.time'
        if os.path.exists(summary):
            os.remove(summary)
        result = super().execute(test, lit_config)
        if result.code != lit.Test.PASS:
            return result
        with open(summary) as f:
            for line in f:
                key, _, value = line.partition(' ')
                if key == 'user':
                    result.addMetric('exec_time', lit.Test.RealMetricValue(float(value)))
        program = os.path.join(test.config.bindir,
                               os.path.splitext(os.path.basename(test.getSourcePath()))[0])
        with open(program, 'rb') as f:
            result.addMetric('hash', lit.Test.toMetricValue(hashlib.md5(f.read()).hexdigest()))
        return result
