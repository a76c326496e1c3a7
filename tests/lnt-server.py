#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""A stand-in for an LNT server's submitRun and the REST API (v4) reads
of a machine's history, for make check.

It reads a submission the way LNT does (llvm-lnt lnt/server/ui/views.py
_do_submit, lnt/util/ImportData.py import_and_report, lnt/testing
upgrade_and_normalize_report, lnt/server/db/testsuitedb.py
importDataFromDict) against the nts schema in tests/lnt/nts-schema.txt,
stores runs by machine and order with LNT's merge rules, and answers as
LNT does: HTTP 200 with a JSON object holding "success": true and a
"result_url", or HTTP 400 with an "error".  It also refuses what LNT takes
but files apart from LNT's own results: a test named with a suite prefix
("nts.X", which LNT's converters never write) or a lit name ("X.test").

It answers GET /api/db_NAME/v4/nts/machines/MACHINE and
/api/db_NAME/v4/nts/samples?runid=N&... as LNT does (lnt/server/ui/api.py
Machine.get, SamplesData.get): the machine's runs with their order
("order_by", "llvm_project_revision"), and one row per sample of each
test, a list metric's values one per sample, a single value (a hash, a
code size) on the test's first sample, null fields left out; an unknown
machine is HTTP 404 {"msg": ...}.

usage: lnt-server.py SCHEMA PORTFILE LOGDIR [--answer ok|html|500|hang|truncated|nested]
                     [--max N] [--idle SECONDS]
       lnt-server.py SCHEMA --check REPORT
Serves on 127.0.0.1 (a free port, written to PORTFILE) until N requests
were answered or none came for SECONDS (default 120).  The answers that are not LNT's: hang
(reads the request and sleeps 30 s), truncated (a success cut short
before its closing brace), nested (a "success": true inside another
member, false at the top).  Each request is logged to LOGDIR/N.json:
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
        self.stored = {}    # run id -> (machine, run section, tests)

    def machine_runs(self, name):
        return [(i, r) for i, r in sorted(self.stored.items()) if r[0] == name]

    def samples(self, run_ids, order_field):
        """Rows as LNT's SamplesData answers them."""
        rows, sid = [], 1
        for rid in sorted(self.stored):
            machine, run, tests = self.stored[rid]
            for t in tests:
                metrics = {k: v for k, v in t.items() if k != 'name'}
                n = max([len(v) for v in metrics.values() if isinstance(v, list)] or [1])
                for i in range(n):
                    row = {'id': sid, 'run_id': rid, 'name': t['name'],
                           order_field: run.get(order_field)}
                    sid += 1
                    for k, v in metrics.items():
                        if isinstance(v, list):
                            if i < len(v) and v[i] is not None:
                                row[k] = v[i]
                        elif i == 0 and v is not None:
                            row[k] = v
                    if rid in run_ids:
                        rows.append(row)
        return rows


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
            url = urllib.parse.urlsplit(self.path)
            parts = url.path.strip('/').split('/')
            # /api/db_NAME/v4/SUITE/machines/MACHINE, .../samples?runid=N...
            if len(parts) < 5 or parts[0] != 'api' or not parts[1].startswith('db_') or \
                    parts[2] != 'v4':
                return self.reply(405, {'error': 'GET'})
            if parts[3] != 'nts':
                return self.reply(404, {'msg': "Unknown test suite '%s'" % parts[3]})
            order_field = schema[1][0]
            head = {'generated_by': 'LNT Server v0.4.11 (tests/lnt-server.py)'}
            if parts[4] == 'machines' and len(parts) == 6:
                name = urllib.parse.unquote(parts[5])
                runs = store.machine_runs(name)
                if not runs:
                    return self.reply(404, {'msg': "Did not find machine '%s'" % name})
                head['machine'] = {'id': 1, 'name': name}
                head['runs'] = [dict({'id': i, 'start_time': r[1].get('start_time'),
                                      'end_time': r[1].get('end_time'),
                                      'order_by': order_field, 'order_id': i},
                                     **{order_field: r[1].get(order_field)})
                                for i, r in runs]
                return self.reply(200, head)
            if parts[4] == 'samples' and len(parts) == 5:
                ids = [int(v) for v in urllib.parse.parse_qs(url.query).get('runid', [])]
                if not ids:
                    return self.reply(400, {'msg': 'No runids found in args. '
                                                   'Should be "samples?runid=1&runid=2" etc.'})
                head['samples'] = store.samples(set(ids), order_field)
                return self.reply(200, head)
            return self.reply(404, {'msg': 'Not Found'})

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
            if answer == 'hang':
                # Accept, read, never answer (until the client gives up).
                import time
                time.sleep(30)
                return None
            if answer == 'truncated':
                body = b'{"success": true, "result_url": "http://127.0.0.1/db_default/v4/nts/1"'
                self.send_response(200)
                self.send_header('Content-Type', 'application/json')
                self.send_header('Content-Length', str(len(body)))
                self.end_headers()
                self.wfile.write(body)
                return None
            if answer == 'nested':
                return self.reply(200, {'success': False, 'detail': {'success': True}})
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
            if merge != 'append':
                for gone in old:
                    store.stored.pop(gone, None)
            store.stored[run_id] = (data['machine']['name'], data['run'], data['tests'])
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
    # It ends after LIMIT requests, or when none came for --idle seconds
    # (default 120: a test under an emulator builds for a while between
    # two submissions).
    idle = datetime.timedelta(seconds=int(opts.get('--idle', '120')))
    deadline, seen = datetime.datetime.now() + idle, counter[0]
    while counter[0] < limit and datetime.datetime.now() < deadline:
        server.handle_request()
        if counter[0] != seen:
            deadline, seen = datetime.datetime.now() + idle, counter[0]
    server.server_close()
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
