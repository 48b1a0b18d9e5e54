#!/usr/bin/env bash
# Start-up cost of the CLI (issue 16): each command's wall and CPU time against a hello-world JVM's, side by
# side in one run, rounds interleaved (hello, then every command through every launcher, then again).
#
#   bench/startup.sh [ROUNDS]        default 7; needs target/runboard.jar (./mvnw -B package -DskipTests)
#
# Launchers (each with a data dir of its own, so each client talks to a supervisor of its own kind):
#   script   bin/runboard (class-data archive in the cache, C1 and the serial GC for the CLI)
#   app      target/dist/runboard/bin/runboard, the jpackage app-image (packaging/build.sh) — when built
#   jar      java -jar target/runboard.jar, for reference
#   before   java -jar $BEFORE_JAR, when set: another build (e.g. the commit before issue 16) with its lib/ beside it
# Commands: `exec -- true`; `start -- sleep 60`, `list`, `show ID`, `kill ID` against a supervisor that is
# already up (the warm-up round brings it up); and `list` of a heavy user's history (SESSIONS=10000 ended
# sessions, records written here from one real record, retention raised to keep them), once with its
# supervisor up ("list 10k") and once with none, answered from the index the last one left ("list 10k idle").
# The hello-world JVM is a one-class jar built here with javac.
# Prints a table of medians (wall s, CPU s = user + sys, max RSS MiB) and wall ÷ hello's wall; every round's
# figures go to a TSV in the temp folder (kept with KEEP=1). Ends every session and supervisor it started.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-7}
JAVA=${JAVA:-java}
JAR=target/runboard.jar
APP=target/dist/runboard/bin/runboard
[ -f "$JAR" ] || { echo "startup.sh: no $JAR; build it with ./mvnw -B package -DskipTests" >&2; exit 1; }
command -v javac >/dev/null || { echo "startup.sh: needs javac (a JDK) for the hello-world baseline" >&2; exit 1; }

work="$(mktemp -d)"
export XDG_CACHE_HOME="$work/cache" # a fresh archive: bin/runboard makes it in the warm-up
launchers=(script jar)
[ -x "$APP" ] && launchers=(script app jar) || echo "(no app-image at $APP: build it with packaging/build.sh to include it)"
[ -n "${BEFORE_JAR:-}" ] && launchers+=(before)
cleanup() {
  for l in "${launchers[@]}"; do
    [ -s "$work/$l.shown" ] && RUNBOARD_HOME="$work/$l" run_quiet "$l" kill "$(cat "$work/$l.shown")"
    RUNBOARD_HOME="$work/$l" run_quiet "$l" supervisor stop || true
  done
  for big in big-up big-idle; do
    if [ -d "$work/$big" ]; then RUNBOARD_HOME="$work/$big" run_quiet jar supervisor stop || true; fi
  done
  # A session a failed kill left behind: its environment names our data dirs.
  for p in /proc/[0-9]*; do
    { tr '\0' '\n' <"$p/environ"; } 2>/dev/null | grep -q "^RUNBOARD_HOME=$work/" && kill -9 "${p#/proc/}" 2>/dev/null
  done
  [ "${KEEP:-0}" = 1 ] && echo "kept $work" || rm -rf "$work"
}
cmd_of() { # LAUNCHER: sets CMD to its command line
  case "$1" in
    script) CMD=(bin/runboard) ;;
    app) CMD=("$APP") ;;
    jar) CMD=("$JAVA" -jar "$JAR") ;;
    before) CMD=("$JAVA" -jar "$BEFORE_JAR") ;;
    hello) CMD=("$JAVA" -cp "$work/hello" Hello) ;;
  esac
}
run_quiet() { cmd_of "$1"; shift; "${CMD[@]}" "$@" </dev/null >/dev/null 2>&1; }
trap cleanup EXIT

mkdir -p "$work/hello"
printf 'public class Hello { public static void main(String[] a) { System.out.println("hello"); } }\n' >"$work/hello/Hello.java"
javac -d "$work/hello" "$work/hello/Hello.java"

# A heavy user's history: copies of one real ended session's record under new ids, in two data dirs.
SESSIONS=${SESSIONS:-10000}
big_history() { # DIR
  RUNBOARD_HOME="$1" run_quiet jar exec -- true
  RUNBOARD_HOME="$1" run_quiet jar config set keep_finished $((SESSIONS * 2))
  python3 - "$1" "$SESSIONS" <<'PY'
import os, sys
home, n = sys.argv[1], int(sys.argv[2])
sessions = os.path.join(home, "sessions")
(one,) = os.listdir(sessions)
template = open(os.path.join(sessions, one, "session.json")).read()
for i in range(1, n):
    sid = "20261101-%02d%02d%02d-%06x" % (i // 3600, i // 60 % 60, i % 60, i)
    d = os.path.join(sessions, sid)
    os.mkdir(d, 0o700)
    for name, text in (("session.json", template.replace(one, sid)), ("capture.log", "")):
        fd = os.open(os.path.join(d, name), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        os.write(fd, text.encode())
        os.close(fd)
PY
}
echo "writing two data dirs of $SESSIONS ended sessions"
big_history "$work/big-up"
big_history "$work/big-idle"
# The first list brings a supervisor up to load the history; stopped, it leaves the index for "list 10k idle".
RUNBOARD_HOME="$work/big-idle" run_quiet jar list
RUNBOARD_HOME="$work/big-idle" run_quiet jar supervisor stop
RUNBOARD_SUPERVISOR_IDLE=3600 RUNBOARD_HOME="$work/big-up" run_quiet jar list

tsv="$work/rounds.tsv"
printf 'round\tlauncher\tcommand\twall_s\tcpu_s\trss_kib\n' >"$tsv"
# timed ROUND LAUNCHER NAME ARGS...: one timed run; its stdout is kept in $work/last.out.
timed() {
  local round="$1" l="$2" name="$3"
  shift 3
  cmd_of "$l"
  RUNBOARD_HOME="${HOME_OF:-$work/$l}" /usr/bin/time -o "$work/time" -f '%e %U %S %M' "${CMD[@]}" "$@" \
    </dev/null >"$work/last.out" 2>"$work/last.err" || true
  read -r wall user sys rss <"$work/time"
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$round" "$l" "$name" "$wall" "$(awk "BEGIN { print $user + $sys }")" "$rss" >>"$tsv"
}

echo "warm-up: archives, supervisors, page cache"
for l in "${launchers[@]}"; do
  RUNBOARD_HOME="$work/$l" run_quiet "$l" exec -- true || true
  cmd_of "$l"
  RUNBOARD_HOME="$work/$l" "${CMD[@]}" start -- sleep 600 </dev/null >"$work/$l.shown" 2>/dev/null
done
run_quiet hello

for ((r = 1; r <= ROUNDS; r++)); do
  timed "$r" hello hello
  for l in "${launchers[@]}"; do
    timed "$r" "$l" "exec -- true" exec -- true
    timed "$r" "$l" "start" start -- sleep 60
    id="$(cat "$work/last.out")"
    timed "$r" "$l" "list" list
    timed "$r" "$l" "show" show "$(cat "$work/$l.shown")"
    timed "$r" "$l" "kill" kill "$id"
    HOME_OF="$work/big-up" timed "$r" "$l" "list 10k" list
    # (not the build before the index: it would bring a supervisor up in big-idle for the others to meet)
    if [ "$l" != before ]; then
      HOME_OF="$work/big-idle" timed "$r" "$l" "list 10k idle" list
      [ "$(wc -l <"$work/last.out")" -eq $((SESSIONS + 1)) ] || echo "list 10k idle printed $(wc -l <"$work/last.out") lines" >&2
    fi
  done
  echo "round $r of $ROUNDS done (load $(cut -d' ' -f1 /proc/loadavg))"
done

python3 - "$tsv" <<'EOF'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter='\t'))
med = lambda xs: statistics.median(xs)
hello = med([float(r['wall_s']) for r in rows if r['launcher'] == 'hello'])
hello_cpu = med([float(r['cpu_s']) for r in rows if r['launcher'] == 'hello'])
print(f"\nhello-world JVM: wall {hello:.3f} s, CPU {hello_cpu:.3f} s (medians of {sum(r['launcher'] == 'hello' for r in rows)})\n")
print("| command | launcher | wall s | ÷ hello | CPU s | max RSS MiB | rounds (wall s) |")
print("|---|---|---|---|---|---|---|")
for cmd in ["exec -- true", "start", "list", "show", "kill", "list 10k", "list 10k idle"]:
    for l in ["script", "app", "jar", "before"]:
        rs = [r for r in rows if r['launcher'] == l and r['command'] == cmd]
        if not rs:
            continue
        wall = med([float(r['wall_s']) for r in rs])
        cpu = med([float(r['cpu_s']) for r in rs])
        rss = med([int(r['rss_kib']) for r in rs]) / 1024
        print(f"| `{cmd}` | {l} | {wall:.3f} | {wall / hello:.1f}× | {cpu:.3f} | {rss:.0f} | {' '.join(r['wall_s'] for r in rs)} |")
EOF
