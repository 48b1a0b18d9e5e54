#!/usr/bin/env bash
# Issue 5 #4 memory: heap after GC and RSS with 1,000 finished sessions of 64 KiB previews,
# ASCII, non-ASCII and log-like (as compressible as real build logs).
# Each variant runs in its own JVM (one surefire run per variant and round,
# alternating), so the heap one variant grew does not count against the other.
#
#   bench/memory.sh [ROUNDS] [JVM_ARGS]     (default 1 round; JVM_ARGS e.g. -XX:NativeMemoryTracking=summary)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-1}
jvm=${2:-}
out=target/surefire-reports/dev.runboard.bench.UiBenchmark-output.txt
status=0
for ((r = 0; r < rounds; r++)); do
  for v in memoryAscii memoryNonAscii memoryLogLike; do
    rm -f "$out"
    echo "== round $r $v $(date -u +%H:%M:%S) load $(cut -d' ' -f1 /proc/loadavg)"
    ./mvnw -B -q -Pbench test -Dtest="UiBenchmark#$v" ${jvm:+"-DargLine=$jvm"} || status=$?
    if [ -f "$out" ]; then
      cp "$out" "target/bench-memory-$v-$r.txt"
      grep -v -e "Unsupported JavaFX configuration" -e "^WARNING: Could not resolve" -e "CssStyleHelper" -e "PlatformImpl startup" "$out"
    else
      echo "memory.sh: no benchmark output for $v" >&2
    fi
  done
done
exit "$status"
