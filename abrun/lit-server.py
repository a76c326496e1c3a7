# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""timeit-ab's lit server: one long-lived lit per side of a duet.

Started by timeit-ab (lib/drive/drive-litserver.c) as

    python3 lit-server.py DIR SOCKET LIT LIT_ARGUMENT... BUILD

its standard input a pipe that timeit-ab holds open for as long as it
runs (its end is the server's: at its end of file the server and its
spare worker go), its standard output a pipe for the word "ready".  It
loads the lit program LIT as lit itself would run it (its directory
first on sys.path, its top level run, which imports lit.main; llvm-lit's
builtin_parameters are kept for lit's main), and runs lit once over
BUILD without running a test (lit's own main, its run_tests left out)
so that Python, lit and the suite's configuration are loaded once, and
the tests' files known.  Then it listens on the Unix socket DIR/SOCKET
(a name relative to DIR: the path may be long) and says "ready PID N",
its pid (its process group's) and how many tests it knows.

A spare worker, forked in advance, waits for the next client, so that no
fork lies between timeit-ab's barrier and the test.  A request is one
connection: the client's pid, the length of the rest, then the fields
log, test name and lit's argv, each ended by a NUL; then the end of the
client's writing.  A request of another length (a client cut short) is
refused.  The worker joins the client's process group (so that
timeit-ab's stop and budget kill it with its client), says "s" to the
client (a client already gone ends it there), takes the client's CPUs,
sends its output to the log, and runs lit's main with that argv, BUILD
replaced by the test's own file when that lies within BUILD (lit then
discovers one test, not the whole tree); it sends lit's exit status
back as one line.  What a lit process per test costs in Python's and
lit's start (about 0.17 s a run) is paid once.
"""
import os
import runpy
import select
import signal
import socket
import sys


def load_lit(prog):
    """lit's main module and the arguments LIT gives its main (llvm-lit:
    its builtin_parameters)."""
    sys.path.insert(0, os.path.dirname(os.path.realpath(prog)))
    g = runpy.run_path(prog, run_name='timeit_ab_lit_server')
    import lit.main
    params = g.get('builtin_parameters')
    return lit.main, ((params,) if isinstance(params, dict) else ())


def discover(lit_main, args, argv):
    """Run lit's main over ARGV without running a test: the tests'
    names and files, or {} when this lit cannot say."""
    found = {}
    if not hasattr(lit_main, 'run_tests'):
        return found
    real = lit_main.run_tests

    def take(tests, *rest):
        for t in tests:
            found[t.getFullName()] = t.getSourcePath()
        raise SystemExit(0)
    lit_main.run_tests = take
    saved = sys.argv, os.dup(1), os.dup(2)
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    os.dup2(null, 2)
    try:
        sys.argv = argv
        lit_main.main(*args)
    except SystemExit:
        pass
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        sys.argv = saved[0]
        os.dup2(saved[1], 1)
        os.dup2(saved[2], 2)
        for fd in (null, saved[1], saved[2]):
            os.close(fd)
        lit_main.run_tests = real
    return found


def read_request(conn):
    data = b''
    while True:
        chunk = conn.recv(65536)
        if not chunk:
            break
        data += chunk
    pid, length, rest = data.split(b'\0', 2)
    if int(length) != len(rest):
        raise ValueError('a request of %d bytes, not %d' % (len(rest), int(length)))
    fields = [os.fsdecode(f) for f in rest.split(b'\0')[:-1]]
    if len(fields) < 3:
        raise ValueError('a request of %d fields' % len(fields))
    return int(pid), fields[0], fields[1], fields[2:]


def work(conn, lit_main, args, paths, build):
    """In the worker: one request, lit's status back."""
    client, log, name, argv = read_request(conn)
    os.setpgid(0, os.getpgid(client))
    conn.sendall(b's')   # the client is gone: BrokenPipeError, and no run
    if hasattr(os, 'sched_setaffinity'):
        os.sched_setaffinity(0, os.sched_getaffinity(client))
    fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o666)
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    os.close(fd)
    path = paths.get(name)
    if path and os.path.abspath(argv[-1]) == build and path.startswith(build + '/'):
        argv[-1] = path
    status = 0
    try:
        sys.argv = argv
        lit_main.main(*args)
    except SystemExit as e:
        status = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
    conn.sendall(b'%d\n' % status)
    return status


def spare(listener, taken_w, lit_main, args, paths, build):
    """Fork a worker that takes the next client, says so on TAKEN_W,
    and serves it."""
    if os.fork() != 0:
        return
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    status = 2
    try:
        conn, _ = listener.accept()
        os.write(taken_w, b'.')
        listener.close()
        status = work(conn, lit_main, args, paths, build)
    except BrokenPipeError:
        status = 2   # the client went before its run: nothing to say
    except BaseException as e:   # said in the log, the status 2
        sys.stderr.write('timeit-ab lit server: %s\n' % e)
        sys.stderr.flush()
    os._exit(status)


def main():
    if len(sys.argv) < 5:
        sys.stderr.write('usage: lit-server.py DIR SOCKET LIT [LIT_ARGUMENT...] BUILD\n')
        return 2
    os.closerange(3, 65536)   # nothing of timeit-ab's but the three pipes
    where, sock_name, argv = sys.argv[1], sys.argv[2], sys.argv[3:]
    build = os.path.abspath(argv[-1])
    lit_main, args = load_lit(argv[0])
    paths = discover(lit_main, args, argv[:-1] + [build])
    here = os.getcwd()
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    os.chdir(where)
    listener.bind(sock_name)
    os.chdir(here)
    listener.listen(64)
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)   # workers reaped by the kernel
    taken_r, taken_w = os.pipe()
    try:
        sys.stdout.write('ready %d %d\n' % (os.getpid(), len(paths)))
        sys.stdout.flush()
        spare(listener, taken_w, lit_main, args, paths, build)
        while True:
            # When the spare has taken a client, the next is forked; at
            # the end of timeit-ab's pipe (it is gone), so is the server.
            ready, _, _ = select.select([taken_r, 0], [], [])
            if 0 in ready and not os.read(0, 1):
                break
            if taken_r in ready:
                os.read(taken_r, 1)
                spare(listener, taken_w, lit_main, args, paths, build)
    finally:
        if os.getpgid(0) == os.getpid():   # its own group: the spare's
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
            os.killpg(0, signal.SIGTERM)   # waiting in accept()
    return 0


if __name__ == '__main__':
    sys.exit(main())
