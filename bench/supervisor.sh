#!/usr/bin/env bash
# Supervisor benchmark: the old design (commit 26725c8: every `runboard start` spawns a detached
# manager JVM for its session) against the new one (one supervisor JVM per data dir, clients on a
# Unix socket), side by side in one run:
#
#   1. start latency: wall time of `java -jar JAR start -- sleep 60`, ROUNDS rounds interleaved
#      old, new, hello (a hello-world JVM as the floor), after one warm-up of each; the new
#      design's warm-up brings its supervisor up, so its rounds meet a running supervisor.
#   2. memory with running sessions: N sessions of `sleep 600` in the new design (1 supervisor +
#      N wrappers), N_OLD in the old one (N_OLD manager JVMs + N_OLD wrappers), RSS / PSS /
#      Private_Dirty summed from /proc/PID/smaps_rollup, totals and per session.
#   3. a Markdown summary for docs/BENCHMARKS.md.
#
# It builds nothing: build each design with `./mvnw -o -q package -DskipTests` in a worktree at
# that commit and copy target/runboard.jar together with target/lib/ (the jar's Class-Path) to a
# folder of its own, then:
#
#   bench/supervisor.sh OLD_JAR NEW_JAR           or   OLD_JAR=... NEW_JAR=... bench/supervisor.sh
#
# Environment: ROUNDS (7), N (200), N_OLD (20: 200 old-design managers would need ~19 GB),
# JAVA (java), KILL_JOBS (2: `runboard kill` clients run at once while tearing down),
# SETTLE (3: seconds between "all running" and reading smaps), PAUSE (1: seconds between two
# timed starts, so that an old manager still warming up does not weigh on the next), WAIT_LIMIT (seconds to wait for
# the sessions to be listed running; default 60 + N/2), KEEP=1 keeps the temp folder.
# Small trial: N=5 N_OLD=3 ROUNDS=3 bench/supervisor.sh OLD_JAR NEW_JAR
#
# Every data dir is a fresh temp folder. The script ends every process it started: sessions by
# `runboard kill` (then a /proc sweep for processes whose environment has RUNBOARD_SESSION=<id>
# of one of its sessions), the new supervisor by `runboard supervisor stop`, the old managers
# (memory phase) by PID; an EXIT trap sweeps again whatever happens. It exits 1 when something
# tagged was left behind.
set -euo pipefail

# The tuning variables set by the caller, for the command line printed in the summary.
extra_env=""
for v in JAVA KILL_JOBS SETTLE WAIT_LIMIT KEEP; do
  [[ -n ${!v:-} ]] && extra_env+=" $v=${!v}"
done
invoked="$0${*:+ $*}"
OLD_JAR=${1:-${OLD_JAR:-}}
NEW_JAR=${2:-${NEW_JAR:-}}
ROUNDS=${ROUNDS:-7}
N=${N:-200}
N_OLD=${N_OLD:-20}
JAVA=${JAVA:-java}
KILL_JOBS=${KILL_JOBS:-2}
SETTLE=${SETTLE:-3}
PAUSE=${PAUSE:-1}
WAIT_LIMIT=${WAIT_LIMIT:-$((60 + N / 2))}
KEEP=${KEEP:-0}
PY=$(command -v python3)

die() { echo "supervisor.sh: $*" >&2; exit 1; }
for v in ROUNDS N N_OLD KILL_JOBS SETTLE WAIT_LIMIT; do
  [[ ${!v} =~ ^[0-9]+$ ]] || die "$v must be a whole number, not '${!v}'"
done
[[ $PAUSE =~ ^[0-9]+(\.[0-9]+)?$ ]] || die "PAUSE must be a number of seconds, not '$PAUSE'"
((ROUNDS >= 1 && N >= 1 && N_OLD >= 1 && KILL_JOBS >= 1)) || die "ROUNDS, N, N_OLD and KILL_JOBS must be at least 1"
[[ -n $OLD_JAR && -n $NEW_JAR ]] || die "usage: bench/supervisor.sh OLD_JAR NEW_JAR (or OLD_JAR=... NEW_JAR=...); it builds nothing, see its header"
for v in OLD_JAR NEW_JAR; do
  [[ -f ${!v} ]] || die "$v: no jar at ${!v}"
  printf -v "$v" '%s' "$(cd "$(dirname "${!v}")" && pwd)/$(basename "${!v}")"
  [[ -d $(dirname "${!v}")/lib ]] || die "$v: no lib/ beside ${!v} (copy target/lib with the jar)"
done
[[ -r /proc/self/smaps_rollup ]] || die "this kernel has no /proc/PID/smaps_rollup"
JAVAC=$(dirname "$(readlink -f "$(command -v "$JAVA")")")/javac
[[ -x $JAVAC ]] || JAVAC=$(command -v javac) || die "javac not found (needed for the hello-world baseline)"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/runboard-bench-supervisor.XXXXXX")
DATA_DIRS=()
status=0

# ---------------------------------------------------------------- /proc helper (python3, stdlib)
cat >"$WORK/rbproc.py" <<'PY'
import json, os, statistics, sys

ME = {os.getpid(), os.getppid()}

def pids():
    for name in os.listdir('/proc'):
        if name.isdigit() and int(name) not in ME:
            yield int(name)

def argv(pid):
    try:
        with open(f'/proc/{pid}/cmdline', 'rb') as f:
            return [a.decode('utf-8', 'replace') for a in f.read().split(b'\0') if a]
    except OSError:
        return []

def has_seq(args, seq):
    n = len(seq)
    return any(args[i:i + n] == seq for i in range(len(args) - n + 1))

def session_ids(dirs):
    ids = set()
    for d in dirs:
        try:
            ids.update(os.listdir(os.path.join(d, 'sessions')))
        except OSError:
            pass
    return ids

def tagged(dirs):
    """Processes whose environment carries RUNBOARD_SESSION=<id> of a session of these data dirs."""
    ids = session_ids(dirs)
    out = []
    if not ids:
        return out
    for pid in pids():
        try:
            with open(f'/proc/{pid}/environ', 'rb') as f:
                env = f.read().split(b'\0')
        except OSError:
            continue
        for e in env:
            if e.startswith(b'RUNBOARD_SESSION=') and e[17:].decode('utf-8', 'replace') in ids:
                out.append(pid)
                break
    return out

def jvms(d, kind):
    """runboard JVMs of data dir d: 'manager' (old design), 'supervisor' (new), 'any' (also clients)."""
    seq = {'manager': ['exec', '--data-dir', d, '--manager-id-file'],
           'supervisor': ['supervisor', 'run', '--data-dir', d],
           'any': ['--data-dir', d]}[kind]
    return [pid for pid in pids() if has_seq(argv(pid), seq)]

def owned(dirs):
    """Everything of these data dirs: runboard JVMs, wrappers, tagged processes."""
    found = set(tagged(dirs))
    for d in dirs:
        found.update(jvms(d, 'any'))
        wrap = os.path.join(d, 'bin', 'runboard-wrap.pl')
        found.update(pid for pid in pids() if wrap in argv(pid))
    return sorted(found)

def mem(pid_list):
    """found missing rss pss private_dirty (kB) summed over smaps_rollup."""
    tot = {'Rss': 0, 'Pss': 0, 'Private_Dirty': 0}
    found = missing = 0
    for pid in pid_list:
        try:
            with open(f'/proc/{pid}/smaps_rollup') as f:
                for line in f:
                    k, _, rest = line.partition(':')
                    if k in tot:
                        tot[k] += int(rest.split()[0])
            found += 1
        except (OSError, ValueError):
            missing += 1
    return f"{found} {missing} {tot['Rss']} {tot['Pss']} {tot['Private_Dirty']}"

def running(list_json, ids_file):
    """How many of the ids started are listed running with a live pid; then their pids."""
    with open(ids_file) as f:
        ids = {line.strip() for line in f if line.strip()}
    with open(list_json) as f:
        rows = json.load(f)
    live = [r['pid'] for r in rows
            if r.get('session_id') in ids and r.get('status') == 'running'
            and r.get('pid') and os.path.exists(f"/proc/{r['pid']}")]
    return live

def stats(us):
    v = sorted(int(x) / 1000 for x in us)
    return f'{v[0]:.0f} {statistics.median(v):.0f} {v[-1]:.0f}'

cmd, args = sys.argv[1], sys.argv[2:]
if cmd == 'tagged':
    print(*tagged(args))
elif cmd == 'jvms':
    print(*jvms(args[0], args[1]))
elif cmd == 'owned':
    print(*owned(args))
elif cmd == 'mem':
    print(mem(int(a) for a in args))
elif cmd == 'running':
    live = running(args[0], args[1])
    print(len(live), *live)
elif cmd == 'stats':
    print(stats(args))
elif cmd == 'report':
    r = {}
    with open(args[0]) as f:
        for line in f:
            k, _, v = line.rstrip('\n').partition('=')
            r[k] = v
    f1 = lambda x: f'{float(x):.1f}'
    mib = lambda kb: f'{int(kb) / 1024:.1f}'
    mib2 = lambda kb: f'{int(kb) / 1024:.2f}'
    per = lambda kb, n: f'{int(kb) / 1024 / int(n):.2f}'
    print(f"### Supervisor vs manager-per-session ({r['date']})")
    print()
    print(f"Machine: {r['nproc']} cores (`nproc`), {r['mem']}, load average at start {r['load']}; "
          f"JDK: {r['jdk']}; kernel {r['kernel']}.  ")
    print(f"Old design: `{r['old_jar']}` (sha256 {r['old_sha']}); new design: `{r['new_jar']}` (sha256 {r['new_sha']}).  ")
    print(f"Command: `{r['cmd']}`")
    print()
    print(f"**Start latency**: wall time of `java -jar JAR start -- sleep 60`, {r['rounds']} rounds interleaved old, new, hello "
          f"after one warm-up of each, {r['pause']} s apart (the new design's supervisor already running, as a user meets it).")
    print()
    print('| | min ms | median ms | max ms | median × hello-world JVM |')
    print('|---|---:|---:|---:|---:|')
    for key, label in (('hello', 'hello-world JVM (`java -cp DIR Hello`)'),
                       ('old', 'old: `start` spawns a manager JVM'),
                       ('new', 'new: `start` asks the running supervisor')):
        mn, md, mx = r[f'lat_{key}'].split()
        times = '1.00' if key == 'hello' else f"{float(md) / float(r['lat_hello'].split()[1]):.2f}"
        print(f'| {label} | {mn} | {md} | {mx} | {times} |')
    print(f"| **new / old (medians)** | | **{r['lat_ratio']}** | | |")
    print()
    print(f"**Memory with running sessions** (`sleep 600` each), from `/proc/PID/smaps_rollup`, MiB. "
          f"The new design ran {r['n_new']} sessions, the old one {r['n_old']} "
          f"(N_OLD, because {r['n_new']} old-design manager JVMs at ~{mib(int(r['old_jvm_rss']) // int(r['n_old']))} MiB RSS each "
          f"would take ~{int(r['old_jvm_rss']) / int(r['n_old']) * int(r['n_new']) / 1048576:.1f} GiB); compare the per-session columns. PSS splits pages shared between "
          f"processes (libjvm, the CDS archive, perl) among all that map them, other JVMs on the machine included. "
          f"The sessions' own `sleep` processes are not counted.")
    print()
    print('| design | sessions | runboard JVMs | JVM RSS total | JVM PSS total | JVM PSS / session '
          '| wrapper PSS / session | wrapper Private_Dirty / session | JVM + wrapper PSS / session |')
    print('|---|---:|---:|---:|---:|---:|---:|---:|---:|')
    for key, label in (('old', 'old (manager JVM per session)'), ('new', 'new (one supervisor)')):
        n = r[f'n_{key}']
        total = int(r[f'{key}_jvm_pss']) + int(r[f'{key}_wrap_pss'])
        print(f"| {label} | {n} | {r[f'{key}_jvm_count']} | {mib(r[f'{key}_jvm_rss'])} | {mib(r[f'{key}_jvm_pss'])} "
              f"| {per(r[f'{key}_jvm_pss'], n)} | {per(r[f'{key}_wrap_pss'], n)} | {per(r[f'{key}_wrap_pd'], n)} "
              f"| **{per(total, n)}** |")
    old_per = (int(r['old_jvm_pss']) + int(r['old_wrap_pss'])) / int(r['n_old'])
    new_per = (int(r['new_jvm_pss']) + int(r['new_wrap_pss'])) / int(r['n_new'])
    print()
    print(f"Per session the new design costs {new_per / old_per:.3f} × the old one in PSS "
          f"({new_per / 1024:.2f} vs {old_per / 1024:.2f} MiB); at {r['n_new']} sessions the old design would hold "
          f"~{old_per * int(r['n_new']) / 1024 / 1024:.1f} GiB against {new_per * int(r['n_new']) / 1024 / 1024:.2f} GiB.  ")
    print(f"Teardown: {r['teardown']}.")
else:
    sys.exit(f'rbproc: unknown command {cmd}')
PY
rbproc() { "$PY" "$WORK/rbproc.py" "$@"; }

# ---------------------------------------------------------------- cleanup
# Ends whatever of this run's data dirs is still alive: runboard JVMs first (so that no manager
# or supervisor acts on a session being killed), then wrappers and tagged processes.
sweep() { # data dirs... ; prints how many processes it had to end
  local pids="" n=0
  for d in "$@"; do pids+=" $(rbproc jvms "$d" any 2>/dev/null || true)"; done
  # shellcheck disable=SC2086
  [[ -n ${pids// /} ]] && { kill -TERM $pids 2>/dev/null || true; sleep 1; kill -KILL $pids 2>/dev/null || true; }
  for p in $pids; do n=$((n + 1)); done
  pids=$(rbproc owned "$@" 2>/dev/null || true)
  # shellcheck disable=SC2086
  [[ -n ${pids// /} ]] && kill -KILL $pids 2>/dev/null || true
  for p in $pids; do n=$((n + 1)); done
  echo "$n"
}
cleanup() {
  local rc=$? left
  trap - EXIT INT TERM
  # A signal that lands during `rb ... >file` runs this trap with that redirection still in
  # force (rb is a function): write to the script's own stdout and stderr.
  exec 1>&7 2>&8
  # shellcheck disable=SC2046
  kill $(jobs -p) 2>/dev/null || true
  if ((${#DATA_DIRS[@]})); then
    left=$(sweep "${DATA_DIRS[@]}")
    if ((left > 0)); then
      echo "supervisor.sh: exit trap ended $left leftover process(es) of this run" >&2
    fi
    sleep 0.2
    left=$(rbproc owned "${DATA_DIRS[@]}" 2>/dev/null || true)
    [[ -z $left ]] || echo "supervisor.sh: STILL ALIVE after the exit trap: $left" >&2
  fi
  if [[ $KEEP == 1 ]]; then echo "supervisor.sh: kept $WORK" >&2; else rm -rf "$WORK"; fi
  exit "$rc"
}
exec 7>&1 8>&2
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# ---------------------------------------------------------------- helpers
jar_of() { case $1 in old) echo "$OLD_JAR" ;; new) echo "$NEW_JAR" ;; esac; }
rb() { local design=$1; shift; "$JAVA" -jar "$(jar_of "$design")" "$@"; }
# A fresh data dir in DD (not echoed: DATA_DIRS must grow in this shell, not in a $(...) subshell).
new_data_dir() { DD=$(mktemp -d "$WORK/$1.XXXX"); DATA_DIRS+=("$DD"); }
res() { echo "$1=$2" >>"$WORK/results"; }
wait_gone() { # seconds pids... ; 0 when all are gone
  local limit=$1 p alive; shift
  for ((i = 0; i < limit * 10; i++)); do
    alive=0
    for p in "$@"; do [[ -d /proc/$p ]] && alive=1; done
    ((alive)) || return 0
    sleep 0.1
  done
  return 1
}
# CLI kill of every id in a file, KILL_JOBS at a time; prints how many kills exited non-zero.
cli_kill() { # design data_dir ids_file
  local fails
  fails=$(xargs -a "$3" -P "$KILL_JOBS" -I{} sh -c \
    '"$1" -jar "$2" kill --data-dir "$3" --grace 0 "$4" >/dev/null 2>&1 || echo fail' \
    sh "$JAVA" "$(jar_of "$1")" "$2" {} | wc -l)
  echo "$fails"
}
# Kills (SIGKILL) what is still tagged with a session of this data dir; prints how many.
sweep_tagged() {
  local pids n=0
  pids=$(rbproc tagged "$1")
  # shellcheck disable=SC2086
  [[ -n $pids ]] && kill -KILL $pids 2>/dev/null || true
  for p in $pids; do n=$((n + 1)); done
  echo "$n"
}
# What is still alive of this data dir (JVMs, wrappers, tagged); empty when clean.
leftovers() { sleep 0.3; rbproc owned "$1"; }
mb() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }
mbper() { awk -v k="$1" -v n="$2" 'BEGIN { printf "%.2f", k / 1024 / n }'; }

# Starts one session and times it; sets START_US and START_ID.
timed_start() { # design data_dir duration
  local t0 t1 out="$WORK/start.out" err="$WORK/start.err"
  t0=${EPOCHREALTIME/./}
  if ! rb "$1" start --data-dir "$2" -- sleep "$3" >"$out" 2>"$err"; then
    cat "$err" >&2; die "$1: runboard start failed"
  fi
  t1=${EPOCHREALTIME/./}
  START_US=$((t1 - t0))
  START_ID=$(head -n1 "$out")
  [[ -n $START_ID ]] || die "$1: runboard start printed no session id"
}
timed_hello() {
  local t0 t1
  t0=${EPOCHREALTIME/./}
  "$JAVA" -cp "$WORK/hello" Hello >/dev/null
  t1=${EPOCHREALTIME/./}
  START_US=$((t1 - t0))
}

# ---------------------------------------------------------------- header
cd "$WORK" # the sessions' working folder
jdk=$("$JAVA" -version 2>&1 | sed -n 2p | sed 's/ *$//')
date_utc=$(date -u '+%Y-%m-%d %H:%M UTC')
cmd="ROUNDS=$ROUNDS N=$N N_OLD=$N_OLD PAUSE=$PAUSE$extra_env OLD_JAR=$OLD_JAR NEW_JAR=$NEW_JAR bench/supervisor.sh"
res date "$date_utc"
res nproc "$(nproc)"
res mem "$(awk '/^MemTotal/ { printf "%.0f GiB RAM", $2 / 1048576 }' /proc/meminfo)"
res load "$(cut -d' ' -f1-3 /proc/loadavg)"
res jdk "$jdk"
res kernel "$(uname -r)"
res cmd "$cmd"
res old_jar "$OLD_JAR"
res new_jar "$NEW_JAR"
res old_sha "$(sha256sum "$OLD_JAR" | cut -c1-12)"
res new_sha "$(sha256sum "$NEW_JAR" | cut -c1-12)"
res rounds "$ROUNDS"
res pause "$PAUSE"
echo "== runboard supervisor benchmark, $date_utc"
echo "   $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $jdk"
echo "   old: $OLD_JAR"
echo "   new: $NEW_JAR"
echo "   command: $cmd"
[[ $invoked == "$0" ]] || echo "   invoked as: $invoked"
echo "   temp folder: $WORK"

# ---------------------------------------------------------------- 1. start latency
echo
echo "== 1. start latency: $ROUNDS rounds of 'start -- sleep 60', interleaved old, new, hello (after one warm-up each, $PAUSE s apart)"
mkdir -p "$WORK/hello"
printf 'public class Hello { public static void main(String[] a) { System.out.println("hello"); } }\n' >"$WORK/hello/Hello.java"
"$JAVAC" -d "$WORK/hello" "$WORK/hello/Hello.java"
new_data_dir lat-old; lat_old=$DD
new_data_dir lat-new; lat_new=$DD
: >"$WORK/lat-old.ids"; : >"$WORK/lat-new.ids"
timed_start old "$lat_old" 60; echo "$START_ID" >>"$WORK/lat-old.ids"; w_old=$START_US
timed_start new "$lat_new" 60; echo "$START_ID" >>"$WORK/lat-new.ids"; w_new=$START_US
timed_hello; w_hello=$START_US
sup_pid=$(rbproc jvms "$lat_new" supervisor)
[[ -n $sup_pid ]] || die "new: no supervisor running after the warm-up start"
printf '   warm-up: old %d ms, new %d ms (starts the supervisor, pid %s), hello %d ms\n' \
  $((w_old / 1000)) $((w_new / 1000)) "$sup_pid" $((w_hello / 1000))
us_old=() us_new=() us_hello=()
for ((r = 1; r <= ROUNDS; r++)); do
  sleep "$PAUSE"; timed_start old "$lat_old" 60; echo "$START_ID" >>"$WORK/lat-old.ids"; us_old+=("$START_US")
  sleep "$PAUSE"; timed_start new "$lat_new" 60; echo "$START_ID" >>"$WORK/lat-new.ids"; us_new+=("$START_US")
  sleep "$PAUSE"; timed_hello; us_hello+=("$START_US")
  printf '   round %d: old %4d ms   new %4d ms   hello %4d ms\n' "$r" \
    $((us_old[-1] / 1000)) $((us_new[-1] / 1000)) $((us_hello[-1] / 1000))
done
[[ $(rbproc jvms "$lat_new" supervisor) == "$sup_pid" ]] || echo "   WARNING: the new design's supervisor changed during the rounds"
read -r o_min o_med o_max <<<"$(rbproc stats "${us_old[@]}")"
read -r n_min n_med n_max <<<"$(rbproc stats "${us_new[@]}")"
read -r h_min h_med h_max <<<"$(rbproc stats "${us_hello[@]}")"
res lat_old "$o_min $o_med $o_max"
res lat_new "$n_min $n_med $n_max"
res lat_hello "$h_min $h_med $h_max"
ratio=$(awk -v a="$n_med" -v b="$o_med" 'BEGIN { printf "%.2f", a / b }')
res lat_ratio "$ratio"
echo
printf '   %-24s %8s %8s %8s %14s\n' "" "min ms" "median" "max ms" "median×hello"
printf '   %-24s %8s %8s %8s %14s\n' "hello-world JVM" "$h_min" "$h_med" "$h_max" "1.00"
printf '   %-24s %8s %8s %8s %14s\n' "old (manager per start)" "$o_min" "$o_med" "$o_max" \
  "$(awk -v a="$o_med" -v b="$h_med" 'BEGIN { printf "%.2f", a / b }')"
printf '   %-24s %8s %8s %8s %14s\n' "new (supervisor up)" "$n_min" "$n_med" "$n_max" \
  "$(awk -v a="$n_med" -v b="$h_med" 'BEGIN { printf "%.2f", a / b }')"
echo "   new/old ratio of medians: $ratio"

echo "   cleaning up: runboard kill --grace 0 per session, then a /proc sweep for RUNBOARD_SESSION tags"
for design in old new; do
  dd=lat_$design
  fails=$(cli_kill "$design" "${!dd}" "$WORK/lat-$design.ids")
  extra=""
  if [[ $design == new ]]; then
    rb new supervisor stop --data-dir "${!dd}" >/dev/null 2>&1 || extra=" (supervisor stop failed)"
    wait_gone 15 $sup_pid || { extra+=" (supervisor still up after stop: killed)"; kill -KILL $sup_pid 2>/dev/null || true; }
  else
    # the managers end with their sessions
    # shellcheck disable=SC2046
    wait_gone 15 $(rbproc jvms "${!dd}" manager) || extra=" (managers still up 15 s after the kills)"
  fi
  swept=$(sweep_tagged "${!dd}")
  left=$(leftovers "${!dd}")
  echo "   $design: $(wc -l <"$WORK/lat-$design.ids") sessions, $fails kill(s) failed (a session that already ended counts here), $swept straggler(s) swept$extra; left: ${left:-none}"
  if [[ -n $left ]]; then status=1; fi
done

# ---------------------------------------------------------------- 2. memory
echo
echo "== 2. memory with running sessions ('sleep 600'): new design N=$N, old design N_OLD=$N_OLD"
echo "   (old with N_OLD, not N: every old session holds its own manager JVM, ~95 MB RSS; N=$N would need ~$((N * 95 / 1000)) GB."
echo "    Per-session figures compare; totals do not.)"
mem_phase() { # design n
  local design=$1 n=$2 dd ids t0 waited live pids
  new_data_dir "mem-$design"; dd=$DD
  ids="$WORK/mem-$design.ids"
  : >"$ids"
  t0=$SECONDS
  for ((i = 1; i <= n; i++)); do
    timed_start "$design" "$dd" 600
    echo "$START_ID" >>"$ids"
  done
  echo "   $design: started $n sessions in $((SECONDS - t0)) s; waiting until all are listed running"
  t0=$SECONDS
  while :; do
    rb "$design" list --json --data-dir "$dd" >"$WORK/list.json" 2>"$WORK/list.err" || true
    read -r live pids <<<"$(rbproc running "$WORK/list.json" "$ids" 2>/dev/null || echo 0)"
    ((live == n)) && break
    ((SECONDS - t0 < WAIT_LIMIT)) || die "$design: only $live of $n sessions listed running after $WAIT_LIMIT s"
    sleep 1
  done
  waited=$((SECONDS - t0))
  sleep "$SETTLE"
  local jvm_kind=manager; [[ $design == new ]] && jvm_kind=supervisor
  local jvm_pids jc jm jrss jpss jpd wc wm wrss wpss wpd
  jvm_pids=$(rbproc jvms "$dd" "$jvm_kind")
  # shellcheck disable=SC2086
  read -r jc jm jrss jpss jpd <<<"$(rbproc mem $jvm_pids)"
  # shellcheck disable=SC2086
  read -r wc wm wrss wpss wpd <<<"$(rbproc mem $pids)"
  res "n_$design" "$n"
  res "${design}_jvm_count" "$jc"
  res "${design}_jvm_rss" "$jrss"
  res "${design}_jvm_pss" "$jpss"
  res "${design}_wrap_pss" "$wpss"
  res "${design}_wrap_pd" "$wpd"
  echo "   $design: all $n running after ${waited} s (+${SETTLE} s settle); $jc $jvm_kind JVM(s), $wc wrapper(s)"
  if [[ $design == new ]]; then
    echo "     supervisor (pid $jvm_pids): RSS $(mb "$jrss") MiB, PSS $(mb "$jpss") MiB, Private_Dirty $(mb "$jpd") MiB;" \
      "per session: PSS $(mbper "$jpss" "$n") MiB"
  else
    ((jc == n)) || echo "     WARNING: $jc managers for $n sessions"
    echo "     managers: RSS $(mb "$jrss") MiB total, $(mbper "$jrss" "$n") MiB per session;" \
      "PSS $(mb "$jpss") MiB total, $(mbper "$jpss" "$n") MiB per session"
  fi
  echo "     wrappers: PSS $(mb "$wpss") MiB total, $(mbper "$wpss" "$n") MiB per session;" \
    "Private_Dirty $(mb "$wpd") MiB total, $(mbper "$wpd" "$n") MiB per session"
  echo "     runboard per session (JVM PSS + wrapper PSS): $(mbper $((jpss + wpss)) "$n") MiB"

  # teardown
  local fails swept left note
  if [[ $design == new ]]; then
    fails=$(cli_kill new "$dd" "$ids")
    rb new supervisor stop --data-dir "$dd" >/dev/null 2>&1 || true
    # shellcheck disable=SC2086
    wait_gone 15 $jvm_pids || { kill -KILL $jvm_pids 2>/dev/null || true; }
    note="new: runboard kill --grace 0 per id ($fails failed), supervisor stop"
  else
    # shellcheck disable=SC2086
    kill -TERM $jvm_pids 2>/dev/null || true
    # shellcheck disable=SC2086
    wait_gone 10 $jvm_pids || { kill -KILL $jvm_pids 2>/dev/null || true; }
    note="old: managers ended by PID (TERM)"
  fi
  swept=$(sweep_tagged "$dd")
  left=$(leftovers "$dd")
  note+=", $swept tagged process(es) swept, left: ${left:-none}"
  echo "     teardown: $note"
  [[ -z $left ]] || status=1
  TEARDOWN+="${TEARDOWN:+; }$note"
}
TEARDOWN=""
mem_phase old "$N_OLD"
mem_phase new "$N"
res teardown "$TEARDOWN"

# ---------------------------------------------------------------- 3. summary
echo
echo "== 3. summary (Markdown, for docs/BENCHMARKS.md)"
echo
rbproc report "$WORK/results"
exit "$status"
