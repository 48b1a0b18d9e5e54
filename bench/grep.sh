#!/usr/bin/env bash
# `runboard grep` over 5 GiB of artifacts against GNU grep -n over the same files.
#
#   bench/grep.sh [--runs 10] [--run-bytes 512M] [--rounds 3] [--jar target/runboard.jar] [--keep DIR] [--via jar|bin]
#
# --via bin runs `bin/runboard grep` with the data dir's supervisor up (the thin client: no JVM starts
# per call; the supervisor runs the search) instead of `java -jar`; for many small runs, where a JVM's
# start is most of the time:  bench/grep.sh --runs 50 --run-bytes 1536K --rounds 7 --via bin
#
# Makes a data dir of RUNS real runs (`runboard exec -- cat FILE`) of RUN-BYTES of log-like lines
# each (generated once by perl: timestamps, levels, ids, paths), run 7 with one planted line
# "ERROR connection reset by peer". Then, with the files in the page cache (each query run once
# first), times per round, the order alternating:
#   runboard  java -jar runboard.jar grep [-i] QUERY          (JVM start-up included; or bin/runboard, --via bin)
#   grep      LC_ALL=C.UTF-8 grep -n [-i|-E] QUERY artifacts/*.log
# for a literal, a case-insensitive literal and a regex with a literal in it, and prints the
# median wall times, GiB/s and the ratio grep time ÷ runboard time (≥ 1: runboard as fast or faster).
# Both must find exactly the planted line. Everything is under a mktemp -d folder, removed on exit.
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=10
RUN_BYTES=512M
ROUNDS=3
JAR=target/runboard.jar
KEEP=
VIA=jar
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) RUNS=$2; shift 2 ;;
    --run-bytes) RUN_BYTES=$2; shift 2 ;;
    --rounds) ROUNDS=$2; shift 2 ;;
    --jar) JAR=$2; shift 2 ;;
    --keep) KEEP=$2; shift 2 ;;
    --via) VIA=$2; shift 2 ;;
    -h|--help) sed -n '2,24p' "$0"; exit 0 ;;
    *) echo "grep.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
  esac
done
[ -f "$JAR" ] || { echo "building $JAR ..."; ./mvnw -B -q package -DskipTests; }

run_bytes=$(numfmt --from=iec "$RUN_BYTES")
total=$(( run_bytes * RUNS ))
WORK=$(mktemp -d)
DATA="${KEEP:-$WORK}/data"
# bin/runboard's class-data archive and the supervisor's idle limit (it must outlast the rounds) stay in here.
export XDG_CACHE_HOME=$WORK/cache RUNBOARD_SUPERVISOR_IDLE=3600
trap '[ "$VIA" = bin ] && bin/runboard supervisor stop --data-dir "$DATA" >/dev/null 2>&1; rm -rf "$WORK"' EXIT
avail=$(( $(df -Pk "$WORK" | awk 'NR==2 {print $4}') * 1024 ))
if [ "$avail" -lt $(( total + run_bytes + 1024 * 1024 * 1024 )) ]; then
  echo "grep.sh: need $(numfmt --to=iec $(( total + run_bytes + 1024 * 1024 * 1024 ))) free under $WORK" >&2; exit 1
fi

now_ns() { date +%s%N; }
median() { sort -g | awk '{ a[NR] = $1 } END { if (NR % 2) print a[(NR + 1) / 2]; else printf "%.3f\n", (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

echo "== runboard grep vs GNU grep =="
echo "date:    $(date -u +%Y-%m-%dT%H:%M:%SZ)"
echo "machine: $(nproc) cores, $(free -g | awk '/^Mem:/ {print $2}') GiB RAM, $(java -version 2>&1 | head -1), $(grep --version | head -1)"
echo "load:    $(cut -d' ' -f1-3 /proc/loadavg) (1/5/15 min) at start"

if [ -d "$DATA/artifacts" ]; then
  files=("$DATA"/artifacts/*.log)
  run_bytes=$(stat -c %s "${files[0]}"); total=$(du -cb "${files[@]}" | tail -1 | cut -f1)
  echo "output:  the $(ls "$DATA/artifacts" | grep -c 'log$') runs kept in $DATA ($(numfmt --to=iec "$total"))"
else
perl -e '
  my ($want) = @ARGV; my @lvl = ("INFO ", "INFO ", "INFO ", "DEBUG", "WARN "); my $n = 0; my $out = "";
  my @path = ("/api/items/", "/api/users/", "/static/app.js?v=", "/health?probe=");
  while ($n < $want) {
    my $i = $n % 997; my $id = 100000 + ($n * 7919) % 900000;
    my $line = sprintf("2026-12-01T03:%02d:%02d.%03dZ %s [worker-%d] request %d served in %d ms path=%s%d status=%d\n",
      ($i / 60) % 60, $i % 60, $n % 1000, $lvl[$i % 5], $i % 16, $id, $i % 250, $path[$i % 4], $id, $i % 50 ? 200 : 404);
    $out .= $line; $n += length $line;
    if (length $out > 1 << 20) { print $out; $out = ""; }
  }
  print $out;' "$run_bytes" > "$WORK/run.log"
run_bytes=$(stat -c %s "$WORK/run.log"); total=$(( run_bytes * RUNS )) # whole lines: a little over the size asked for
lines=$(wc -l < "$WORK/run.log")
echo "output:  $RUNS runs x $(numfmt --to=iec "$run_bytes") ($lines log-like lines each) = $(numfmt --to=iec "$total"), e.g.:"
head -2 "$WORK/run.log" | sed 's/^/           /'

for r in $(seq 1 "$RUNS"); do
  plant=""
  [ "$r" = 7 ] && plant="; echo 'ERROR connection reset by peer (request 4242)'"
  java -jar "$JAR" exec --preview-bytes 64K --shell /bin/sh --data-dir "$DATA" -- "cat '$WORK/run.log'$plant" > /dev/null
done
rm -f "$WORK/run.log"
fi
files=("$DATA"/artifacts/*.log)
[ "${#files[@]}" = "$RUNS" ] || { echo "grep.sh: expected $RUNS artifacts, found ${#files[@]}" >&2; exit 1; }
echo

# name | runboard args | GNU grep args
QUERIES=(
  "literal|connection reset|-F connection reset"
  "literal, ignoring case|-i CONNECTION RESET|-F -i CONNECTION RESET"
  "regex with a literal|ERROR [a-z]+ reset by|-E ERROR [a-z]+ reset by"
)
case "$VIA" in
  jar) RB=(java -jar "$JAR") ;;
  bin) RB=(bin/runboard); bin/runboard list --data-dir "$DATA" >/dev/null ;; # brings the supervisor up
  *) echo "grep.sh: --via jar or bin" >&2; exit 2 ;;
esac
echo "client:  ${RB[*]} grep"
rb() { "${RB[@]}" grep --data-dir "$DATA" "$@"; }
# CPU seconds the supervisor used so far (--via bin: the search runs there, not in the timed client), else 0.
TICKS=$(getconf CLK_TCK)
supervisor_cpu() {
  local pid
  if [ "$VIA" = bin ] && pid=$(sed -n 2p "$DATA/supervisor.address" 2>/dev/null) && [ -r "/proc/$pid/stat" ]; then
    awk -v t="$TICKS" '{ sub(/.*\) /, ""); printf "%.2f", ($12 + $13) / t }' "/proc/$pid/stat"
  else
    echo 0
  fi
}
gg() { LC_ALL=C.UTF-8 grep -n "$@" "${files[@]}"; }

for q in "${QUERIES[@]}"; do
  IFS='|' read -r name rargs gargs <<< "$q"
  # The query word(s) after the flags stay one argument.
  rflag=(); rquery=$rargs
  [[ $rargs == -i\ * ]] && { rflag=(-i); rquery=${rargs#-i }; }
  gflags=(); gquery=$gargs
  while [[ $gquery == -?\ * ]]; do gflags+=("${gquery%% *}"); gquery=${gquery#* }; done
  # Warm-up and correctness: both find the one planted line.
  rfound=$(rb "${rflag[@]}" "$rquery" | grep -c '^[0-9]*:' || true)
  gfound=$(gg "${gflags[@]}" "$gquery" | wc -l)
  [ "$rfound" = 1 ] && [ "$gfound" = 1 ] || { echo "$name: runboard found $rfound lines, grep $gfound (want 1 each)" >&2; exit 1; }
  rt=(); gt=(); rc=(); gc=()
  for round in $(seq 1 "$ROUNDS"); do
    for who in $( [ $(( round % 2 )) = 1 ] && echo "rb gg" || echo "gg rb" ); do
      s0=$(supervisor_cpu)
      t0=$(now_ns)
      if [ "$who" = rb ]; then
        /usr/bin/time -f '%U %S' -o "$WORK/cpu" "${RB[@]}" grep --data-dir "$DATA" "${rflag[@]}" "$rquery" > /dev/null
      else
        LC_ALL=C.UTF-8 /usr/bin/time -f '%U %S' -o "$WORK/cpu" grep -n "${gflags[@]}" "$gquery" "${files[@]}" > /dev/null
      fi
      t1=$(now_ns)
      s=$(awk -v ns=$(( t1 - t0 )) 'BEGIN { printf "%.3f", ns / 1e9 }')
      c=$(awk -v s0="$s0" -v s1="$(supervisor_cpu)" '{ printf "%.2f", $1 + $2 + s1 - s0 }' "$WORK/cpu")
      if [ "$who" = rb ]; then rt+=("$s"); rc+=("$c"); else gt+=("$s"); gc+=("$c"); fi
    done
  done
  mr=$(printf '%s\n' "${rt[@]}" | median); mg=$(printf '%s\n' "${gt[@]}" | median)
  cr=$(printf '%s\n' "${rc[@]}" | median); cg=$(printf '%s\n' "${gc[@]}" | median)
  awk -v n="$name" -v r="$mr" -v g="$mg" -v b="$total" -v rr="${rt[*]}" -v gr="${gt[*]}" -v cr="$cr" -v cg="$cg" 'BEGIN {
    printf "%-24s wall: runboard %6.2fs (%.2f GiB/s) [%s]  grep -n %6.2fs (%.2f GiB/s) [%s]  ratio grep/runboard %.2f\n",
      n, r, b / r / 2^30, rr, g, b / g / 2^30, gr, g / r
    printf "%-24s CPU:  runboard %6.2fs (%.2f GiB/CPU-s)  grep -n %6.2fs (%.2f GiB/CPU-s)  ratio grep/runboard %.2f\n",
      "", cr, b / cr / 2^30, cg, b / cg / 2^30, cg / cr }'
done
echo "load:    $(cut -d' ' -f1-3 /proc/loadavg) (1/5/15 min) at the end"
