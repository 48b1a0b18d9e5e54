#!/bin/sh
# Everything that makes a tree hard to kill, in one session.
here=$(dirname "$0")
sh "$here/tree.sh" 4 &                                             # 4 levels of shells and sleeps
sh -c "trap '' TERM; while :; do sleep 1; done" &                  # ignores SIGTERM
sh -c "trap 'sleep 1000 &' TERM; while :; do sleep 0.05; done" &   # forks a new child when TERMed
(setsid sh -c 'sleep 1000 & exec sleep 1000' &)                    # double-forked daemon in its own session
setsid sh -c 'while :; do sleep 1000 & sleep 0.02; done' &         # forking loop that left the group
while :; do sleep 1000 & sleep 0.02; done &                        # forking loop inside the group
echo ready
wait
