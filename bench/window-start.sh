#!/usr/bin/env bash
# The window's start-up (issue 16): time from process start to the first frame that shows the table, and to
# the frame that shows the whole history, with SESSIONS finished sessions in the data dir; then a scroll of
# the table end to end (a page per frame: p50/p99/max frame time) and the memory (VmHWM peak, VmRSS after the
# scroll). Side by side in one run against an empty JavaFX window (bench/HelloFx.java) started the same way;
# rounds interleaved (hello, then each launcher, then again), after one warm-up round that is not counted.
#
#   bench/window-start.sh [ROUNDS] [SESSIONS]      default 5 rounds, 1000 sessions; needs target/runboard.jar
#
# Launchers: jar       java -jar target/runboard.jar, which opens the window in a second JVM with the window's
#                      options (dev.runboard.WindowRelaunch): its times count from the first JVM's start, its
#                      memory is both JVMs'
#            jar1      the same in one JVM with the JVM's defaults (RUNBOARD_RELAUNCH=off)
#            jar+cds   the same with -XX:SharedArchiveFile of an archive trained here on the window itself
#                      (what a window launcher could ship; made in the warm-up, with -XX:ArchiveClassesAtExit)
#            script    bin/runboard (the window's own archive, written by its first window run at exit: the
#                      warm-up round's, so the counted rounds start with it)
#            app       target/dist/runboard/bin/runboard, the jpackage app-image (packaging/build.sh), when built;
#                      its window archive is made the same way, in this run's XDG_CACHE_HOME
#            cold      java -jar target/runboard.jar with the data dir's rows.index removed first: a window's first
#                      start on this history (it reads every record, then writes the index for the next start)
#            base      java -jar $BASE_JAR, when set: the same window built from another commit (a before/after
#                      comparison in one run; that jar needs its lib/ folder beside it, as target/ has)
#            basescript  $BASE_SCRIPT, when set: another commit's bin/runboard, copied into a folder with that
#                      commit's runboard.jar and lib/ beside it (a before/after comparison through the launcher,
#                      with the launcher's options of each commit)
# The app writes its figures when RUNBOARD_STARTUP_REPORT=FILE is set (dev.runboard.ui.StartupReport):
# milliseconds since the kernel started the process. The history is written by bench/WindowHistory.java
# through the store API (records and small captures, nothing run). Runs under its own Xvfb display; ends every
# app by its PID and stops any supervisor in the data dir. Every round's figures go to a TSV (KEEP=1 keeps it).
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-5}
SESSIONS=${2:-1000}
JAVA=${JAVA:-java}
JAR=target/runboard.jar
APP=target/dist/runboard/bin/runboard
[ -f "$JAR" ] || { echo "window-start.sh: no $JAR; build it with ./mvnw -B package -DskipTests" >&2; exit 1; }
command -v javac >/dev/null || { echo "window-start.sh: needs javac (a JDK) for the baseline window" >&2; exit 1; }
command -v Xvfb >/dev/null || { echo "window-start.sh: needs Xvfb (apt-get install xvfb libgtk-3-0)" >&2; exit 1; }

work="$(mktemp -d)"
export XDG_CACHE_HOME="$work/cache" XDG_CONFIG_HOME="$work/config" XDG_STATE_HOME="$work/state"
export RUNBOARD_HOME="$work/home" RUNBOARD_SUPERVISOR_IDLE=5
launchers=(jar jar1 jar+cds script)
[ -x "$APP" ] && launchers+=(app) || echo "(no app-image at $APP: build it with packaging/build.sh to include it)"
if [ -n "${BASE_JAR:-}" ]; then
  [ -f "$BASE_JAR" ] || { echo "window-start.sh: BASE_JAR $BASE_JAR is not a file" >&2; exit 1; }
  launchers=(base "${launchers[@]}")
fi
if [ -n "${BASE_SCRIPT:-}" ]; then
  [ -x "$BASE_SCRIPT" ] && [ -f "$(dirname "$BASE_SCRIPT")/runboard.jar" ] ||
    { echo "window-start.sh: BASE_SCRIPT $BASE_SCRIPT is not a bin/runboard with runboard.jar beside it" >&2; exit 1; }
  launchers=(basescript "${launchers[@]}")
fi
# LAUNCHERS="base jar" runs only those (with the empty window); the default runs every one above.
[ -n "${LAUNCHERS:-}" ] && read -r -a launchers <<<"$LAUNCHERS"
xpid=""
cleanup() {
  [ -n "${apid:-}" ] && kill -9 "$apid" 2>/dev/null
  "$JAVA" -jar "$JAR" supervisor stop >/dev/null 2>&1 || true
  [ -n "$xpid" ] && kill "$xpid" 2>/dev/null
  [ "${KEEP:-0}" = 1 ] && echo "kept $work" || rm -rf "$work"
}
trap cleanup EXIT

for n in $(seq 90 140); do [[ -e /tmp/.X11-unix/X$n || -e /tmp/.X$n-lock ]] || break; done
Xvfb ":$n" -screen 0 1400x900x24 -nolisten tcp >"$work/xvfb.log" 2>&1 &
xpid=$!
export DISPLAY=":$n"
for i in $(seq 1 100); do [ -e "/tmp/.X11-unix/X$n" ] && break; sleep 0.1; done

echo "history: $SESSIONS finished sessions (load $(cut -d' ' -f1 /proc/loadavg))"
"$JAVA" -cp "$JAR:target/lib/*" bench/WindowHistory.java "$RUNBOARD_HOME" "$SESSIONS"
mkdir -p "$work/hello"
javac -d "$work/hello" -cp "target/lib/*" bench/HelloFx.java

cmd_of() { # LAUNCHER: sets CMD
  case "$1" in
    hello) CMD=("$JAVA" -cp "$work/hello:target/lib/*" HelloFx) ;;
    jar) CMD=("$JAVA" -jar "$JAR") ;;
    jar1) CMD=(env RUNBOARD_RELAUNCH=off "$JAVA" -jar "$JAR") ;;
    base) CMD=("$JAVA" -jar "$BASE_JAR") ;;
    basescript) CMD=("$BASE_SCRIPT") ;;
    cold) CMD=("$JAVA" -jar "$JAR") ;;
    jar+cds) CMD=("$JAVA" -XX:SharedArchiveFile="$work/window.jsa" -Xlog:cds=off -Xlog:cds+dynamic=off -jar "$JAR") ;;
    script) CMD=(bin/runboard) ;;
    app) CMD=("$APP") ;;
  esac
}

tsv="$work/rounds.tsv"
printf 'round\tlauncher\tfirst_frame_ms\thistory_ms\trows\tscroll_p50_ms\tscroll_p99_ms\tscroll_max_ms\thwm_mib\trss_mib\n' >"$tsv"
field() { awk -v k="$1" '$1 == k { print $2 }' "$2" | tail -1; }
# one ROUND LAUNCHER: starts the window, waits for its report's last line, reads its memory, ends it.
one() {
  local round="$1" l="$2" report="$work/report" status
  rm -f "$report"
  [ "$l" = cold ] && rm -f "$RUNBOARD_HOME/rows.index"
  cmd_of "$l"
  RUNBOARD_STARTUP_REPORT="$report" RUNBOARD_STARTUP_SCROLL=1 "${CMD[@]}" </dev/null >"$work/app.log" 2>&1 &
  apid=$!
  for i in $(seq 1 1200); do
    [ -f "$report" ] && grep -q '^done ' "$report" && break
    kill -0 "$apid" 2>/dev/null || break
    sleep 0.1
  done
  local pid; pid="$(field pid "$report" 2>/dev/null || true)"
  if [ -z "$pid" ] || ! grep -q '^done ' "$report"; then
    echo "window-start.sh: $l gave no full report in 120 s: $(tail -c 400 "$work/app.log")" >&2
  else
    status="/proc/$pid/status"
    local hwm rss
    hwm=$(awk '/^VmHWM/ { print int($2 / 1024) }' "$status" 2>/dev/null || echo NA)
    rss=$(awk '/^VmRSS/ { print int($2 / 1024) }' "$status" 2>/dev/null || echo NA)
    # A bare java -jar opens the window in a second JVM (dev.runboard.WindowRelaunch): the first one waits
    # beside it for as long as the window is open, so its memory counts too.
    if [ "$pid" != "$apid" ] && [ -r "/proc/$apid/status" ] && [ "$hwm" != NA ]; then
      hwm=$((hwm + $(awk '/^VmHWM/ { print int($2 / 1024) }' "/proc/$apid/status")))
      rss=$((rss + $(awk '/^VmRSS/ { print int($2 / 1024) }' "/proc/$apid/status")))
    fi
    if [ "$round" != warm ]; then
      printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$round" "$l" "$(field first_frame_ms "$report")" \
        "$(field history_ms "$report")" "$(field history_rows "$report")" "$(field scroll_p50_ms "$report")" \
        "$(field scroll_p99_ms "$report")" "$(field scroll_max_ms "$report")" "$hwm" "$rss" >>"$tsv"
    fi
  fi
  [ -n "$pid" ] && kill "$pid" 2>/dev/null
  kill "$apid" 2>/dev/null || true
  wait "$apid" 2>/dev/null || true
  apid=""
}

echo "warm-up (page cache; the window-trained archive for jar+cds) $(date -u +%H:%M:%S)"
RUNBOARD_STARTUP_REPORT="$work/train" RUNBOARD_STARTUP_EXIT=1 timeout 180 "$JAVA" -XX:ArchiveClassesAtExit="$work/window.jsa" \
  -Xlog:disable -Xlog:all=off -jar "$JAR" </dev/null >"$work/train.log" 2>&1 || true
[ -s "$work/window.jsa" ] || { echo "(no window archive: $(tail -c 300 "$work/train.log"); jar+cds left out)"; launchers=("${launchers[@]/jar+cds}"); }
for l in hello "${launchers[@]}"; do [ -n "$l" ] && one warm "$l"; done

for ((r = 1; r <= ROUNDS; r++)); do
  echo "round $r $(date -u +%H:%M:%S) load $(cut -d' ' -f1 /proc/loadavg)"
  for l in hello "${launchers[@]}"; do [ -n "$l" ] && one "$r" "$l"; done
done

echo
echo "medians of $ROUNDS rounds, $SESSIONS sessions (load at the end $(cut -d' ' -f1-3 /proc/loadavg)):"
awk -F'\t' 'NR > 1 { n[$2]++; for (c = 3; c <= 10; c++) v[$2, c, n[$2]] = $c }
  function median(l, c,   k, i, j, t, a) { k = n[l]; for (i = 1; i <= k; i++) a[i] = v[l, c, i] + 0
    for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
    return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2 }
  END { base = median("hello", 3)
    printf "%-10s %14s %8s %12s %6s %9s %9s %9s %8s %8s\n", "launcher", "first frame ms", "÷ hello", "history ms", "rows",
      "scroll p50", "p99", "max", "HWM MiB", "RSS MiB"
    split("hello base cold jar jar1 jar+cds basescript script app", order, " ")
    for (o = 1; o <= 9; o++) { l = order[o]; if (!(l in n)) continue
      printf "%-10s %14d %8.2f %12d %6d %9.1f %9.1f %9.1f %8d %8d\n", l, median(l, 3), median(l, 3) / base, median(l, 4),
        median(l, 5), median(l, 6), median(l, 7), median(l, 8), median(l, 9), median(l, 10) } }' "$tsv"
cp "$tsv" "target/window-start-$SESSIONS.tsv" 2>/dev/null && echo "(every round: target/window-start-$SESSIONS.tsv)"
