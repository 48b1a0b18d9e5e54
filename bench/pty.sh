#!/bin/sh
# PTY capture throughput against plain (file-redirect) capture: the same 200 MB of 100-byte lines
# through `runboard exec` with and without --pty, three runs each; prints the session's own
# elapsed time (JVM start-up excluded) and the ratio of the medians. PTY sessions run under util-linux
# script; PtyThroughputBenchmark compares that with the pty4j path (a JVM thread copying the master).
# Usage: ./mvnw -B -q package -DskipTests && bench/pty.sh [MB]
set -eu
MB=${1:-200}
JAR=${JAR:-target/runboard.jar}
DATA=$(mktemp -d)
trap 'rm -rf "$DATA"' EXIT
CMD="yes \"\$(printf '%099d' 0)\" | head -c ${MB}M"

run() { # $1 = extra flag or empty; prints elapsed seconds
    java -jar "$JAR" exec --data-dir "$DATA" --shell /bin/sh $1 -- "$CMD" \
        | sed -n 's/.*"elapsed_seconds" *: *\([0-9.]*\).*/\1/p'
    rm -rf "$DATA"/artifacts "$DATA"/sessions
}

median() { sort -n | sed -n 2p; }

plain=$( (run ""; run ""; run "") | median)
pty=$( (run --pty; run --pty; run --pty) | median)
echo "output: ${MB} MB of 100-byte lines: $CMD"
echo "plain (redirect to file): ${plain} s"
echo "pty (held by script):     ${pty} s"
awk -v a="$pty" -v b="$plain" 'BEGIN { printf "pty / plain time ratio: %.2f  (throughput: plain %.0f MB/s, pty %.0f MB/s)\n", a / b, '"$MB"' / b, '"$MB"' / a }'
