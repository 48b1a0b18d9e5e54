#!/usr/bin/env bash
# What an exec whose command has no JVM beside it could cost at best (issue 16, docs/BENCHMARKS.md §10, round 14):
# the 1 GiB `yes | head` redirect by the shell, against the same command started as bin/runboard's early launch
# starts it (a bash script: the session folder by mkdir, the wrapper's status space, the capture opened for
# appending, runboard's Perl wrapper running `sh -c CMD`) and waited for by that script, with no JVM at all.
# That is the part of an exec that would stay if a supervisor already running adopted the command instead of a
# JVM started for it. Pairs in A B B A order, `sync` before each run; every capture's size is checked; prints the
# median of the pairs' ratios (front ÷ shell) and the median times.
#
#   bench/exec-without-jvm.sh [PAIRS]      (default 30)
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/abba-pairs.sh
PAIRS=${1:-30}
abba_prepare exec-without-jvm.sh
BYTES=1073741824
bin/runboard exec --data-dir "$work/data" -- true >/dev/null # installs the wrapper in the data dir, as for a user
wrap="$work/data/bin/runboard-wrap.pl"
[ -f "$wrap" ] || { echo "exec-without-jvm.sh: runboard did not install its wrapper at $wrap" >&2; exit 1; }
perl=$(command -v perl) || { echo "exec-without-jvm.sh: needs perl, as runboard's wrapper does" >&2; exit 1; }
mkdir "$work/runs"
cat >"$work/front" <<EOS
#!/usr/bin/env bash
dir=$work/runs/\$1
shift
mkdir -m 700 "\$dir"
printf '%4096s' '' >"\$dir/exit-status.tmp"
: >"\$dir/capture.log"
RUNBOARD_SESSION=bench "$perl" "$wrap" "\$dir/exit-status" 0 2000 /bin/sh -c "\$*" >>"\$dir/capture.log" 2>&1 &
wait \$!
EOS
chmod +x "$work/front"
run() { # shell|front
  local t0 t1
  sync
  t0=$EPOCHREALTIME
  if [ "$1" = shell ]; then
    sh -c "yes '$LINE' | head -c $BYTES" >"$work/out"
    t1=$EPOCHREALTIME
    [ "$(stat -c %s "$work/out")" = $BYTES ] || { echo "exec-without-jvm.sh: the shell's output is short" >&2; exit 1; }
  else
    "$work/front" run "yes '$LINE' | head -c $BYTES"
    t1=$EPOCHREALTIME
    [ "$(stat -c %s "$work/runs/run/capture.log")" = $BYTES ] || { echo "exec-without-jvm.sh: the capture is short" >&2; exit 1; }
  fi
  abba_record "$1" "$t0" "$t1" "$work/times"
  rm -rf "$work/out" "$work/runs/run"
}
echo "exec-without-jvm: $PAIRS pairs, $(date -u +%Y-%m-%dT%H:%M:%SZ), load $(cut -d' ' -f1-3 /proc/loadavg)"
abba_loop "$PAIRS" front shell
abba_report "$work/times" front shell "<=" 1.05
