#!/usr/bin/env bash
# `runboard exec` end to end against the shell (issue 16): the same command redirected to a file by the shell
# (`sh -c 'CMD > FILE'`) and run through `runboard exec`, JVM start and end included, rounds interleaved.
#
#   bench/exec-end-to-end.sh [--bytes 1G] [--rounds 7] [--before DIR] [--no-cmp] [--only "script app ..."]
#
# Launchers: bin/runboard (its class-data archive made in a fresh cache by the warm-up), the app-image's
# target/dist/runboard/bin/runboard when built (packaging/build.sh app-image), and with --before DIR another
# build laid out as DIR/runboard (its bin/runboard script), DIR/runboard.jar and DIR/lib/ (e.g. the commit
# before a change: `cp bin/runboard target/runboard.jar DIR && cp -r target/lib DIR`). Beside them, "floor":
# bench/ExecFloor.java, the least any JVM front end must do (start, launch with the output redirected to a
# file, wait, fsync a record, exit) with bin/runboard's exec options and a class-data archive of its own, so
# the table shows how much of exec's cost is the JVM's and how much runboard's; and "floor-wrap", the same
# launching through runboard's Perl wrapper (taken from the jar) as runboard does; and "floor-early", where a
# shell script launches the command through that wrapper before the floor's JVM starts (the JVM only waits
# for it): what a front end costs that overlaps the JVM's start with the command. And "supervised": bin/runboard
# with the data dir's supervisor up (started before the rounds, stopped at the end), which takes over the command
# bin/runboard launched early, so that no JVM starts beside it (bin/runboard-exec.pl); its CPU counts the
# supervisor's over each run (from /proc) beside the client's.
# Each round (the order of the variants rotates between rounds) runs, with `sync` before each timed run:
#   - the 1 GiB command by the shell and through each launcher: wall time, ratio exec ÷ shell, and the fixed
#     cost on both sides of the command: "pre" = from just before the launch (bash's $EPOCHREALTIME, no fork)
#     to the command's first instruction (`date +%s%N` written to a side file), "post" = from the command's
#     last instruction to the launcher's exit; the shell has the same two, so exec's own cost is the difference;
#     and the CPU of each (user+sys by GNU time, the command's own included: exec's beyond the shell's is the
#     JVM's and the wrapper's, the figure least bent by a busy machine);
#   - a hello-world JVM and `exec -- true` through each launcher (wall, CPU = user+sys by GNU time);
#   - the same output cut to 16 MiB by the shell and through each launcher: the CPU of a whole exec whose
#     preview is cut, less the shell's, is runboard's fixed cost around a big output, on a busy machine too.
# Every round checks the exit code, the snapshot's status and artifact, its size and (unless --no-cmp) its
# bytes against the command's output (made once by the shell), then deletes it. Temp files under a mktemp -d, removed at exit.
set -euo pipefail
cd "$(dirname "$0")/.."

BYTES=1G
ROUNDS=7
BEFORE=
CMP=1
ONLY= # e.g. "script": only these launchers beside the shell (more rounds in the same time)
while [ $# -gt 0 ]; do
  case "$1" in
    --bytes) BYTES=$2; shift 2 ;;
    --rounds) ROUNDS=$2; shift 2 ;;
    --before) BEFORE=$2; shift 2 ;;
    --no-cmp) CMP=0; shift ;;
    --only) ONLY=$2; shift 2 ;;
    -h|--help) awk 'NR > 1 && /^#/ { print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "exec-end-to-end.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
  esac
done
[ -f target/runboard.jar ] || { echo "exec-end-to-end.sh: no target/runboard.jar; build it with ./mvnw -B package -DskipTests" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "exec-end-to-end.sh: needs GNU time at /usr/bin/time" >&2; exit 1; }
command -v javac >/dev/null || { echo "exec-end-to-end.sh: needs javac (a JDK) for the hello-world baseline" >&2; exit 1; }
[ "${BASH_VERSINFO[0]}" -ge 5 ] || { echo "exec-end-to-end.sh: needs bash 5 (\$EPOCHREALTIME)" >&2; exit 1; }

work=$(mktemp -d)
supervised_dirs=()
declare -A supervisor_pid # data dir -> its supervisor's pid, for "supervised"
stop_supervisors() { # and wait for them to exit: a supervisor writes its list index as it goes
  local d n
  for d in ${supervised_dirs[@]+"${supervised_dirs[@]}"}; do
    bin/runboard supervisor stop --data-dir "$d" >/dev/null 2>&1 || true
    for ((n = 0; n < 100; n++)); do [ -d "/proc/${supervisor_pid[$d]:-0}" ] || break; sleep 0.1; done
  done
}
trap 'stop_supervisors; rm -rf "$work"' EXIT
export XDG_CACHE_HOME="$work/cache" # bin/runboard makes a fresh archive in the warm-up
size=$(numfmt --from=iec "$BYTES")
need=$((size * 3 + 512 * 1024 * 1024))
avail=$(($(df -Pk "$work" | awk 'NR==2 {print $4}') * 1024))
[ "$avail" -ge "$need" ] || { echo "exec-end-to-end.sh: need $(numfmt --to=iec $need) free under $work" >&2; exit 1; }

launchers=(script supervised floor floor-wrap floor-early)
[ -x target/dist/runboard/bin/runboard ] && launchers+=(app) || echo "(no app-image: packaging/build.sh app-image adds it)"
if [ -n "$ONLY" ]; then
  read -r -a launchers <<<"$ONLY"
fi
if [ -n "$BEFORE" ]; then
  [ -x "$BEFORE/runboard" ] && [ -f "$BEFORE/runboard.jar" ] || { echo "exec-end-to-end.sh: --before $BEFORE has no runboard and runboard.jar" >&2; exit 1; }
  mkdir -p "$work/before" && cp -r "$BEFORE/runboard" "$BEFORE/runboard.jar" "$work/before/"
  [ -d "$BEFORE/lib" ] && cp -r "$BEFORE/lib" "$work/before/"
  launchers+=(before)
fi
# The floor's JVM runs with bin/runboard's options for exec and a class-data archive of its own (below).
floor_opts=(-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -XX:-UsePerfData -Xss512k)
floor_java=(java "${floor_opts[@]}" -XX:CompileThresholdScaling=10 -XX:SharedArchiveFile="$work/floor.jsa")
cmd_of() {
  case "$1" in
    script | supervised) CMD=(bin/runboard) ;;
    app) CMD=(target/dist/runboard/bin/runboard) ;;
    before) CMD=("$work/before/runboard") ;;
    floor) CMD=("${floor_java[@]}" -cp "$work/floor.jar" ExecFloor) ;;
    floor-wrap) CMD=("${floor_java[@]}" -Dfloor.wrap="$work/runboard-wrap.pl" -cp "$work/floor.jar" ExecFloor) ;;
    floor-early) CMD=(bash "$work/early-launch.sh" "${floor_java[@]}" -cp "$work/floor.jar" ExecFloor) ;;
    hello) CMD=(java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -XX:-UsePerfData -Xshare:auto -cp "$work/hello" Hello) ;;
  esac
}
mkdir -p "$work/hello"
printf 'public class Hello { public static void main(String[] a) { System.out.println("hello"); } }\n' >"$work/hello/Hello.java"
javac -d "$work/hello" "$work/hello/Hello.java" bench/ExecFloor.java
jar cf "$work/floor.jar" -C "$work/hello" ExecFloor.class # a class-data archive takes no class folder
jar_file="$PWD/target/runboard.jar" # runboard's wrapper script, for floor-wrap
(cd "$work" && jar xf "$jar_file" dev/runboard/process/runboard-wrap.pl && mv dev/runboard/process/runboard-wrap.pl . && rm -r dev)
# floor-early: a shell script launches the command through the wrapper (its output redirected to the file)
# before the JVM starts, then execs into the floor's JVM, which waits for that child: the JVM's start
# overlaps the command. Called as the others are: early-launch.sh JAVA... exec [--shell SH] --data-dir DIR -- CMD.
cat >"$work/early-launch.sh" <<'SH'
jvm=()
while [ "$1" != exec ]; do jvm+=("$1"); shift; done
shell=/bin/sh args=("$@")
set -- "${args[@]:1}"
while [ "$1" != -- ]; do
  case "$1" in --shell) shell=$2 ;; --data-dir) dir=$2 ;; esac
  shift 2
done
command=$2
set -- "${args[@]}"
mkdir -p "$dir"
# <&0: a background job of a script would otherwise read /dev/null; exec's command reads exec's stdin.
perl "${0%/*}/runboard-wrap.pl" "$dir/exit-status" 0 2000 "$shell" -c "$command" <&0 >"$dir/output.log" 2>&1 &
exec "${jvm[@]:0:${#jvm[@]}-3}" -Dfloor.early=$! "${jvm[@]: -3}" "$@"
SH
# The floor's class-data archive, made as bin/runboard makes its own: one training exec.
java "${floor_opts[@]}" -XX:ArchiveClassesAtExit="$work/floor.jsa" -cp "$work/floor.jar" ExecFloor \
  exec --shell /bin/sh --data-dir "$work/floor-training" -- true </dev/null >/dev/null 2>&1

LINE='runboard capture benchmark line .................................................................'
# The command stamps its own first and last instruction (a fork of date each, on both sides alike).
COMMAND="date +%s%N >$work/first; yes '$LINE' | head -c $BYTES; date +%s%N >$work/last"
# The same output cut to 16 MiB: still far beyond the preview, so exec does all of its end's work (the
# truncated preview, the artifact), in a run short enough for its CPU to be mostly runboard's own.
SMALL="yes '$LINE' | head -c 16M"
us() { local t=${1/./}; echo "${t#0}"; } # $EPOCHREALTIME (s.µs) -> µs
ms_between() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", (b - a) / 1000 }'; } # µs -> ms

tsv="$work/rounds.tsv"
printf 'round\tvariant\twall_s\tpre_ms\tpost_ms\tcpu_s\n' >"$tsv"
true_tsv="$work/true.tsv"
printf 'round\tvariant\twall_s\tcpu_s\n' >"$true_tsv"

# The CPU ticks (utime + stime) so far of the supervisor of data dir $1, 0 when it has none: "supervised"
# counts its supervisor's part of each run with the rest.
supervisor_ticks() {
  if [ -n "${supervisor_pid[$1]:-}" ]; then awk '{ print $14 + $15 }' "/proc/${supervisor_pid[$1]}/stat"; else echo 0; fi
}
# Adds the supervisor's CPU since $2 ticks to the user time in $work/time (GNU time's "... USER SYS" line).
add_supervisor_cpu() { # DIR TICKS_BEFORE
  local ticks=$(($(supervisor_ticks "$1") - $2))
  awk -v t="$ticks" -v hz="$(getconf CLK_TCK)" '{ $(NF - 1) += t / hz; print }' "$work/time" >"$work/time.sum" && mv "$work/time.sum" "$work/time"
}
# A launcher's run on data dir DIR under GNU time (FORMAT, into $work/time), its supervisor's CPU over the run added,
# $T0 and $T1 (µs) read just around it; returns the run's exit code. The caller redirects its stdio.
time_exec() { # DIR FORMAT COMMAND...
  local dir=$1 format=$2 ticks rc=0
  shift 2
  ticks=$(supervisor_ticks "$dir")
  T0=$(us "$EPOCHREALTIME")
  /usr/bin/time -o "$work/time" -f "$format" "$@" || rc=$?
  T1=$(us "$EPOCHREALTIME")
  add_supervisor_cpu "$dir" "$ticks"
  return "$rc"
}
big_run() { # ROUND VARIANT
  local r=$1 v=$2 t0 t1 first last rc=0
  rm -f "$work/first" "$work/last"
  sync
  if [ "$v" = shell ]; then
    t0=$(us "$EPOCHREALTIME")
    /usr/bin/time -o "$work/time" -f '%U %S' sh -c "$COMMAND" >"$work/shell.out" 2>&1 || rc=$?
    t1=$(us "$EPOCHREALTIME")
  else
    cmd_of "$v"
    time_exec "$work/data-$v" '%U %S' "${CMD[@]}" exec --shell /bin/sh --data-dir "$work/data-$v" -- "$COMMAND" \
      </dev/null >"$work/$v.json" 2>"$work/$v.err" || rc=$?
    t0=$T0 t1=$T1
  fi
  [ "$rc" = 0 ] || { echo "round $r: $v exited $rc: $(cat "$work/$v.err" 2>/dev/null)" >&2; exit 1; }
  first=$(($(cat "$work/first") / 1000)); last=$(($(cat "$work/last") / 1000))
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$r" "$v" "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", (b - a) / 1e6 }')" \
    "$(ms_between "$t0" "$first")" "$(ms_between "$last" "$t1")" "$(awk '{ printf "%.2f", $1 + $2 }' "$work/time")" >>"$tsv"
  if [ "$v" = shell ]; then
    if [ "$CMP" = 1 ]; then cmp -s "$work/shell.out" "$work/reference" || { echo "round $r: the shell's file differs from the reference" >&2; exit 1; }; fi
    rm -f "$work/shell.out"
  else
    local status artifact
    status=$(sed -n 's/^  "status" : "\(.*\)",$/\1/p' "$work/$v.json")
    artifact=$(sed -n 's/^  "artifact" : "\(.*\)",$/\1/p' "$work/$v.json")
    [ "$status" = completed ] && [ -f "$artifact" ] || { echo "round $r: $v: status '$status', artifact '$artifact'" >&2; exit 1; }
    [ "$(stat -c %s "$artifact")" = "$size" ] || { echo "round $r: $v: artifact of $(stat -c %s "$artifact") bytes, not $size" >&2; exit 1; }
    if [ "$CMP" = 1 ]; then cmp -s "$artifact" "$work/reference" || { echo "round $r: $v: artifact differs from the command's output" >&2; exit 1; }; fi
    # The data dir stays, as a user's does (bin/runboard launches early only into one runboard has used); its
    # sessions and artifacts go.
    rm -rf "$work/data-$v/sessions/"* "$work/data-$v/artifacts/"* "$work/data-$v/output.log" "$work/data-$v/session.json" \
      "$work/data-$v/exit-status"
  fi
}
true_run() { # ROUND VARIANT [small]
  local r=$1 v=$2 wall user sys
  cmd_of "$v"
  if [ "$v" = hello ]; then
    /usr/bin/time -o "$work/time" -f '%e %U %S' "${CMD[@]}" </dev/null >/dev/null 2>&1
  elif [ "$v" = shell ]; then
    /usr/bin/time -o "$work/time" -f '%e %U %S' sh -c "$SMALL" >"$work/small.out" 2>&1
  elif [ -n "${3:-}" ]; then
    # A fresh data dir each time (so bin/runboard takes its ordinary path), but the supervisor's own stays.
    if [ "$v" = supervised ]; then rm -rf "$work/small-$v/sessions/"* "$work/small-$v/artifacts/"*; else rm -rf "$work/small-$v"; fi
    time_exec "$work/small-$v" '%e %U %S' "${CMD[@]}" exec --shell /bin/sh --data-dir "$work/small-$v" -- "$SMALL" </dev/null >/dev/null 2>&1
  else
    time_exec "$work/true-$v" '%e %U %S' "${CMD[@]}" exec --data-dir "$work/true-$v" -- true </dev/null >/dev/null 2>&1
  fi
  read -r wall user sys <"$work/time"
  printf '%s\t%s\t%s\t%s\n' "$r" "$v${3:+ small}" "$wall" "$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')" >>"$true_tsv"
}

echo "== runboard exec end to end vs the shell redirect =="
echo "date:     $(date -u +%Y-%m-%dT%H:%M:%SZ)"
echo "machine:  $(nproc) cores, kernel $(uname -r), $(java -version 2>&1 | head -1)"
echo "load:     $(cut -d' ' -f1-3 /proc/loadavg) (1/5/15 min) at start"
echo "command:  sh -c \"$COMMAND\"  ($(numfmt --to=iec "$size") = $size bytes), by the shell into a file and through"
echo "          exec --shell /bin/sh of: ${launchers[*]}"
echo "warm-up:  archives, page cache"
for v in "${launchers[@]}"; do
  if [ "$v" = supervised ]; then
    for d in data true small; do
      supervised_dirs+=("$work/$d-supervised")
      RUNBOARD_SUPERVISOR_IDLE=3h bin/runboard start --data-dir "$work/$d-supervised" -- true >/dev/null
    done
    for d in "${supervised_dirs[@]}"; do supervisor_pid[$d]=$(pgrep -f -- "supervisor run --data-dir $d\$"); done
    echo "          supervised: a supervisor up for each of its data dirs: pids ${supervisor_pid[*]}"
  fi
  cmd_of "$v"
  "${CMD[@]}" exec --data-dir "$work/true-$v" -- true </dev/null >/dev/null 2>&1
  "${CMD[@]}" exec --data-dir "$work/true-$v" -- true </dev/null >/dev/null 2>&1
  "${CMD[@]}" exec --data-dir "$work/data-$v" -- true </dev/null >/dev/null 2>&1
  rm -rf "$work/data-$v/sessions/"* "$work/data-$v/artifacts/"*
done
true_run 0 hello
# The bytes every run must produce, to compare each file with.
sh -c "yes '$LINE' | head -c $BYTES" >"$work/reference"

variants=(shell "${launchers[@]}")
# Every big run first, then the short ones: each big run then follows the same steps (the one before it, its
# check and removal, sync). With the short runs between rounds, the first big run of a round came out ~17 %
# slower than the second, whichever launcher it was (docs/BENCHMARKS.md §10, round 13). The order rotates
# between rounds: with two variants, A B B A A B ...
for ((r = 1; r <= ROUNDS; r++)); do
  n=${#variants[@]}
  for ((i = 0; i < n; i++)); do big_run "$r" "${variants[$(((i + r - 1) % n))]}"; done
  echo "round $r of $ROUNDS: $(awk -F'\t' -v r="$r" '$1 == r { printf "%s %ss  ", $2, $3 }' "$tsv")(load $(cut -d' ' -f1 /proc/loadavg))"
done
for ((r = 1; r <= ROUNDS; r++)); do
  true_run "$r" hello
  for v in "${launchers[@]}"; do true_run "$r" "$v"; done
  true_run "$r" shell small
  for v in "${launchers[@]}"; do true_run "$r" "$v" small; done
done
echo "load:     $(cut -d' ' -f1-3 /proc/loadavg) (1/5/15 min) at end"

python3 - "$tsv" "$true_tsv" "$(numfmt --to=iec "$size")" "${launchers[@]}" <<'EOF'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter='\t'))
trues = list(csv.DictReader(open(sys.argv[2]), delimiter='\t'))
size, launchers = sys.argv[3], sys.argv[4:]
med = statistics.median
def of(v, key, rs=rows):
    return [float(r[key]) for r in rs if r['variant'] == v]
rounds = sorted({r['round'] for r in rows}, key=int)
shell = {r['round']: r for r in rows if r['variant'] == 'shell'}
print(f"\n{size} end to end (wall s; ratio = exec ÷ shell of the same round; target ≤ 1.05):\n")
print("| variant | wall s (median) | ratio median | ratio per round | pre ms (median) | post ms (median) | exec's own: pre + post − shell's, ms | the command alone ÷ the shell's (median) | CPU s (median) | CPU beyond the shell's, s |")
print("|---|---|---|---|---|---|---|---|---|---|")
s_pre, s_post = med(of('shell', 'pre_ms')), med(of('shell', 'post_ms'))
print(f"| shell | {med(of('shell', 'wall_s')):.3f} | 1 | | {s_pre:.1f} | {s_post:.1f} | | 1 | {med(of('shell', 'cpu_s')):.2f} | |")
def alone(r): # the command's own time, first instruction to last: what the launcher's work beside it costs the command
    return float(r['wall_s']) * 1000 - float(r['pre_ms']) - float(r['post_ms'])
for v in launchers:
    rs = {r['round']: r for r in rows if r['variant'] == v}
    ratios = [float(rs[k]['wall_s']) / float(shell[k]['wall_s']) for k in rounds]
    own = [float(rs[k]['pre_ms']) + float(rs[k]['post_ms']) - float(shell[k]['pre_ms']) - float(shell[k]['post_ms']) for k in rounds]
    cpu = [float(rs[k]['cpu_s']) - float(shell[k]['cpu_s']) for k in rounds]
    cmd = [alone(rs[k]) / alone(shell[k]) for k in rounds]
    print(f"| {v} | {med(of(v, 'wall_s')):.3f} | **{med(ratios):.3f}** | {' '.join(f'{x:.3f}' for x in ratios)} | "
          f"{med(of(v, 'pre_ms')):.1f} | {med(of(v, 'post_ms')):.1f} | {med(own):.0f} | {med(cmd):.3f} | {med(of(v, 'cpu_s')):.2f} | {med(cpu):.2f} |")
    if len(rounds) >= 20: # enough pairs to say how sure the median is: the middle 95 % of 2,000 resampled medians
        import random
        rng = random.Random(16)
        boot = sorted(med(rng.choices(ratios, k=len(ratios))) for _ in range(2000))
        print(f"|   ({v}: {len(rounds)} pairs; the median's 95 % interval by resampling the pairs: {boot[50]:.3f}-{boot[1949]:.3f}) |||||||||")
hello = [r for r in trues if r['variant'] == 'hello' and r['round'] != '0']
hw, hc = med(of('hello', 'wall_s', hello)), med(of('hello', 'cpu_s', hello))
print(f"\nexec -- true (medians of {len(hello)}; hello-world JVM: wall {hw:.3f} s, CPU {hc:.3f} s; targets ≤ 5× and ≤ 0.25 s CPU):\n")
print("| launcher | wall s | ÷ hello | CPU s | rounds (wall s) |")
print("|---|---|---|---|---|")
for v in launchers:
    w, c = of(v, 'wall_s', trues), of(v, 'cpu_s', trues)
    print(f"| {v} | {med(w):.3f} | {med(w) / hw:.1f}× | {med(c):.3f} | {' '.join(f'{x:.2f}' for x in w)} |")
small = {r['round']: r for r in trues if r['variant'] == 'shell small'}
print(f"\n16 MiB, preview cut (medians): shell wall {med(of('shell small', 'wall_s', trues)):.3f} s, CPU {med(of('shell small', 'cpu_s', trues)):.3f} s\n")
print("| launcher | wall s | CPU s | CPU beyond the shell's, s (median of rounds) | wall beyond the shell's, s |")
print("|---|---|---|---|---|")
for v in launchers:
    rs = {r['round']: r for r in trues if r['variant'] == v + ' small'}
    cpu = [float(rs[k]['cpu_s']) - float(small[k]['cpu_s']) for k in rs]
    wall = [float(rs[k]['wall_s']) - float(small[k]['wall_s']) for k in rs]
    print(f"| {v} | {med(of(v + ' small', 'wall_s', trues)):.3f} | {med(of(v + ' small', 'cpu_s', trues)):.3f} | {med(cpu):.3f} | {med(wall):.3f} |")
EOF
