#!/usr/bin/env bash
# UI benchmarks (issue 5 #2 smoothness, #3 poll cost + idle CPU, #4 memory) on the real window
# under headless Monocle, as the tests run. Prints the figures with their same-run baselines.
#
#   bench/ui.sh [ROUNDS] [METHOD]     (default 3 rounds, all methods)
#   #3: bench/ui.sh 3 pollCostWith1000SessionsAnd50RunningThenIdleCpu   (-Dbench.ticks, -Dbench.idleSeconds)
#   #4: bench/memory.sh [ROUNDS] [JVM_ARGS]   (one JVM per variant; not through this script)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
test=UiBenchmark${2:+#$2}
out=target/surefire-reports/dev.runboard.bench.UiBenchmark-output.txt
rm -f "$out"
status=0
./mvnw -B -q -Pbench test -Dtest="$test" -Dbench.rounds="$rounds" ${BENCH_OPTS:-} || status=$?
if [ -f "$out" ]; then
  grep -v "Unsupported JavaFX configuration" "$out"
else
  echo "ui.sh: no benchmark output at $out" >&2
fi
exit "$status"
