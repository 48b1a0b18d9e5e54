#!/usr/bin/env bash
# Viewer benchmark (issue 5 #5): last page of 1 GB and 5 GB files vs `tail -n 40`, line index
# vs `wc -l`, whole-file search vs `grep -c [-i] -E` (interleaved rounds). Writes ~6 GB of test
# files in target/ (or BENCH_DIR) and deletes them.
#
#   bench/viewer.sh [ROUNDS]     (default 5)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-5}
dir=${BENCH_DIR:-target}
mkdir -p "$dir"
out=target/surefire-reports/dev.runboard.ui.viewer.ViewerBenchmark-output.txt
rm -f "$out"
status=0
./mvnw -B -q -Pbench test -Dtest=ViewerBenchmark -Dbench.rounds="$rounds" -Dbench.dir="$(cd "$dir" && pwd)" || status=$?
if [ -f "$out" ]; then
  cat "$out"
else
  echo "viewer.sh: no benchmark output at $out" >&2
fi
exit "$status"
