# Sourced by the benches that time a candidate against a baseline in pairs (bench/jvm-beside.sh,
# bench/exec-without-jvm.sh): the A B B A order, each run's time recorded, and the pairs' summary.
# The sourcing script calls abba_prepare, and defines run VARIANT, which does one timed run and calls abba_record.

# What each such bench starts with: the jar built (else SCRIPT says how to build it), a work dir in $work removed
# at exit, and the line its 1 GiB command repeats in $LINE.
abba_prepare() { # SCRIPT
  [ -f target/runboard.jar ] || { echo "$1: no target/runboard.jar; build it with ./mvnw -B package -DskipTests" >&2; exit 1; }
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  LINE='runboard capture benchmark line .................................................................'
}

# Appends "VARIANT SECONDS" to FILE for a run between two $EPOCHREALTIME readings.
abba_record() { # VARIANT T0 T1 FILE
  echo "$1 $(awk -v a="${2/,/.}" -v b="${3/,/.}" 'BEGIN { printf "%.4f", b - a }')" >>"$4"
}

# PAIRS pairs, the candidate first in even pairs and the baseline first in odd ones, so that neither always
# follows the other.
abba_loop() { # PAIRS CANDIDATE BASELINE
  local i
  for ((i = 0; i < $1; i++)); do
    if ((i % 2)); then run "$3"; run "$2"; else run "$2"; run "$3"; fi
  done
}

# The median of the pairs' ratios (candidate ÷ baseline), how many pairs satisfy OP LIMIT (e.g. ">= 0.99"),
# the median times, and every pair's ratio in run order.
abba_report() { # FILE CANDIDATE BASELINE OP LIMIT
  python3 - "$@" <<'PY'
import operator, statistics, sys
path, candidate, baseline, op, limit = sys.argv[1:]
holds = {">=": operator.ge, "<=": operator.le}[op]
rows = [line.split() for line in open(path)]
ratios = []
for i in range(0, len(rows), 2):
    (v1, t1), (v2, t2) = rows[i], rows[i + 1]
    ratios.append(float(t1) / float(t2) if v1 == candidate else float(t2) / float(t1))
times = {v: statistics.median(float(t) for w, t in rows if w == v) for v in (baseline, candidate)}
shown = {">=": "≥", "<=": "≤"}[op]
print(f"{candidate} ÷ {baseline}, median of {len(ratios)} pairs: {statistics.median(ratios):.3f} "
      f"({sum(holds(r, float(limit)) for r in ratios)} pairs {shown} {limit}); median times: "
      f"{baseline} {times[baseline]:.3f} s, {candidate} {times[candidate]:.3f} s")
print("pairs: " + " ".join(f"{r:.2f}" for r in ratios))
PY
}
