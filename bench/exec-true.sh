#!/usr/bin/env bash
# What a CLI call costs when no supervisor is up (issue 47: the README's `exec -- true` figure): `exec -- true`
# through bin/runboard (its class-data archive, C1, the serial GC) and through a bare `java -jar`, against a
# hello-world JVM, rounds interleaved (hello, script, jar, then again). Each call gets a data dir with no
# supervisor in it (exec never starts one). Prints the median wall and CPU seconds (user + sys) of each and
# its wall time over hello's.
#
#   bench/exec-true.sh [ROUNDS]      default 15; needs target/runboard.jar (./mvnw -B package -DskipTests)
#
# BEFORE=DIR adds another build beside this one, in the same rounds (a before/after pair): DIR/runboard (that
# commit's bin/runboard), DIR/runboard.jar and DIR/lib/, as `cp bin/runboard bin/runboard-exec.pl
# target/runboard.jar DIR && cp -r target/lib DIR` lays them out; it runs as "before" and "beforejar".
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-15}
[ -f target/runboard.jar ] || { echo "exec-true.sh: no target/runboard.jar; ./mvnw -B package -DskipTests" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export XDG_CACHE_HOME=$work/cache # bin/runboard makes its archive here in the warm-up
mkdir -p "$work/hello"
printf 'public class Hello { public static void main(String[] a) { System.out.println("hello"); } }\n' >"$work/hello/Hello.java"
javac -d "$work/hello" "$work/hello/Hello.java"
run() { # name, then the command: appends "wall cpu" to $work/times-name
  local name=$1; shift
  /usr/bin/time -f '%e %U %S' -o "$work/t" "$@" >/dev/null 2>&1
  awk '{ printf "%s %.3f\n", $1, $2 + $3 }' "$work/t" >>"$work/times-$name"
}
names=(hello script jar)
bin/runboard exec --data-dir "$work/warm" -- true >/dev/null # the archive, once
if [ -n "${BEFORE:-}" ]; then
  [ -x "$BEFORE/runboard" ] && [ -f "$BEFORE/runboard.jar" ] || { echo "exec-true.sh: BEFORE=$BEFORE has no runboard and runboard.jar" >&2; exit 1; }
  "$BEFORE/runboard" exec --data-dir "$work/warm-before" -- true >/dev/null
  names+=(before beforejar)
fi
for ((r = 0; r < ROUNDS; r++)); do
  run hello java -cp "$work/hello" Hello
  run script bin/runboard exec --data-dir "$work/d$r-s" -- true
  run jar java -jar target/runboard.jar exec --data-dir "$work/d$r-j" -- true
  if [ -n "${BEFORE:-}" ]; then
    run before "$BEFORE/runboard" exec --data-dir "$work/d$r-b" -- true
    run beforejar java -jar "$BEFORE/runboard.jar" exec --data-dir "$work/d$r-bj" -- true
  fi
done
median() { sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
hello=$(cut -d' ' -f1 "$work/times-hello" | median)
echo "$(date -u +%FT%TZ), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $ROUNDS rounds"
for name in "${names[@]}"; do
  wall=$(cut -d' ' -f1 "$work/times-$name" | median)
  cpu=$(cut -d' ' -f2 "$work/times-$name" | median)
  printf '%-9s wall %.2f s  CPU %.2f s  %.1fx hello-world\n' "$name" "$wall" "$cpu" "$(awk -v w="$wall" -v h="$hello" 'BEGIN { print w / h }')"
done
if [ -n "${BEFORE:-}" ]; then # this build over the one before, round by round (wall and CPU): the paired ratios
  for pair in "script before" "jar beforejar"; do
    set -- $pair
    for col in 1 2; do
      ratios=$(paste -d' ' <(cut -d' ' -f$col "$work/times-$1") <(cut -d' ' -f$col "$work/times-$2") | awk '{ print $1 / $2 }')
      printf '%-6s ÷ %-9s %s per round: median %.2f (%s to %s)\n' "$1" "$2" "$([ $col = 1 ] && echo wall || echo CPU)" \
        "$(median <<<"$ratios")" "$(sort -g <<<"$ratios" | head -1)" "$(sort -g <<<"$ratios" | tail -1)"
    done
  done
fi
