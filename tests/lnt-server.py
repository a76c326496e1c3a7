#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""A stand-in for an LNT server's submitRun, for make check.

It reads a submission the way LNT does (llvm-lnt lnt/server/ui/views.py
_do_submit, lnt/util/ImportData.py import_and_report, lnt/testing
upgrade_and_normalize_report, lnt/server/db/testsuitedb.py
importDataFromDict) against the nts schema in tests/lnt/nts-schema.txt,
stores runs by machine and order with LNT's merge rules, and answers as
LNT does: HTTP 200 with a JSON object holding "success": true and a
"result_url", or HTTP 400 with an "error".  It also refuses what LNT takes
but files apart from LNT's own results: a test named with a suite prefix
("nts.X", which LNT's converters never write) or a lit name ("X.test").

usage: lnt-server.py SCHEMA PORTFILE LOGDIR [--answer ok|html|500] [--max N]
       lnt-server.py SCHEMA --check REPORT
Serves on 127.0.0.1 (a free port, written to PORTFILE) until N requests
were answered or 60 s passed.  Each request is logged to LOGDIR/N.json:
method, path, headers, form fields.
"""
import datetime
import json
import sys
import urllib.parse
from http.server import BaseHTTPRequestHandler, HTTPServer


def load_schema(path):
    metrics, orders, machine = {}, [], []
    for line in open(path):
        words = line.split()
        if not words or words[0].startswith('#'):
            continue
        if words[0] == 'metric':
            metrics[words[1]] = words[2]
        elif words[0] == 'order':
            orders.append(words[1])
        elif words[0] == 'machine':
            machine.append(words[1])
    return metrics, orders, machine


def parse_time(s):
    # LNT: aniso8601.parse_datetime, else "%Y-%m-%d %H:%M:%S".
    for fmt in ('%Y-%m-%dT%H:%M:%S', '%Y-%m-%d %H:%M:%S'):
        try:
            return datetime.datetime.strptime(s, fmt)
        except (TypeError, ValueError):
            pass
    raise ValueError("time data %r does not match format '%%Y-%%m-%%d %%H:%%M:%%S'" % (s,))


def is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def check_report(text, schema):
    """The report's data, or raise ValueError with LNT's kind of message."""
    metrics, orders, _ = schema
    try:
        data = json.loads(text)
    except ValueError:
        raise ValueError("could not parse input format")
    if not isinstance(data, dict):
        raise ValueError("could not parse input format")
    if data.get('format_version') != '2':
        raise ValueError("Invalid input format: Unknown format version")
    for section in ('run', 'machine', 'tests'):
        if section not in data:
            raise ValueError("Invalid input format: No '%s' section in submission" % section)
    machine, run, tests = data['machine'], data['run'], data['tests']
    if not isinstance(machine.get('name'), str) or not machine['name']:
        raise ValueError("import failure: 'name'")
    for k in ('start_time', 'end_time'):
        if k in run:
            try:
                parse_time(run[k])
            except ValueError as e:
                raise ValueError("import failure: %s" % e)
    for o in orders:
        if not run.get(o):
            raise ValueError("import failure: run has no order field '%s'" % o)
    for t in tests:
        name = t.get('name')
        if not isinstance(name, str) or not name:
            raise ValueError("import failure: 'name'")
        if name.startswith('nts.') or ' :: ' in name or name.endswith('.test'):
            raise ValueError("test %s: not an LNT test name (LNT's converters write "
                             "the path alone, without a suite prefix or .test)" % name)
        for key, values in t.items():
            if key == 'name':
                continue
            kind = metrics.get(key)
            if kind is None:
                raise ValueError("import failure: test %s: Metric '%s' unknown in suite " % (name, key))
            vals = values if isinstance(values, list) else [values]
            for v in vals:
                ok = isinstance(v, str) if kind == 'Hash' else \
                    (isinstance(v, int) and v in (0, 1, 2)) if kind == 'Status' else is_number(v)
                if not ok:
                    raise ValueError("import failure: test %s: %s value %r is not a %s" %
                                     (name, key, v, kind))
    return data


class Store:
    def __init__(self):
        self.runs = {}      # (machine, order) -> [run id]
        self.next_id = 1


def make_handler(schema, store, logdir, answer, counter):
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def reply(self, code, obj=None, html=None):
            body = (html if html is not None else json.dumps(obj, sort_keys=True)).encode()
            self.send_response(code)
            self.send_header('Content-Type', 'text/html' if html is not None else 'application/json')
            self.send_header('Content-Length', str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self):
            counter[0] += 1
            self.reply(405, {'error': 'GET'})

        def do_POST(self):
            counter[0] += 1
            n = int(self.headers.get('Content-Length') or 0)
            raw = self.rfile.read(n)
            ctype = self.headers.get('Content-Type', '')
            form = {}
            if ctype.startswith('application/x-www-form-urlencoded'):
                form = {k: v[-1] for k, v in urllib.parse.parse_qs(
                    raw.decode('ascii', 'replace'), keep_blank_values=True).items()}
            with open('%s/%d.json' % (logdir, counter[0]), 'w') as f:
                json.dump({'method': 'POST', 'path': self.path,
                           'headers': {k: v for k, v in self.headers.items()},
                           'form': form}, f, indent=1, sort_keys=True)
            if answer == 'html':
                return self.reply(200, html='<html><body>Submit Run</body></html>')
            if answer == '500':
                return self.reply(500, html='<html>Internal Server Error</html>')
            parts = self.path.split('?')[0].strip('/').split('/')
            # /db_NAME/v4/SUITE/submitRun (or the old /db_NAME/submitRun: nts)
            if len(parts) == 4 and parts[0].startswith('db_') and parts[1] == 'v4' and \
                    parts[3] == 'submitRun':
                suite = parts[2]
            elif len(parts) == 2 and parts[0].startswith('db_') and parts[1] == 'submitRun':
                suite = 'nts'
            else:
                return self.reply(404, html='<html>Not Found</html>')
            if suite != 'nts':
                return self.reply(400, {'error': "Unknown test suite '%s'!" % suite,
                                        'success': False})
            if 'input_data' not in form:
                # LNT renders its submit page (HTTP 200) for a form without data.
                return self.reply(200, html='<html>error: must provide input file or data</html>')
            select = form.get('select_machine', 'match')
            merge = form.get('merge', 'reject')
            if select not in ('match', 'update', 'split'):
                return self.reply(400, {'error': "select_machine must be 'match', 'update' or 'split'",
                                        'success': False})
            try:
                data = check_report(form['input_data'], schema)
                key = (data['machine']['name'], data['run'][schema[1][0]])
                old = store.runs.get(key, [])
                if old and merge == 'reject':
                    raise ValueError("import failure: Duplicate submission for '%s'" % key[1])
                if merge not in ('reject', 'replace', 'append'):
                    raise ValueError("import failure: Invalid Run mergeStrategy %r" % merge)
            except ValueError as e:
                return self.reply(400, {'error': str(e), 'success': False})
            run_id = store.next_id
            store.next_id += 1
            store.runs[key] = (old if merge == 'append' else []) + [run_id]
            return self.reply(200, {'error': None, 'success': True, 'run_id': run_id,
                                    'added_tests': len(data['tests']),
                                    'result_url': 'http://127.0.0.1:%d/db_%s/v4/%s/%d' % (
                                        self.server.server_port, parts[0][3:], suite, run_id)})
    return Handler


def main(argv):
    schema = load_schema(argv[1])
    if argv[2] == '--check':
        try:
            check_report(open(argv[3]).read(), schema)
        except ValueError as e:
            print('%s: %s' % (argv[3], e), file=sys.stderr)
            return 1
        return 0
    portfile, logdir = argv[2], argv[3]
    opts = dict(zip(argv[4::2], argv[5::2]))
    answer = opts.get('--answer', 'ok')
    limit = int(opts.get('--max', '10'))
    counter = [0]
    server = HTTPServer(('127.0.0.1', 0), make_handler(schema, Store(), logdir, answer, counter))
    server.timeout = 1
    with open(portfile + '.tmp', 'w') as f:
        f.write('%d\n' % server.server_port)
    import os
    os.rename(portfile + '.tmp', portfile)
    deadline = datetime.datetime.now() + datetime.timedelta(seconds=60)
    while counter[0] < limit and datetime.datetime.now() < deadline:
        server.handle_request()
    server.server_close()
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
