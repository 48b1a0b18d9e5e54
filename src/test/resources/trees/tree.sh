#!/bin/sh
# A nested tree: each level is a shell with three sleeps and two deeper levels.
depth=${1:-4}
for i in 1 2 3; do sleep 1000 & done
if [ "$depth" -gt 1 ]; then
  sh "$0" $((depth - 1)) &
  sh "$0" $((depth - 1)) &
fi
wait
