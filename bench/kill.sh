#!/usr/bin/env bash
# Kill benchmark (issue 5 #6): runs the KillBenchmark JUnit class (tag "bench", excluded from
# `./mvnw test`) and prints its figures. Surefire writes test output to a file
# (redirectTestOutputToFile), so this script prints that file when the run ends.
#
#   bench/kill.sh [ROUNDS]     (default 5)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-5}
out=target/surefire-reports/dev.runboard.bench.KillBenchmark-output.txt
rm -f "$out"
status=0
./mvnw -B -q -Pbench test -Dtest=KillBenchmark -Dbench.rounds="$rounds" || status=$?
if [ -f "$out" ]; then
  cat "$out"
else
  echo "kill.sh: no benchmark output at $out" >&2
fi
exit "$status"
