#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# timeit-perf: run a command under `perf stat` and report like timeit(1).
#
# The command line, the summary file and the exit statuses follow
# timeit(1), the contract of the C program.  The measured process tree
# is a chain of small execs; each link exists for one reason:
#
#   perf stat -x TAB -o CSV -e EVENTS -e duration_time -e user_time -e system_time
#     sh -c "$run"     records the real exit status (perf returns 0 for a
#                      child killed by a signal, 255 for an exec failure)
#     [GNU time]       only with --report-maxrss or --fallback: ru_maxrss
#     sh -c "$setup"   writes its pid, applies limits and --chdir, checks
#                      that the command can be executed (execvp's search)
#     setsid           own session and process group, for the group kill
#     env --default-signal -- COMMAND...
#                      undoes the SIGINT/SIGQUIT ignore that POSIX gives
#                      asynchronous lists, and the mask perf leaves set
#
# Exit statuses are handled explicitly, hence no `set -e`.
set -u

# Standard streams this script was started without are opened on
# /dev/null, as timeit does: the command gets them open, and no file of
# ours takes their place.
(exec 6<&0) 2>/dev/null || exec 0</dev/null
(exec 6>&1) 2>/dev/null || exec 1<>/dev/null
# (No 2>/dev/null on the test of 2 itself: it would open what it tests.)
(exec 6>&2) || exec 2<>/dev/null

prog=timeit-perf
version='@PACKAGE_VERSION@'
bugreport='@PACKAGE_BUGREPORT@'
perf_default='@PERF@'
case $perf_default in '' | @*) perf_default=perf ;; esac
perf=${TIMEIT_PERF:-$perf_default}
gnutime=${TIMEIT_TIME:-/usr/bin/time}
shell=/bin/sh
# Its own exit statuses, named once (timeit-perf(1), EXIT STATUS); the
# command's status passes through otherwise.
st_usage=1 st_internal=66 st_cannot_exec=126 st_not_found=127 st_killed=137
# The default events of timeit(1) (lib/events.c), so the extra summary
# keys are the same.
default_events=task-clock,cycles,instructions,context-switches,page-faults

usage() {
	cat <<EOF
usage: $prog [options] [--] command [arguments ...]

Run a command under perf stat and report its exit status, real, user and
sys times like timeit(1).

options:
  -h, --help                       show this help and exit
      --version                    show the version and exit
  -p, --posix                      report on stderr in the POSIX layout
                                   (without --summary)
  -t, --timeout N                  kill the command's process group after
                                   N seconds (0: never); status 137
  -c, --chdir PATH                 run the command in directory PATH
      --summary PATH               write the summary to PATH (atomically)
                                   instead of reporting on stderr
      --redirect-input PATH        the command's stdin reads PATH
      --redirect-output PATH       the command's stdout and stderr go to PATH
      --redirect-stdout PATH       the command's stdout goes to PATH
      --redirect-stderr PATH       the command's stderr goes to PATH
      --append-exitstatus          append 'exit N' to the stdout file and
                                   exit 0
      --report-maxrss              report the peak resident set size
                                   (bytes, via GNU time)
      --limit-cpu N                RLIMIT_CPU, seconds
      --limit-stack-size N         RLIMIT_STACK, bytes
      --limit-data-size N          RLIMIT_DATA, bytes
      --limit-rss-size N           RLIMIT_RSS, bytes
      --limit-file-size N          RLIMIT_FSIZE, bytes
      --limit-core N               RLIMIT_CORE, bytes
      --limit-file-count N         RLIMIT_NOFILE
      --limit-subprocess-count N   RLIMIT_NPROC
  -e, --events LIST                count these perf events (comma-separated)
                                   instead of the defaults
      --fallback                   without a working perf, measure with
                                   $gnutime (rusage)
  -q, --quiet                      no notes about counters on stderr
  -v, --verbose                    list every event that was skipped

Exit status: the command's; 128+S when killed by signal S; 137 on timeout
or interrupt; 127/126 when it cannot be run; 66 when timeit-perf itself
fails (no perf); 1 on a usage error.

Environment: TIMEIT_OPTIONS, options read before the command line's;
TIMEIT_PERF, the perf program.  See timeit-perf(1).
EOF
	[ -z "$bugreport" ] || printf '\nReport bugs to: %s\n' "$bugreport"
}

# from: "TIMEIT_OPTIONS: " while the word being parsed came from it.
from=
usage_error() {
	echo "error: $from$1" >&2
	usage >&2
	exit "$st_usage"
}

die() {
	echo "$prog: $1" >&2
	exit "${2:-$st_internal}"
}

note() {
	[ "$o_quiet" = 1 ] || echo "$prog: note: $1" >&2
}

# number OPTION VALUE: VALUE as a decimal 64-bit unsigned number, the same
# rule as ti_parse_u64(): digits only, at most 18446744073709551615.
number() {
	case $2 in
	'' | *[!0-9]*)
		echo "$prog: $from$1: invalid number '$2'" >&2
		exit "$st_usage" ;;
	esac
	n=$2
	while [ "${#n}" -gt 1 ] && [ "${n#0}" != "$n" ]; do n=${n#0}; done
	if ! le "$n" 18446744073709551615; then
		echo "$prog: $from$1: number out of range '$2'" >&2
		exit "$st_usage"
	fi
	num=$n
}

# le A B: decimal A <= decimal B (no leading zeros), also for numbers too
# large for sh arithmetic (64-bit signed at best).
le() {
	if [ "${#1}" -ne "${#2}" ]; then
		[ "${#1}" -lt "${#2}" ]
	elif [ "${#1}" -le 18 ]; then
		[ "$1" -le "$2" ]
	else
		a_hi=${1%??????????} b_hi=${2%??????????}
		a_lo=${1#"$a_hi"} b_lo=${2#"$b_hi"}
		[ "$a_hi" -lt "$b_hi" ] || { [ "$a_hi" -eq "$b_hi" ] && [ "$a_lo" -le "$b_lo" ]; }
	fi
}

# errno_guess PATH r|w: the strerror text open(2) most likely gave for PATH
# (the shell does not tell errno).
errno_guess() {
	if [ "$2" = w ] && [ -d "$1" ]; then
		echo "Is a directory"
	elif [ -e "$1" ]; then
		echo "Permission denied"
	else
		# The nearest ancestor that can be seen says why the path
		# cannot: a file, a directory that cannot be searched, a
		# directory without the next component, or the path's own
		# directory, in which a new file cannot be made.
		d=$1 parent=
		while :; do
			case $d in */*) d=${d%/*} ;; *) d=. ;; esac
			[ -n "$d" ] || d=/
			[ -n "$parent" ] || parent=$d
			[ -e "$d" ] || [ "$d" = . ] || [ "$d" = / ] || continue
			break
		done
		if ! [ -d "$d" ]; then
			echo "Not a directory"
		elif ! [ -x "$d" ]; then
			echo "Permission denied"
		elif [ "$2" = w ] && [ "$d" = "$parent" ] && ! [ -w "$d" ]; then
			echo "Permission denied"
		else
			echo "No such file or directory"
		fi
	fi
}

# ---- options (timeit/timeit.c parse_args) ----
o_posix=0 o_timeout=0 o_chdir='' o_chdir_set=0 o_summary='' o_summary_set=0
# The option each redirect path came from names it in errors, as in timeit.
stdout_opt=--redirect-stdout stderr_opt=--redirect-stderr
o_in='' o_in_set=0 o_stdout='' o_stdout_set=0
o_stderr='' o_stderr_set=0 o_append=0 o_maxrss=0 o_events='' o_events_set=0
o_fallback=0 o_quiet=0 o_verbose=0
limits=		# "name=N ..." in command-line order, last one wins later
# TIMEIT_OPTIONS (timeit(1), ENVIRONMENT): options before the command
# line's, split as sh splits words (xargs quotes the same way and runs
# nothing: no eval).  env_left counts the words still to come from it.
env_left=0
if [ -n "${TIMEIT_OPTIONS:-}" ]; then
	words=$(printf '%s\n' "$TIMEIT_OPTIONS" | tr '\n' ' ' | xargs printf '%s\n' 2>/dev/null) ||
		{ echo "$prog: TIMEIT_OPTIONS: a quote is not closed" >&2; exit "$st_usage"; }
	n_args=$#
	old_ifs=$IFS
	IFS='
'
	# The words, then the command line's arguments again, in order.
	for w in $words; do
		set -- "$@" "$w"
		env_left=$((env_left + 1))
	done
	IFS=$old_ifs
	while [ "$n_args" -gt 0 ]; do
		a=$1
		shift
		set -- "$@" "$a"
		n_args=$((n_args - 1))
	done
fi
while [ $# -gt 0 ]; do
	if [ "$env_left" -gt 0 ]; then from='TIMEIT_OPTIONS: '; else from=; fi
	case $1 in
	--)
		[ "$env_left" -eq 0 ] || {
			echo "$prog: TIMEIT_OPTIONS: '--' ends timeit-perf's options on its command line only" >&2
			exit "$st_usage"
		}
		shift; break ;;
	-*) ;;
	*)
		[ "$env_left" -eq 0 ] || {
			echo "$prog: TIMEIT_OPTIONS: '$1' is not an option (the command goes on the command line)" >&2
			exit "$st_usage"
		}
		break ;;
	esac
	arg=$1 name=$1 value='' has_value=0
	case $arg in
	--*=*)
		name=${arg%%=*} value=${arg#*=} has_value=1 ;;
	esac
	kind=path
	case $name in
	-h | --help | --version | -p | --posix | --append-exitstatus | --report-maxrss | \
	--fallback | -q | --quiet | -v | --verbose)
		kind=none ;;
	-t | --timeout | --limit-cpu | --limit-stack-size | --limit-data-size | \
	--limit-rss-size | --limit-file-size | --limit-core | --limit-file-count | \
	--limit-subprocess-count)
		kind=number ;;
	-c | --chdir | --summary | --redirect-input | --redirect-output | \
	--redirect-stdout | --redirect-stderr | -e | --events)
		kind=path ;;
	*)
		kind=unknown ;;
	esac
	# "--flag=value" for a flag without a value is as unknown as "--bogus".
	if [ "$kind" = unknown ] || { [ "$kind" = none ] && [ "$has_value" = 1 ]; }; then
		usage_error "invalid argument '$arg'"
	fi
	if [ "$kind" != none ] && [ "$has_value" = 0 ]; then
		# The value must come from where the option did.
		if [ $# -lt 2 ] || [ "$env_left" -eq 1 ]; then
			usage_error "$arg argument requires an option"
		fi
		shift
		env_left=$((env_left > 0 ? env_left - 1 : 0))
		value=$1
	fi
	case $name in
	-h | --help) usage; exit 0 ;;
	--version) echo "$prog $version"; exit 0 ;;
	-p | --posix) o_posix=1 ;;
	-t | --timeout) number --timeout "$value"; o_timeout=$num ;;
	-c | --chdir) o_chdir=$value o_chdir_set=1 ;;
	--summary) o_summary=$value o_summary_set=1 ;;
	--redirect-input) o_in=$value o_in_set=1 ;;
	# The last of these wins for each stream (timeit/options.c).
	--redirect-output)
		o_stdout=$value o_stdout_set=1 stdout_opt=--redirect-output
		o_stderr=$value o_stderr_set=1 stderr_opt=--redirect-output ;;
	--redirect-stdout) o_stdout=$value o_stdout_set=1 stdout_opt=--redirect-stdout ;;
	--redirect-stderr) o_stderr=$value o_stderr_set=1 stderr_opt=--redirect-stderr ;;
	--append-exitstatus) o_append=1 ;;
	--report-maxrss) o_maxrss=1 ;;
	--limit-*) number "$name" "$value"; limits="$limits ${name#--limit-}=$num" ;;
	-e | --events) o_events=$value o_events_set=1 ;;
	--fallback) o_fallback=1 ;;
	-q | --quiet) o_quiet=1 ;;
	-v | --verbose) o_verbose=1 ;;
	esac
	shift
	env_left=$((env_left > 0 ? env_left - 1 : 0))
done
from=
[ $# -gt 0 ] || usage_error "no command (or arguments) was given"

if [ "$o_append" = 1 ] && [ "$o_stdout_set" = 0 ]; then
	die "--append-exitstatus needs --redirect-output or --redirect-stdout" "$st_usage"
fi
[ "$o_events_set" = 1 ] || o_events=$default_events
# Blanks around the names ("task-clock, page-faults") would stay in perf's
# event names, and so in the summary keys: gone, as timeit ignores them.
o_events=$(printf '%s\n' "$o_events" | tr -d ' \t')
# perf's output is separated by tabs, not commas: an event of a PMU's
# "/.../" syntax may hold commas ("cpu/event=0x3c,umask=0x0/").
tab=$(printf '\t')

# ---- what measures: perf, or GNU time with --fallback ----
have_time=0
[ -x "$gnutime" ] && have_time=1
use_perf=1 perf_problem=
if ! command -v "$perf" >/dev/null 2>&1; then
	use_perf=0 perf_problem="$perf: not found"
fi
for tool in setsid env mktemp; do
	command -v "$tool" >/dev/null 2>&1 || die "$tool: not found (util-linux, coreutils)"
done
if [ "$o_maxrss" = 1 ] && [ "$have_time" = 0 ]; then
	die "--report-maxrss: $gnutime: not found (GNU time reads ru_maxrss)"
fi
# Without perf, fail before any file is touched.
if [ "$use_perf" = 0 ]; then
	[ "$o_fallback" = 1 ] || die "perf: $perf_problem (install linux-perf, or use --fallback)"
	[ "$have_time" = 1 ] || die "perf: $perf_problem; --fallback: $gnutime: not found"
fi

# ---- signals: every one that would end the script stops the run ----
# As in timeit (lib/spawn.c): SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1,
# SIGUSR2, SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ, SIGIO, SIGPWR and the
# real-time signals kill the command's group; the summary is written and
# the status is 137.  SIGALRM is a timeout.  Set before the scratch
# directory exists, so that no signal leaves it (or the command) behind.
t=''
stop_signal=''
# The pid of the command; empty until the setup shell has written it.
cmd_pid() {
	p=
	[ -n "$t" ] && [ -s "$t/pid" ] && read -r p <"$t/pid"
	[ -n "$p" ]
}
# kill_cmd: SIGKILL to the command's process group (or to the command, if
# it has not made its group yet).
kill_cmd() {
	cmd_pid || return 1
	kill -s KILL -- "-$p" 2>/dev/null || kill -s KILL "$p" 2>/dev/null
}
# shellcheck disable=SC2317 # called from the traps below
on_signal() {
	stop_signal=$1
	kill_cmd
}
# on_named NAME: on_signal with NAME's number (kill -l N names signal N).
# shellcheck disable=SC2317 # called from the traps below
on_named() {
	n=1
	while [ "$n" -lt 128 ] && [ "$(kill -l "$n" 2>/dev/null)" != "$1" ]; do
		n=$((n + 1))
	done
	on_signal "$n"
}
# shellcheck disable=SC2317 # called from the trap below
on_alarm() {
	[ -z "$t" ] || : >"$t/timedout"
	kill_cmd
}
trap 'on_signal 2' INT
trap 'on_signal 15' TERM
trap 'on_signal 1' HUP
for sig in QUIT USR1 USR2 VTALRM PROF XCPU XFSZ IO PWR; do
	# shellcheck disable=SC2064 # the name is meant to expand now
	trap "on_named $sig" "$sig" 2>/dev/null || :
done
trap on_alarm ALRM
# The real-time signals have no portable names; on Linux they are 34-64
# (glibc keeps 32 and 33).
if [ "$(uname -s 2>/dev/null)" = Linux ]; then
	sig=34
	while [ "$sig" -le 64 ]; do
		# shellcheck disable=SC2064
		trap "on_signal $sig" "$sig" 2>/dev/null || :
		sig=$((sig + 1))
	done
fi

t=$(mktemp -d -- "${TMPDIR:-/tmp}/timeit-perf.XXXXXX") || die "cannot create a temporary directory"
# The setup shell writes into $t after its cd to --chdir: a relative
# TMPDIR would name another directory there, or none.
case $t in
/*) ;;
*) t=$(pwd -P)/$t || die "cannot find the current directory" ;;
esac
sum_tmp=
trap 'rm -rf -- "$t"; [ -z "$sum_tmp" ] || rm -f -- "$sum_tmp"' EXIT

# perf's own diagnostics and CSV must not depend on the user's locale (a
# decimal comma in CSV), and perf itself puts its exec path in front of
# PATH and sets PERF_BUILDID_DIR and PREFIX: the setup shell gives the
# command the environment timeit-perf was given.
env_state() {
	eval "if [ \"\${$1+set}\" = set ]; then echo \"set:\$$1\"; else echo unset; fi"
}
lc_state=$(env_state LC_ALL)
path_state=$(env_state PATH)
buildid_state=$(env_state PERF_BUILDID_DIR)
prefix_state=$(env_state PREFIX)
setsid_bin=$(command -v setsid)
env_bin=$(command -v env)

# A user event list is checked before anything runs, as timeit does.
if [ "$use_perf" = 1 ] && [ "$o_events_set" = 1 ]; then
	if ! LC_ALL=C "$perf" stat -x "$tab" -o /dev/null -e "$o_events" true >/dev/null 2>"$t/check"; then
		if grep -q -i -e 'event syntax error' -e 'unknown' -e 'invalid' "$t/check"; then
			echo "$prog: --events: perf rejects '$o_events':" >&2
			sed -n '1,3s/^/  /p' "$t/check" >&2
			exit "$st_usage"
		fi
	fi
fi

# ---- --summary: checked before the command runs; written atomically ----
sum_target=
sum_direct=0
sum_fd=
case $o_summary in
/dev/stdin | /dev/fd/0 | /proc/self/fd/0) sum_fd=0 ;;
/dev/stdout | /dev/fd/1 | /proc/self/fd/1) sum_fd=1 ;;
/dev/stderr | /dev/fd/2 | /proc/self/fd/2) sum_fd=2 ;;
esac
if [ "$o_summary_set" = 1 ] && [ -z "$o_summary" ]; then
	# Nothing to create: open(2) says ENOENT (lib/outfile.c).
	die "--summary: : No such file or directory" "$st_usage"
elif [ "$o_summary_set" = 1 ] && [ -n "$sum_fd" ]; then
	# One of the script's own descriptors: written through it, so the
	# summary lands where the shell's other output to it goes (readlink
	# in a command substitution would name its own pipe instead).
	{ : >&"$sum_fd"; } 2>/dev/null || die "--summary: $o_summary: Bad file descriptor" "$st_usage"
	sum_direct=3
elif [ "$o_summary_set" = 1 ]; then
	sum_target=$o_summary
	# Replace the file behind a symlink, keep the link (lib/outfile.c).
	if [ -L "$sum_target" ]; then
		sum_target=$(readlink -m -- "$sum_target" 2>/dev/null) ||
			die "--summary: $o_summary: Too many levels of symbolic links" "$st_usage"
		# readlink -m resolves a loop to a name that is still a link.
		[ -L "$sum_target" ] &&
			die "--summary: $o_summary: Too many levels of symbolic links" "$st_usage"
	fi
	if [ -d "$sum_target" ]; then
		die "--summary: $o_summary: Is a directory" "$st_usage"
	elif [ -e "$sum_target" ] && ! [ -f "$sum_target" ]; then
		# Devices and FIFOs are written in place.
		[ -w "$sum_target" ] || die "--summary: $o_summary: Permission denied" "$st_usage"
		sum_direct=1
	else
		case $sum_target in
		*/*) sum_dir=${sum_target%/*} ;;
		*) sum_dir=. ;;
		esac
		[ -n "$sum_dir" ] || sum_dir=/
		# In a sticky directory (/tmp) another user's file cannot be
		# replaced unless the directory is ours or we are root
		# (rename(2), EPERM): it is rewritten in place, decided now.
		me=$(id -u)
		if [ -f "$sum_target" ] && [ "$me" != 0 ] && [ -k "$sum_dir" ] &&
			[ "$(stat -c %u -- "$sum_target")" != "$me" ] &&
			[ "$(stat -c %u -- "$sum_dir")" != "$me" ]; then
			[ -w "$sum_target" ] || die "--summary: $o_summary: Permission denied" "$st_usage"
			sum_direct=2
		# A fixed temporary name: a summary name of NAME_MAX bytes must
		# work (lib/outfile.c).  Created now to know that it can be, and
		# again at the end: the command may remove or move the directory
		# meanwhile (make clean), and the summary goes where its path
		# leads then, as the reference's fopen at the end puts it.
		elif probe=$(mktemp -- "$sum_dir/.timeit.tmp.XXXXXX" 2>/dev/null); then
			rm -f -- "$probe"
		# No file can be created there; an existing writable one is
		# rewritten in place, as the reference does.
		elif [ -f "$sum_target" ] && [ -w "$sum_target" ]; then
			sum_direct=2
		else
			die "--summary: $o_summary: $(errno_guess "$sum_target" w)" "$st_usage"
		fi
	fi
fi

# ---- two of its files that are one: a usage error (timeit/timeit.c) ----
# same_file A B: one regular file, or one place where neither exists yet
# (lib/outfile.c ti_outfile_same): readlink -m follows every symlink,
# dangling ones included, to the path open(2) would create.  Devices and
# FIFOs may be named twice.
same_file() {
	if [ -e "$1" ] || [ -e "$2" ]; then
		# -ef: not in POSIX, but in dash, bash, ksh and busybox.
		# shellcheck disable=SC3013
		[ -f "$1" ] && [ "$1" -ef "$2" ]
	else
		[ "$(readlink -m -- "$1" 2>/dev/null || echo "$1")" = \
			"$(readlink -m -- "$2" 2>/dev/null || echo "$2")" ]
	fi
}
# clash OPT1 SET1 PATH1 OPT2 SET2 PATH2 (the EXIT trap removes sum_tmp)
clash() {
	[ "$2" = 1 ] && [ "$5" = 1 ] && same_file "$3" "$6" || return 0
	die "$1 $3 and $4 $6 are the same file" "$st_usage"
}
clash --summary "$o_summary_set" "$o_summary" --redirect-input "$o_in_set" "$o_in"
clash --summary "$o_summary_set" "$o_summary" "$stdout_opt" "$o_stdout_set" "$o_stdout"
clash --summary "$o_summary_set" "$o_summary" "$stderr_opt" "$o_stderr_set" "$o_stderr"
clash --redirect-input "$o_in_set" "$o_in" "$stdout_opt" "$o_stdout_set" "$o_stdout"
clash --redirect-input "$o_in_set" "$o_in" "$stderr_opt" "$o_stderr_set" "$o_stderr"

# ---- limits: soft = hard = min(N, current hard), set by the shell ----
# The setup shell's ulimit counts bytes in blocks whose size differs
# between shells (dash: file/core 512, data/stack/rss 1024); ask the
# kernel which.  A byte count that is not a whole number of blocks is set
# exactly by prlimit(1) (util-linux) in the setup shell, as timeit sets it;
# without prlimit it is rounded down, with a warning.
limit_spec=		# "letter:value:name:N ..." for the setup shell
prlimit_bin=$(command -v prlimit 2>/dev/null) || prlimit_bin=
limit_unit() {
	sed -n "s/^Max $1 *\\([0-9][0-9]*\\) .*/\\1/p" "$t/units"
}
if [ -n "$limits" ]; then
	if $shell -c 'ulimit -u' >/dev/null 2>&1; then nproc_letter=u; else nproc_letter=p; fi
	$shell -c 'ulimit -S -f 4; ulimit -S -c 4; ulimit -S -d 40960; ulimit -S -s 40960;
		ulimit -S -m 40960; exec cat /proc/self/limits' >"$t/units" 2>/dev/null
	# Each resource once, the last value given; file-count last so the
	# setup shell can still write its warnings.
	for res in cpu stack-size data-size rss-size file-size core subprocess-count file-count; do
		val=
		for l in $limits; do
			[ "${l%%=*}" = "$res" ] && val=${l#*=}
		done
		[ -n "$val" ] || continue
		unit=1
		case $res in
		cpu) letter=t ;;
		stack-size) letter=s unit=$(limit_unit 'stack size') ;;
		data-size) letter=d unit=$(limit_unit 'data size') ;;
		rss-size) letter=m unit=$(limit_unit 'resident set') ;;
		file-size) letter=f unit=$(limit_unit 'file size') ;;
		core) letter=c unit=$(limit_unit 'core file size') ;;
		subprocess-count) letter=$nproc_letter ;;
		file-count) letter=n ;;
		esac
		case $res in
		stack-size | data-size | rss-size) unit=$((unit / 40960)) ;;
		file-size | core) unit=$((unit / 4)) ;;
		esac
		[ "$unit" -gt 0 ] 2>/dev/null || unit=1024
		# Past 18 digits sh arithmetic overflows: that much is no limit.
		if [ "${#val}" -gt 18 ]; then
			blocks=unlimited
		else
			blocks=$((val / unit))
		fi
		hard=$($shell -c "ulimit -H -$letter" 2>/dev/null) || hard=unlimited
		if [ "$hard" != unlimited ] && { [ "$blocks" = unlimited ] || ! le "$blocks" "$hard"; }; then
			blocks=$hard
		elif [ "$unit" -gt 1 ] && [ "$blocks" != unlimited ] && [ $((val % unit)) -ne 0 ]; then
			case $res in
			stack-size) pres=stack ;; data-size) pres=data ;; rss-size) pres=rss ;;
			file-size) pres=fsize ;; *) pres=core ;;
			esac
			if [ -n "$prlimit_bin" ]; then
				limit_spec="$limit_spec P:$pres=$val:$res:$val"
				continue
			fi
			echo "$prog: warning: --limit-$res $val: set to $((blocks * unit)) bytes" \
				"(whole $unit-byte blocks of the shell's ulimit; prlimit not found)" >&2
		fi
		limit_spec="$limit_spec $letter:$blocks:$res:$val"
	done
fi

# ---- --chdir: checked before the redirect files are created, as timeit
# does (lib/spawn.c, open_dir); the chain's cd then rarely fails ----
if [ "$o_chdir_set" = 1 ] && ! { [ -d "$o_chdir" ] && [ -x "$o_chdir" ]; }; then
	if [ -d "$o_chdir" ]; then
		die "--chdir: $o_chdir: Permission denied"
	elif [ -e "$o_chdir" ]; then
		die "--chdir: $o_chdir: Not a directory"
	else
		die "--chdir: $o_chdir: $(errno_guess "$o_chdir" r)"
	fi
fi

# ---- redirects: opened here, before anything runs, as timeit does ----
# fds 3, 4, 5 carry the command's stdin, stdout and stderr down the chain.
# Files these checks create are removed again when a later one fails:
# a failing redirect leaves no file behind (lib/spawn.c).
created_1='' created_2=''
open_fail() {
	e=$(errno_guess "$1" "$2")
	[ -z "$created_1" ] || rm -f -- "$created_1"
	[ -z "$created_2" ] || rm -f -- "$created_2"
	die "$3: $1: $e"
}
# try_output N PATH: open PATH for writing without truncating it (>>), and
# remember in created_N the file (a dangling link's target) it created.
try_output() {
	if [ -e "$2" ]; then
		(exec 6>>"$2") 2>/dev/null
	else
		made=$(readlink -m -- "$2" 2>/dev/null) || made=$2
		(exec 6>>"$2") 2>/dev/null || return 1
		if [ "$1" = 1 ]; then created_1=$made; else created_2=$made; fi
	fi
}
# Each is tried first without truncating: a failing --redirect-stderr
# must not have emptied the --redirect-stdout file (lib/spawn.c).
[ "$o_in_set" = 0 ] || (exec 6<"$o_in") 2>/dev/null || open_fail "$o_in" r --redirect-input
[ "$o_stdout_set" = 0 ] || try_output 1 "$o_stdout" || open_fail "$o_stdout" w "$stdout_opt"
[ "$o_stderr_set" = 0 ] || try_output 2 "$o_stderr" || open_fail "$o_stderr" w "$stderr_opt"
exec 3<&0 4>&1 5>&2
[ "$o_in_set" = 0 ] || exec 3<"$o_in"
[ "$o_stdout_set" = 0 ] || exec 4>"$o_stdout"
if [ "$o_stderr_set" = 1 ]; then
	if [ "$o_stdout_set" = 1 ] &&
		{ [ "$o_stderr" = "$o_stdout" ] || same_file "$o_stderr" "$o_stdout"; }; then
		# One fd for both, also for two names of one file, so their
		# writes interleave.
		exec 5>&4
	else
		exec 5>"$o_stderr"
	fi
fi

# ---- the chain ----
# run: $1 = scratch dir, the rest is the next link.  Its status is the
# command's; afterwards it kills what is left of the command's group.  The
# subshell takes the redirections: dash applies a simple command's ones in
# the parent and would print "Segmentation fault" into the command's stderr.
# shellcheck disable=SC2016
run='t=$1; shift
(exec "$@" <&3 >&4 2>&5 3<&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&-)
echo $? >"$t/status"
read -r p 2>/dev/null <"$t/pid" && kill -s KILL -- "-$p" 2>/dev/null
exit 0'

# setup: $1 scratch dir, $2 limit spec, $3 chdir set, $4 chdir path, $5
# setsid, $6 env, $7-$10 the states of LC_ALL, PATH, PERF_BUILDID_DIR and
# PREFIX ("set:VALUE" or "unset"), $11 prlimit (or ""), then the command.
# Order as in lib/spawn.c: limits, chdir, exec.
# shellcheck disable=SC2016
setup="st_internal=$st_internal st_cannot_exec=$st_cannot_exec st_not_found=$st_not_found"'
t=$1 lims=$2 cdset=$3 cdto=$4 setsid=$5 env=$6
restore() {
	case $2 in set:*) export "$1=${2#set:}" ;; *) unset "$1" ;; esac
}
restore LC_ALL "$7"; restore PATH "$8"; restore PERF_BUILDID_DIR "$9"; restore PREFIX "${10}"
prlimit=${11}
shift 11
set -f
echo $$ >"$t/pid"
for l in $lims; do
	v=${l#*:} v=${v%%:*}
	case $l in
	P:*) "$prlimit" --pid "$$" "--$v" 2>/dev/null || echo "$l" >>"$t/warn" ;;
	*) ulimit "-${l%%:*}" "$v" 2>/dev/null || echo "$l" >>"$t/warn" ;;
	esac
done
if [ "$cdset" = 1 ]; then
	case $cdto in /*) d=$cdto ;; *) d=./$cdto ;; esac
	pwd0=${PWD-} pwdset=${PWD+set} oldpwd0=${OLDPWD-} oldpwdset=${OLDPWD+set}
	if ! cd -P -- "$d" 2>/dev/null; then
		if ! [ -e "$cdto" ]; then e="No such file or directory"
		elif ! [ -d "$cdto" ]; then e="Not a directory"
		else e="Permission denied"; fi
		echo "chdir: $cdto: $e" >"$t/fail"
		exit "$st_internal"
	fi
	# chdir(2) leaves the environment alone; cd does not.
	if [ "$pwdset" = set ]; then PWD=$pwd0; else unset PWD; fi
	if [ "$oldpwdset" = set ]; then OLDPWD=$oldpwd0; else unset OLDPWD; fi
fi
# The search of execvp(3), for its errno: a candidate that is not executable
# is remembered (EACCES) and the search goes on; none at all is ENOENT.
e=ENOENT
case $1 in
"") ;;
*/*)
	if [ -d "$1" ] || { [ -e "$1" ] && ! [ -x "$1" ]; }; then e=EACCES
	elif [ -e "$1" ]; then e=; fi ;;
*)
	IFS=:
	for dir in ${PATH-/bin:/usr/bin}:; do
		[ -n "$dir" ] || dir=.
		if [ -f "$dir/$1" ] && [ -x "$dir/$1" ]; then e=; break; fi
		[ -e "$dir/$1" ] && e=EACCES
	done
	unset IFS ;;
esac
if [ "$e" = ENOENT ]; then
	echo "$st_not_found $1: No such file or directory" >"$t/fail"; exit "$st_not_found"
elif [ -n "$e" ]; then
	echo "$st_cannot_exec $1: Permission denied" >"$t/fail"; exit "$st_cannot_exec"
fi
# env reads a NAME=VALUE word even after "--": a command whose name has
# a "=" is run through /bin/sh exec instead (one more exec, measured).
case $1 in
*=*) set -- /bin/sh -c "exec \"\$0\" \"\$@\"" "$@" ;;
esac
exec "$setsid" "$env" --default-signal -- "$@" 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&-'

cmd0=$1
# The links after the run shell, as arguments.
set -- "$shell" -c "$setup" sh "$t" "$limit_spec" "$o_chdir_set" "$o_chdir" "$setsid_bin" \
	"$env_bin" "$lc_state" "$path_state" "$buildid_state" "$prefix_state" "$prlimit_bin" "$@"
use_time=0
if [ "$o_maxrss" = 1 ] || [ "$use_perf" = 0 ]; then
	use_time=1
fi

timer_pid=
start_timer() {
	[ "$o_timeout" != 0 ] || return 0
	# From 2^31 seconds (68 years) a timeout is no timeout, as in timeit
	# (lib/spawn.c arm_timeout).
	le "$o_timeout" 2147483647 || return 0
	(
		sp=
		trap '[ -z "$sp" ] || kill "$sp" 2>/dev/null; exit 0' TERM
		# The timeout counts from the run, as the summary's real does
		# (perf's elapsed time starts at its workload, after perf's own
		# start-up): from the setup link's pid file, written just after.
		while ! [ -e "$t/pid" ]; do
			[ -e "$t/status" ] && exit 0
			sleep 0.01
		done
		sleep "$o_timeout" &
		sp=$!
		wait "$sp" || exit 0
		: >"$t/timedout"
		while ! kill_cmd; do
			[ -e "$t/status" ] && exit 0
			sleep 0.01
		done
	) &
	timer_pid=$!
}

# wait_for PID: its status, after a stop signal or SIGALRM has killed the
# command.
wait_for() {
	while :; do
		# The signal may have come before the pid was written, or
		# before the run was started at all.
		if [ -n "$stop_signal" ]; then
			while ! kill_cmd && kill -0 "$1" 2>/dev/null && ! [ -e "$t/status" ]; do
				sleep 0.01
			done
		fi
		wait "$1"
		rc=$?
		# Above 128 also when a trap interrupted the wait (a stop
		# signal, SIGALRM): then the run is still there to wait for.
		{ [ "$rc" -gt 128 ] && kill -0 "$1" 2>/dev/null; } || break
	done
}

# measure: one run; sets $launched (the command was set up or run).
measure() {
	rm -f "$t/status" "$t/pid" "$t/fail" "$t/warn" "$t/csv" "$t/time" "$t/timedout"
	if [ "$use_time" = 1 ]; then
		set -- "$gnutime" -q -o "$t/time" -f '%e %U %S %M %x' "$@"
	fi
	start_timer
	if [ "$use_perf" = 1 ]; then
		LC_ALL=C "$perf" stat -x "$tab" -o "$t/csv" -e "$o_events" \
			-e duration_time -e user_time -e system_time \
			-- "$shell" -c "$run" sh "$t" "$@" 2>"$t/perf.err" &
	else
		"$shell" -c "$run" sh "$t" "$@" 2>"$t/perf.err" &
	fi
	wait_for $!
	measure_rc=$rc
	if [ -n "$timer_pid" ]; then
		kill "$timer_pid" 2>/dev/null
		wait "$timer_pid" 2>/dev/null
		timer_pid=
	fi
	[ -e "$t/status" ]
}

if [ "$use_perf" = 1 ] && ! measure "$@"; then
	# perf ended without running the chain: it cannot count here.
	perf_problem=$(grep -v -e '^[[:space:]]*$' -e '^#' "$t/perf.err" | head -n 3 |
		tr '\n' ' ' | sed 's/ *$//')
	[ -n "$perf_problem" ] || perf_problem="perf stat exited $measure_rc without running the command"
	use_perf=0
	if [ "$o_fallback" = 0 ] || [ "$have_time" = 0 ]; then
		# Nothing ran: the redirect files it created go again.
		exec 3<&- 4>&- 5>&-
		[ -z "$created_1" ] || rm -f -- "$created_1"
		[ -z "$created_2" ] || rm -f -- "$created_2"
		die "perf cannot count: $perf_problem"
	fi
	use_time=1
	note "perf cannot count ($perf_problem): times from $gnutime (rusage)"
	measure "$@" || die "$gnutime: the command was not run"
elif [ "$use_perf" = 0 ]; then
	note "perf unavailable ($perf_problem): times from $gnutime (rusage)"
	measure "$@" || die "$gnutime: the command was not run"
fi
exec 3<&- 4>&- 5>&-

# ---- what happened (lib/spawn.c ti_record_set_status) ----
read -r chain_rc <"$t/status"
time_line=
[ -s "$t/time" ] && time_line=$(tail -n 1 "$t/time")
end=exited signal=0
if [ -s "$t/fail" ]; then
	read -r what rest <"$t/fail"
	case $what in
	chdir:) end=setup status=$st_internal ;;
	*) end=exec status=$what ;;
	esac
elif [ -e "$t/timedout" ]; then
	end=timeout status=$st_killed
elif [ -n "$stop_signal" ]; then
	end=interrupted status=$st_killed
else
	status=$chain_rc
	if [ "$status" -gt 128 ]; then
		if [ -n "$time_line" ]; then
			# GNU time's %x is WEXITSTATUS: 0 for a signal.
			x=${time_line##* }
			[ "$x" != "$status" ] && end=signaled
		elif [ "$status" -le 192 ]; then
			end=signaled
		fi
	fi
	[ "$end" = signaled ] && signal=$((status - 128))
fi

if [ -s "$t/warn" ]; then
	while read -r l; do
		rest=${l#*:*:} name=${rest%%:*} val=${rest#*:}
		echo "$prog: warning: unable to set limit for $name (to {$val, $val})" >&2
	done <"$t/warn"
fi
case $end in
timeout) echo "$prog: TIMING OUT PROCESS: $cmd0" >&2 ;;
interrupted) echo "$prog: error: received signal $stop_signal. killing monitored process(es): $cmd0" >&2 ;;
signaled) echo "$prog: error: child terminated by signal $signal" >&2 ;;
exec)
	echo "$prog: execv: $rest" >&2
	# 'sleep 0.1; true' given as one word is a shell command.
	case $status:$cmd0 in
	127:*[[:blank:]\;\&\|\<\>\(\)\$\`\'\"\*\?]*)
		echo "$prog: hint: the command is one word with blanks or shell syntax in it; to run it through a shell: sh -c '$cmd0'" >&2
		;;
	esac
	;;
setup) echo "$prog: $what $rest" >&2 ;;
esac

status_out=$status
if [ "$o_append" = 1 ]; then
	if printf 'exit %d\n' "$status" 2>/dev/null >>"$o_stdout"; then
		status_out=0
	else
		# It was opened for the run: a failure now is the write's
		# (a full disk, /dev/full), unless the file went away since.
		if [ -w "$o_stdout" ]; then
			e="No space left on device"
		else
			e=$(errno_guess "$o_stdout" w)
		fi
		echo "$prog: --append-exitstatus: $o_stdout: $e" >&2
		status_out=$st_internal
	fi
fi

# ---- the summary (lib/summary.c) ----
# real: perf's duration_time (the run shell's life, exec to exit);
# user: task-clock when counted, else rusage user_time; sys: rusage
# system_time, which perf reads from its wait4() of the run shell.  perf
# prints "<not counted>" for a tool event that is 0.  Without perf, all
# three come from GNU time (%e %U %S, 10 ms).  maxrss: GNU time's %M (KiB).
[ -f "$t/csv" ] || : >"$t/csv"
LC_ALL=C awk -F "$tab" -v status="$status" -v end="$end" -v tl="$time_line" -v evlist="$o_events" \
	-v maxrss="$o_maxrss" -v posix="$o_posix" -v summary="$o_summary_set" -v lostfile="$t/lost" '
function key(n,   i) {
	for (i = 1; i <= 5; i++)
		if (index(n, reserved[i]) == 1)
			return "ev-" n
	return n
}
function is_time(n,   b) {
	b = n; sub(/:.*/, "", b)
	return b == "task-clock" || b == "cpu-clock"
}
BEGIN {
	split("user exit real sys maxrss", reserved, " ")
	n = split(tl, tf, " ")
}
/^#/ || NF < 3 { next }
# With perf_event_paranoid >= 2 an unprivileged perf counts user space only
# and says so with a ":u" it adds to every name; the keys stay the names
# asked for, as in timeit.
$3 ~ /:u$/ && index(evlist, $3) == 0 { sub(/:u$/, "", $3) }
$3 == "duration_time" { if ($1 ~ /^[0-9]/) real = $1 / 1e9; else real = 0; next }
$3 == "user_time" { if ($1 ~ /^[0-9]/) ut = $1 / 1e9; else ut = 0; next }
$3 == "system_time" { if ($1 ~ /^[0-9]/) st = $1 / 1e9; else st = 0; next }
# The CPU time the counters saw: the enabled time of an event (run time,
# field 4, over the fraction it ran) grows only while a process carrying
# it runs (lib/measure.c ti_record_check_lost).
$1 != "<not supported>" && $4 ~ /^[0-9]/ {
	en = ($5 + 0 > 0) ? $4 / ($5 / 100) : $4
	if (seen == "" || en > seen)
		seen = en
}
{
	if ($1 !~ /^[0-9]/)
		next
	ne++
	ename[ne] = $3
	eval[ne] = $1 + 0
	# perf: value, unit, event, run time, percentage running, ...
	epct[ne] = ($5 == "" ? 100 : $5 + 0)
	if ($3 == "task-clock")
		tc = $1 / 1e3
}
END {
	if (n >= 5) {
		if (real == "") real = tf[1]
		if (ut == "") ut = tf[2]
		if (st == "") st = tf[3]
		rss = tf[4] * 1024
	}
	# Counters detached at a privilege-changing exec (setuid, setgid, file
	# capabilities, an unreadable executable) saw less than 3/4 of the
	# CPU time rusage reports (perf reads it with wait4): none of them is
	# reported, user is the rusage time (timeit(1), MEASUREMENT; as
	# lib/measure.c does).  At least 30 ms short, where timeit needs 10: the
	# child perf forks runs, and tears down the address space of perf in its
	# exec, before the counters start (perf stat true: 5-6 ms of rusage
	# time no counter saw on a 2-CPU VM at load 5, a run with two
	# prlimit links 5-10 ms; read as lost once at 10 ms in CI).
	cpu = ut + st
	if (end != "exec" && end != "setup" && seen != "" && cpu > 0 &&
	    seen / 1e9 < 0.75 * cpu && cpu - seen / 1e9 >= 0.03) {
		printf "%.1f\n", 100 * seen / 1e9 / cpu > lostfile
		ne = 0
		tc = ""
	}
	user = (tc != "") ? tc : ut
	if (summary) {
		printf "exit %d\n", status
		printf "%-10s %.4f\n", "real", real
		printf "%-10s %.4f\n", "user", user
		printf "%-10s %.4f\n", "sys", st
		if (maxrss)
			printf "%-10s %.0f\n", "maxrss", rss
		# timeit counts nothing when the command was never executed.
		if (end == "exec" || end == "setup")
			exit
		for (i = 1; i <= ne; i++) {
			k = key(ename[i])
			if (is_time(ename[i]))
				printf "%-10s %.6f\n", k, eval[i] / 1e3
			else
				printf "%-10s %.0f\n", k, eval[i]
			if (epct[i] < 100)
				printf "%s-running %.4f\n", k, epct[i] / 100
		}
	} else if (posix) {
		printf "real %12.4f\nuser %12.4f\nsys  %12.4f\n", real, user, st
	} else {
		printf "%12.4f real %12.4f user %12.4f sys", real, user, st
		if (maxrss)
			printf " %12.0f maxrss", rss
		printf "\n"
	}
}' "$t/csv" >"$t/summary"

# perf's notes about events, as timeit's note_counters().
if [ -s "$t/lost" ]; then
	note "perf counters lost at a privilege-changing exec (setuid, setgid, file capabilities or an unreadable executable; they saw $(cat "$t/lost")% of the CPU time): times from rusage"
elif [ "$use_perf" = 1 ] && [ "$o_quiet" = 0 ] && { [ "$o_verbose" = 1 ] || [ "$o_events_set" = 1 ]; }; then
	awk -F "$tab" -v prog="$prog" -v evlist="$o_events" '
	/^#/ || NF < 3 { next }
	$3 ~ /:u$/ && index(evlist, $3) == 0 { sub(/:u$/, "", $3) }
	$3 == "duration_time" || $3 == "user_time" || $3 == "system_time" { next }
	$1 == "<not supported>" { printf "%s: note: event %s skipped: not supported on this machine\n", prog, $3 }
	$1 == "<not counted>" { printf "%s: note: event %s was never scheduled (not counted)\n", prog, $3 }
	' "$t/csv" >&2
fi
if [ "$o_verbose" = 1 ] && [ -s "$t/perf.err" ]; then
	sed "s/^/$prog: perf: /" "$t/perf.err" >&2
fi

if [ "$o_summary_set" = 0 ]; then
	cat "$t/summary" >&2
elif [ "$sum_direct" = 1 ]; then
	cat "$t/summary" >>"$sum_target" ||
		{ echo "$prog: --summary: $o_summary: write failed" >&2; status_out=$st_internal; }
elif [ "$sum_direct" = 3 ]; then
	cat "$t/summary" >&"$sum_fd" ||
		{ echo "$prog: --summary: $o_summary: write failed" >&2; status_out=$st_internal; }
elif [ "$sum_direct" = 2 ]; then
	cat "$t/summary" >"$sum_target" ||
		{ echo "$prog: --summary: $o_summary: write failed" >&2; status_out=$st_internal; }
else
	# mktemp makes 0600; a result file gets 0666 & ~umask, or the mode
	# of the file it replaces.  A rename that a sticky directory refuses
	# after all (root without CAP_FOWNER) leaves the file rewritten in
	# place, and so does a directory in which the command left no file to
	# be made (lib/outfile.c).
	if ! sum_tmp=$(mktemp -- "$sum_dir/.timeit.tmp.XXXXXX" 2>/dev/null); then
		sum_tmp=
		if [ -f "$sum_target" ] && [ -w "$sum_target" ]; then
			cat "$t/summary" >"$sum_target" ||
				{ echo "$prog: --summary: $o_summary: write failed" >&2; status_out=$st_internal; }
		else
			echo "$prog: --summary: $o_summary: $(errno_guess "$sum_target" w)" >&2
			status_out=$st_internal
		fi
	elif
		if [ -e "$sum_target" ]; then
			chmod --reference="$sum_target" -- "$sum_tmp" 2>/dev/null || :
		else
			chmod -- "$(printf '%o' $((0666 & ~0$(umask))))" "$sum_tmp"
		fi &&
		cat "$t/summary" >"$sum_tmp" &&
		{ mv -f -- "$sum_tmp" "$sum_target" 2>/dev/null ||
			{ [ -f "$sum_target" ] && [ -w "$sum_target" ] &&
				cat "$t/summary" >"$sum_target"; }; }; then
		rm -f -- "$sum_tmp"
		sum_tmp=
	else
		echo "$prog: --summary: $o_summary: write failed" >&2
		status_out=$st_internal
	fi
fi
exit "$status_out"
