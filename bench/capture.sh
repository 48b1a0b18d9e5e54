#!/usr/bin/env bash
# Capture throughput: `runboard exec` against the same command redirected to a file by the shell.
#
#   bench/capture.sh [--bytes 2G] [--rounds 3] [--shell /bin/bash] [--jar target/runboard.jar] [--no-cmp]
#                    [--launcher bin/runboard]   (runs runboard through it instead of `java -jar JAR`)
#
# Each round runs both variants, interleaved (the order alternates between rounds so neither
# always runs on a warmer or busier machine), with `sync` before each timed run so one run's
# dirty pages are not written back during the next. Every round checks that the artifact has the
# baseline's size and (unless --no-cmp) the same bytes, then deletes both files.
#
# Figures (see docs/BENCHMARKS.md):
#   ratio            = shell wall time / exec wall time (JVM start-up included: what a user sees)
#   ratio excl. JVM  = shell wall time / (exec wall time - median wall time of `exec -- true`)
#   engine elapsed   = the snapshot's elapsed_seconds (child start to exit as the engine saw it)
#   JVM CPU          = the exec JVM's own user+sys CPU (not its children's), from /proc/PID/stat
#                      sampled every 0.1 s, so it misses at most the JVM's last 0.1 s.
#   command CPU      = user+sys of the command tree (yes, head, the shell) from GNU time, if
#                      installed; under exec it is the whole run's CPU minus the JVM's own.
# Temp files go under $TMPDIR (mktemp -d) and are removed on exit.
set -euo pipefail
cd "$(dirname "$0")/.."

BYTES=2G
ROUNDS=3
SH=/bin/bash
JAR=target/runboard.jar
CMP=1
LAUNCHER=
while [ $# -gt 0 ]; do
  case "$1" in
    --bytes) BYTES=$2; shift 2 ;;
    --rounds) ROUNDS=$2; shift 2 ;;
    --shell) SH=$2; shift 2 ;;
    --jar) JAR=$2; shift 2 ;;
    --launcher) LAUNCHER=$2; shift 2 ;;
    --no-cmp) CMP=0; shift ;;
    -h|--help) sed -n '2,21p' "$0"; exit 0 ;;
    *) echo "capture.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
  esac
done

if [ ! -f "$JAR" ]; then
  echo "building $JAR ..."
  ./mvnw -B -q package -DskipTests
fi

LINE='runboard capture benchmark line .................................................................'
CMD="yes '$LINE' | head -c $BYTES"
size_bytes=$(numfmt --from=iec "$BYTES")

WORK=$(mktemp -d)
SAMPLER=
cleanup() {
  [ -n "$SAMPLER" ] && kill "$SAMPLER" 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

# Peak use per round: the baseline file and the artifact, both kept until compared.
need=$(( size_bytes * 2 + 512 * 1024 * 1024 ))
avail=$(( $(df -Pk "$WORK" | awk 'NR==2 {print $4}') * 1024 ))
if [ "$avail" -lt "$need" ]; then
  echo "capture.sh: need $(numfmt --to=iec $need) free under $WORK, have $(numfmt --to=iec $avail)" >&2
  exit 1
fi

CLK_TCK=$(getconf CLK_TCK)
now_ns() { date +%s%N; }
secs() { awk -v ns="$1" 'BEGIN { printf "%.3f", ns / 1e9 }'; }

# The JVM's own CPU (utime + stime, fields 14-15 of /proc/PID/stat; children excluded), sampled
# until it exits; the last sample is written to $1.
sample_cpu() {
  local pid=$1 out=$2 line rest
  while [ -r "/proc/$pid/stat" ]; do
    if read -r line < "/proc/$pid/stat" 2>/dev/null; then
      rest=${line##*) }            # drop "pid (comm) " (comm may hold spaces)
      # shellcheck disable=SC2086
      set -- $rest                 # $1 = state (field 3) ... utime = field 14 = $12, stime = $13
      echo "$(( ${12} + ${13} ))" > "$out"
    fi
    sleep 0.1
  done
}

# /usr/bin/time (GNU time) gives the CPU of a whole run, children included; optional.
TIME_BIN=
[ -x /usr/bin/time ] && /usr/bin/time -f '%e' -o /dev/null true 2>/dev/null && TIME_BIN=/usr/bin/time
timed() { # $1 = output file for "user sys" CPU seconds; the rest = the command
  local out=$1; shift
  if [ -n "$TIME_BIN" ]; then "$TIME_BIN" -f '%U %S' -o "$out" "$@"; else echo "? ?" > "$out"; "$@"; fi
}
cpu_sum() { awk '{ if ($1 == "?") print "?"; else printf "%.2f", $1 + $2 }' "$1"; }

# Runs `java -jar exec` and sets: EXEC_NS (wall), EXEC_CPU (the JVM's own CPU, s), EXEC_TREE_CPU
# (JVM + command, s, from GNU time) and writes the snapshot JSON to $2.
run_exec() {
  local data=$1 json=$2 cpuf="$WORK/cpu" tf="$WORK/time.exec"
  rm -f "$cpuf"
  local t0 t1 pid jvm=
  t0=$(now_ns)
  local runboard=(java -jar "$JAR")
  [ -n "$LAUNCHER" ] && runboard=("$LAUNCHER")
  timed "$tf" "${runboard[@]}" exec --shell "$SH" --data-dir "$data" -- "$3" > "$json" &
  pid=$!
  # The JVM is a descendant of $pid (a subshell, then GNU time): follow first children to it.
  local p=$pid comm kids
  while [ -z "$jvm" ] && [ -r "/proc/$p/comm" ]; do
    read -r comm < "/proc/$p/comm" 2>/dev/null || break
    if [ "$comm" = java ]; then jvm=$p; break; fi
    kids=
    read -r kids _ < "/proc/$p/task/$p/children" 2>/dev/null || true
    [ -n "$kids" ] && p=$kids
  done
  [ -n "$jvm" ] && { sample_cpu "$jvm" "$cpuf" & SAMPLER=$!; }
  wait "$pid"
  t1=$(now_ns)
  [ -n "$SAMPLER" ] && { wait "$SAMPLER" 2>/dev/null || true; }
  SAMPLER=
  EXEC_NS=$(( t1 - t0 )); EXEC_T0=$t0; EXEC_T1=$t1
  EXEC_CPU=$(awk -v t="$(cat "$cpuf" 2>/dev/null || echo 0)" -v hz="$CLK_TCK" 'BEGIN { printf "%.2f", t / hz }')
  EXEC_TREE_CPU=$(cpu_sum "$tf")
}

json_field() { # $1 file, $2 field: a string or number value from the pretty-printed snapshot
  sed -n "s/^  \"$2\" : \"\{0,1\}\([^\",]*\)\"\{0,1\},\{0,1\}$/\1/p" "$1" | head -1
}

median() { sort -g | awk '{ a[NR] = $1 } END { if (NR % 2) print a[(NR + 1) / 2]; else printf "%.3f\n", (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
spread() { sort -g | awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%s..%s", lo, hi }'; }

echo "== capture throughput benchmark =="
echo "date:    $(date -u +%Y-%m-%dT%H:%M:%SZ)"
echo "machine: $(nproc) cores, $(free -g | awk '/^Mem:/ {print $2}') GiB RAM, kernel $(uname -r), $(java -version 2>&1 | head -1)"
echo "load:    $(cut -d' ' -f1-3 /proc/loadavg) (1/5/15 min) at start"
echo "command: $SH -c \"$CMD\"   ($(numfmt --to=iec "$size_bytes") = $size_bytes bytes)"
echo "temp:    a mktemp -d directory on $(df -PT "$WORK" | awk 'NR==2 {print $1 " (" $2 ")"}')"
echo

# Warm the page cache for the JVM, the jar and the tools.
run_exec "$WORK/warm" "$WORK/warm.json" true
rm -rf "$WORK/warm" "$WORK/warm.json"

base_ns=(); exec_ns=(); true_ns=(); exec_cpu=(); true_cpu=(); elapsed=(); ratios=(); base_cpu=(); cmd_cpu=(); pre=(); post=(); true_post=()
for r in $(seq 1 "$ROUNDS"); do
  base_file="$WORK/baseline.log"
  data="$WORK/data-$r"
  json="$WORK/exec-$r.json"

  run_baseline() {
    sync
    local t0 t1
    t0=$(now_ns)
    timed "$WORK/time.base" "$SH" -c "$CMD" > "$base_file" 2>&1
    t1=$(now_ns)
    BASE_NS=$(( t1 - t0 ))
    BASE_CPU=$(cpu_sum "$WORK/time.base")
  }
  run_candidate() {
    sync
    run_exec "$data" "$json" "$CMD"
  }
  if [ $(( r % 2 )) -eq 1 ]; then run_baseline; run_candidate; else run_candidate; run_baseline; fi

  # JVM start-up and shutdown alone: the same exec with a command that does nothing.
  sync
  EXEC_SAVE_NS=$EXEC_NS; EXEC_SAVE_CPU=$EXEC_CPU; EXEC_SAVE_TREE=$EXEC_TREE_CPU
  # JVM overhead around the session: launch of java -> child started; child ended (as recorded) -> java exited.
  pre_ns=$(( $(date -d "$(json_field "$json" started_at)" +%s%N) - EXEC_T0 ))
  post_ns=$(( EXEC_T1 - $(date -d "$(json_field "$json" ended_at)" +%s%N) ))
  pre+=("$pre_ns"); post+=("$post_ns")
  run_exec "$WORK/true-$r" "$WORK/true-$r.json" true
  true_ns+=("$EXEC_NS"); true_cpu+=("$EXEC_CPU")
  true_post+=("$(( EXEC_T1 - $(date -d "$(json_field "$WORK/true-$r.json" ended_at)" +%s%N) ))")
  EXEC_NS=$EXEC_SAVE_NS; EXEC_CPU=$EXEC_SAVE_CPU; EXEC_TREE_CPU=$EXEC_SAVE_TREE

  status=$(json_field "$json" status)
  artifact=$(json_field "$json" artifact)
  original=$(json_field "$json" output_original_bytes)
  el=$(json_field "$json" elapsed_seconds)
  base_size=$(stat -c %s "$base_file")
  if [ "$status" != completed ] || [ -z "$artifact" ] || [ ! -f "$artifact" ]; then
    echo "round $r: exec did not produce an artifact (status=$status artifact=$artifact)" >&2
    exit 1
  fi
  art_size=$(stat -c %s "$artifact")
  if [ "$art_size" != "$base_size" ] || [ "$base_size" != "$size_bytes" ] || [ "$original" != "$size_bytes" ]; then
    echo "round $r: size mismatch: baseline $base_size, artifact $art_size, snapshot $original, expected $size_bytes" >&2
    exit 1
  fi
  same="sizes equal"
  if [ "$CMP" = 1 ]; then
    cmp -s "$base_file" "$artifact" || { echo "round $r: artifact bytes differ from the baseline" >&2; exit 1; }
    same="bytes identical (cmp)"
  fi
  rm -rf "$base_file" "$data" "$json" "$WORK/true-$r" "$WORK/true-$r.json"

  ratio=$(awk -v b="$BASE_NS" -v e="$EXEC_NS" 'BEGIN { printf "%.3f", b / e }')
  base_ns+=("$BASE_NS"); exec_ns+=("$EXEC_NS"); exec_cpu+=("$EXEC_CPU"); elapsed+=("$el"); ratios+=("$ratio")
  base_cpu+=("$BASE_CPU"); cmd_cpu+=("$(awk -v t="$EXEC_TREE_CPU" -v j="$EXEC_CPU" 'BEGIN { if (t == "?") print "?"; else printf "%.2f", t - j }')")
  printf 'round %d: shell %ss (CPU %ss)  exec %ss (engine elapsed %ss; command CPU %ss, JVM CPU %ss)  exec -- true %ss (JVM CPU %ss)  ratio %s  [%s]\n' \
    "$r" "$(secs "$BASE_NS")" "$BASE_CPU" "$(secs "$EXEC_NS")" "$el" "${cmd_cpu[-1]}" "$EXEC_CPU" "$(secs "${true_ns[-1]}")" "${true_cpu[-1]}" "$ratio" "$same"
done

startup_ns=$(printf '%s\n' "${true_ns[@]}" | median)
startup_ns=${startup_ns%.*}
startup_cpu=$(printf '%s\n' "${true_cpu[@]}" | median)
ratios_ex=(); ratios_el=(); cpu_capture=()
for i in "${!base_ns[@]}"; do
  ratios_ex+=("$(awk -v b="${base_ns[$i]}" -v e="${exec_ns[$i]}" -v s="$startup_ns" 'BEGIN { printf "%.3f", b / (e - s) }')")
  ratios_el+=("$(awk -v b="${base_ns[$i]}" -v e="${elapsed[$i]}" 'BEGIN { printf "%.3f", b / 1e9 / e }')")
  cpu_capture+=("$(awk -v c="${exec_cpu[$i]}" -v s="$startup_cpu" -v n="$size_bytes" 'BEGIN { printf "%.3f", (c - s) / (n / 1073741824) }')")
done
list() { local IFS=' '; echo "$*"; }
secs_list() { for ns in "$@"; do secs "$ns"; echo -n ' '; done; }

echo
echo "load:    $(cut -d' ' -f1-3 /proc/loadavg) (1/5/15 min) at end; the machine is shared, expect noise"
echo "shell time (s):            median $(secs "$(printf '%s\n' "${base_ns[@]}" | median | cut -d. -f1)")  rounds: $(secs_list "${base_ns[@]}")"
echo "exec time (s):             median $(secs "$(printf '%s\n' "${exec_ns[@]}" | median | cut -d. -f1)")  rounds: $(secs_list "${exec_ns[@]}")"
echo "exec -- true time (s):     median $(secs "$startup_ns")  rounds: $(secs_list "${true_ns[@]}")  (JVM start-up + shutdown)"
echo "JVM overhead around the session (s): before the child starts: median $(secs "$(printf '%s\n' "${pre[@]}" | median | cut -d. -f1)") (rounds: $(secs_list "${pre[@]}")); after the session ended until java exits: median $(secs "$(printf '%s\n' "${post[@]}" | median | cut -d. -f1)") (rounds: $(secs_list "${post[@]}")); the same for exec -- true: median $(secs "$(printf '%s\n' "${true_post[@]}" | median | cut -d. -f1)")"
echo "command CPU, user+sys (s): shell $(list "${base_cpu[@]}"); under exec $(list "${cmd_cpu[@]}")  (GNU time; under exec = tree minus the JVM's own)"
echo "JVM CPU (s):               capture runs $(list "${exec_cpu[@]}"); exec -- true median $startup_cpu"
echo "JVM CPU beyond exec -- true, per GB of output (s): median $(printf '%s\n' "${cpu_capture[@]}" | median)  rounds: $(list "${cpu_capture[@]}")  (mostly a fixed cost of the truncated preview and its JSON, not per byte)"
echo "capture ratio excluding JVM start-up (shell time / (exec time - exec -- true median)): median $(printf '%s\n' "${ratios_ex[@]}" | median) (rounds: $(list "${ratios_ex[@]}"))"
echo "capture ratio vs engine elapsed (shell time / snapshot elapsed_seconds): median $(printf '%s\n' "${ratios_el[@]}" | median) (rounds: $(list "${ratios_el[@]}"))"
echo "capture ratio (shell time / runboard time): median $(printf '%s\n' "${ratios[@]}" | median) (rounds: $(list "${ratios[@]}"); spread $(printf '%s\n' "${ratios[@]}" | spread); target >= 0.95)"
