#!/usr/bin/env bash
# The host helper's output stream (`runboard-remote.pl follow`) alone, no ssh: the CPU it spends sending one
# session's finished output of BYTES to a pipe (as sshd reads it), this checkout's helper against BASE_REV's,
# alternating, ROUNDS each. Prints user+system seconds per run and the medians' ratio (this / base).
#
#   bench/follow-cpu.sh BASE_REV [BYTES] [ROUNDS]      e.g. bench/follow-cpu.sh 26d1e1f 512M 5
set -euo pipefail
cd "$(dirname "$0")/.."
BASE_REV=${1:?usage: bench/follow-cpu.sh BASE_REV [BYTES] [ROUNDS]}
BYTES=${2:-512M}
ROUNDS=${3:-5}
HELPER=src/main/resources/dev/runboard/remote/runboard-remote.pl
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
git show "$BASE_REV:$HELPER" > "$WORK/base.pl"
cp "$HELPER" "$WORK/new.pl"
mkdir -p "$WORK/dir/s/x"
(set +o pipefail; yes 'runboard follow benchmark line .................................................................' \
  | head -c "$BYTES" > "$WORK/dir/s/x/out")
echo 0 > "$WORK/dir/s/x/status"
expected=$(( $(stat -c %s "$WORK/dir/s/x/out") ))
cpu() { # cpu VARIANT: the helper's CPU seconds for the whole output, its frames counted by cat | wc
  local got
  { /usr/bin/time -f '%U %S' -o "$WORK/time" perl "$WORK/$1.pl" "$WORK/dir" follow < <(echo "x 0"; sleep 2) \
      | cat | wc -c > "$WORK/count"; }
  got=$(cat "$WORK/count")
  [ "$got" -gt "$expected" ] || { echo "follow.sh: $1 sent $got bytes of $expected" >&2; exit 1; }
  awk '{ printf "%.2f\n", $1 + $2 }' "$WORK/time"
}
median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
: > "$WORK/base.cpu"; : > "$WORK/new.cpu"
for r in $(seq "$ROUNDS"); do
  if [ $((r % 2)) = 1 ]; then order="base new"; else order="new base"; fi
  for v in $order; do cpu "$v" >> "$WORK/$v.cpu"; done
done
b=$(median < "$WORK/base.cpu"); n=$(median < "$WORK/new.cpu")
echo "follow of $BYTES, CPU seconds (user+system), $ROUNDS rounds each"
echo "base ($BASE_REV): $(tr '\n' ' ' < "$WORK/base.cpu")median $b"
echo "this checkout:    $(tr '\n' ' ' < "$WORK/new.cpu")median $n"
echo "ratio this/base: $(echo "scale=2; $n / $b" | bc)   load: $(cut -d' ' -f1-3 /proc/loadavg)"
