#!/usr/bin/env bash
# runboard against its peers (issue 16), in one run: supervisord, pm2 and tmux when installed (each absent one
# is skipped with a line saying so).
#
#   bench/peers.sh [--bytes 1G] [--rounds 3]        needs target/runboard.jar (./mvnw -B package -DskipTests)
#
# 1. Capture: BYTES of 100-byte lines (`yes LINE | head -c BYTES` in bash) into a file, against the shell
#    redirect (`bash -c CMD > FILE`), rounds interleaved. runboard: `bin/runboard exec` (JVM start included,
#    until it exits); supervisord and pm2: their daemon already up (started before the rounds, as a user
#    has it), timed from `supervisorctl start` / `pm2 start` until their log file holds BYTES bytes. tmux has
#    no capture to a file of its own (a pane is a terminal; pipe-pane copies what the terminal shows), so
#    it is not timed. Prints each one's median and its ratio to the shell's median (lower is better).
# 2. Hostile tree: each tool starts the same tree (a TERM ignorer, a process in a session of its own, a
#    double-forked orphan, a TERM/HUP/INT-ignoring loop that keeps starting sleeps, a plain sleep), waits
#    until all of it runs, stops it its own way with a 2 s grace (runboard `kill --grace 2s`; supervisord
#    `stop` with stopasgroup/killasgroup, stopwaitsecs=2; pm2 `stop` with --kill-timeout 2000; tmux
#    `kill-session`), waits 3 s more, and counts the tree's processes still alive (found by an environment
#    tag in /proc). The shell's own floor is Ctrl-C's: TERM to the process group, KILL after 2 s.
# Every process started here is tagged and swept at the end; each daemon gets its own temp folder.
set -euo pipefail
cd "$(dirname "$0")/.."
BYTES=1G
ROUNDS=3
while [ $# -gt 0 ]; do
  case "$1" in
    --bytes) BYTES=$2; shift 2 ;;
    --rounds) ROUNDS=$2; shift 2 ;;
    -h | --help) sed -n '2,20p' "$0"; exit 0 ;;
    *) echo "peers.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
  esac
done
[ -f target/runboard.jar ] || { echo "peers.sh: no target/runboard.jar; build it with ./mvnw -B package -DskipTests" >&2; exit 1; }
size=$(numfmt --from=iec "$BYTES")
LINE='runboard peers benchmark line ....................................................................'
CMD="yes '$LINE' | head -c $size"
W="$(mktemp -d)"
export XDG_CACHE_HOME="$W/cache" RUNBOARD_HOME="$W/runboard" PM2_HOME="$W/pm2"
TAG="peers-$$"

have() { command -v "$1" >/dev/null 2>&1; }
tools=(runboard)
if have supervisord && have supervisorctl; then tools+=(supervisord); else echo "supervisord: not installed, skipped (Debian: apt-get install supervisor)"; fi
if have pm2; then tools+=(pm2); else echo "pm2: not installed, skipped (npm install -g pm2)"; fi
if have tmux; then tools+=(tmux); else echo "tmux: not installed, skipped (apt-get install tmux)"; fi

tagged() { # pids of live processes carrying this run's tag (zombies have ended)
  for p in /proc/[0-9]*; do
    { tr '\0' '\n' <"$p/environ"; } 2>/dev/null | grep -qx "PEER_TAG=$TAG" || continue
    [ "$(awk '{print $3}' "$p/stat" 2>/dev/null)" = Z ] && continue
    echo "${p#/proc/}"
  done
}
cleanup() {
  set +e
  have tmux && tmux -L "$TAG" kill-server 2>/dev/null
  [ -f "$W/sup.conf" ] && supervisorctl -c "$W/sup.conf" shutdown >/dev/null 2>&1
  have pm2 && [ -d "$PM2_HOME" ] && pm2 kill >/dev/null 2>&1
  bin/runboard supervisor stop >/dev/null 2>&1
  for pid in $(tagged); do kill -9 "$pid" 2>/dev/null; done
  rm -rf "$W"
}
trap cleanup EXIT

cat >"$W/hostile.sh" <<'EOF'
#!/bin/bash
# A tree that resists being stopped: every process carries PEER_TAG from its environment.
(trap '' TERM; exec sleep 1000) &                        # ignores TERM
setsid sleep 1000 &                                      # a session and process group of its own
( (exec sleep 1000 &) )                                  # double-forked: an orphan, reparented away
(trap '' TERM HUP INT; while :; do sleep 1; done) &      # ignores TERM, HUP and INT, keeps starting sleeps
sleep 1000 &
wait
EOF
chmod +x "$W/hostile.sh"

# --- daemons up (not timed) -------------------------------------------------------------------------------
mkdir -p "$W/sup"
if [[ " ${tools[*]} " == *" supervisord "* ]]; then
  cat >"$W/sup.conf" <<EOF
[unix_http_server]
file=$W/sup/sock
[supervisord]
logfile=$W/sup/supervisord.log
pidfile=$W/sup/pid
childlogdir=$W/sup
[rpcinterface:supervisor]
supervisor.rpcinterface_factory = supervisor.rpcinterface:make_main_rpcinterface
[supervisorctl]
serverurl=unix://$W/sup/sock
[program:capture]
command=/bin/bash -c "$CMD"
autostart=false
autorestart=false
startsecs=0
stdout_logfile=$W/sup/capture.out
stdout_logfile_maxbytes=0
stdout_logfile_backups=0
[program:hostile]
command=$W/hostile.sh
autostart=false
autorestart=false
startsecs=0
stopasgroup=true
killasgroup=true
stopwaitsecs=2
environment=PEER_TAG="$TAG"
EOF
  supervisord -c "$W/sup.conf"
  # `pid` answers once supervisord listens (`status` exits 3 while a program is stopped).
  for _ in $(seq 100); do supervisorctl -c "$W/sup.conf" pid >/dev/null 2>&1 && break; sleep 0.1; done
fi
if [[ " ${tools[*]} " == *" pm2 "* ]]; then pm2 ping >/dev/null; fi
bin/runboard list >/dev/null # brings runboard's supervisor up and makes bin/runboard's class-data archive

now() { date +%s%N; }
wait_size() { # FILE: until it holds $size bytes (5 min at most; a round that never gets there is left out)
  local deadline=$(($(date +%s) + 300))
  while [ "$(stat -c %s "$1" 2>/dev/null || echo 0)" -lt "$size" ]; do
    [ "$(date +%s)" -lt "$deadline" ] || { echo "peers.sh: $1 never reached $size bytes" >&2; return 1; }
    sleep 0.02
  done
}

# --- 1. capture --------------------------------------------------------------------------------------------
declare -A times
echo "capture: $BYTES ($size bytes), $ROUNDS rounds, load $(cut -d' ' -f1-3 /proc/loadavg)"
for ((r = 1; r <= ROUNDS; r++)); do
  sync; t0=$(now); bash -c "$CMD" >"$W/shell.out"; t1=$(now)
  times[shell]+="$(((t1 - t0) / 1000000)) "; rm -f "$W/shell.out"
  sync; t0=$(now); bin/runboard exec --shell /bin/bash -- "$CMD" >"$W/exec.json"; t1=$(now)
  times[runboard]+="$(((t1 - t0) / 1000000)) "
  art="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["raw_output"])' "$W/exec.json")"
  [ "$(stat -c %s "$art")" = "$size" ] || echo "  runboard round $r: the capture holds $(stat -c %s "$art") bytes, not $size"
  rm -f "$art"
  if [[ " ${tools[*]} " == *" supervisord "* ]]; then
    : >"$W/sup/capture.out"; sync; t0=$(now)
    supervisorctl -c "$W/sup.conf" start capture >/dev/null
    if wait_size "$W/sup/capture.out"; then t1=$(now); times[supervisord]+="$(((t1 - t0) / 1000000)) "; else times[supervisord]+=""; fi
  fi
  if [[ " ${tools[*]} " == *" pm2 "* ]]; then
    # A log file of its own each round: pm2's daemon may still hold the last one open.
    pm2 delete capture >/dev/null 2>&1 || true; sync; t0=$(now)
    pm2 start /bin/bash --name capture --no-autorestart -o "$W/pm2-$r.out" -e "$W/pm2-$r.err" -- -c "$CMD" >/dev/null
    if wait_size "$W/pm2-$r.out"; then t1=$(now); times[pm2]+="$(((t1 - t0) / 1000000)) "; else times[pm2]+=""; fi
    pm2 delete capture >/dev/null 2>&1 || true; rm -f "$W/pm2-$r.out"
  fi
  echo "  round $r: $(for k in shell runboard supervisord pm2; do [ -n "${times[$k]+x}" ] && printf '%s %s ms; ' "$k" "$(echo ${times[$k]} | awk '{print $NF}')"; done)"
done
median() { tr ' ' '\n' | grep . | sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
shell_med=$(echo "${times[shell]}" | median)
echo
echo "| capture of $BYTES | median s | ÷ shell redirect | rounds (ms) |"
echo "|---|---:|---:|---|"
for k in shell runboard supervisord pm2; do
  [ -n "${times[$k]+x}" ] || continue
  m=$(echo "${times[$k]}" | median)
  awk -v m="$m" -v s="$shell_med" -v k="$k" -v r="${times[$k]}" 'BEGIN { printf "| %s | %.2f | %.2f× | %s|\n", k, m / 1000, m / s, r }'
done
[[ " ${tools[*]} " == *" tmux "* ]] && echo "| tmux | — | — | no capture to a file of its own |"

# --- 2. hostile tree -----------------------------------------------------------------------------------------
started() { # waits until the tree's 6+ tagged processes run
  for _ in $(seq 100); do [ "$(tagged | wc -l)" -ge 6 ] && return 0; sleep 0.1; done
  echo "peers.sh: the hostile tree did not come up" >&2
}
survivors() { # how many of the tree live 3 s after the stop, and which; then they are killed
  sleep 3
  local pids n
  pids="$(tagged)"
  n=$(echo "$pids" | grep -c . || true)
  for pid in $pids; do printf ' `%s`' "$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null)" >&3; kill -9 "$pid" 2>/dev/null; done
  echo "$n"
}
# Only the trees carry the tag, not a daemon a start may bring up: runboard's supervisor (it may have idled
# out during the capture rounds) is brought up untagged first.
bin/runboard list >/dev/null
echo
echo "| hostile tree (6+ processes), stopped with a 2 s grace | survivors 3 s later | which |"
echo "|---|---:|---|"
PEER_TAG="$TAG" setsid "$W/hostile.sh" &
pg=$!
started
kill -TERM -- "-$pg" 2>/dev/null; sleep 2; kill -KILL -- "-$pg" 2>/dev/null || true
exec 3>>"$W/which"
echo "| shell floor: TERM to the group, KILL after 2 s | $(survivors) |$(cat "$W/which"; : >"$W/which") |"
id="$(PEER_TAG="$TAG" bin/runboard start -- "$W/hostile.sh")"; started
bin/runboard kill "$id" --grace 2s >/dev/null
echo "| runboard \`kill --grace 2s\` | $(survivors) |$(cat "$W/which"; : >"$W/which") |"
if [[ " ${tools[*]} " == *" supervisord "* ]]; then
  supervisorctl -c "$W/sup.conf" start hostile >/dev/null; started
  supervisorctl -c "$W/sup.conf" stop hostile >/dev/null
  echo "| supervisord \`stop\` (stopasgroup, killasgroup, stopwaitsecs=2) | $(survivors) |$(cat "$W/which"; : >"$W/which") |"
fi
if [[ " ${tools[*]} " == *" pm2 "* ]]; then
  PEER_TAG="$TAG" pm2 start "$W/hostile.sh" --name hostile --no-autorestart --kill-timeout 2000 >/dev/null; started
  pm2 stop hostile >/dev/null
  echo "| pm2 \`stop\` (--kill-timeout 2000) | $(survivors) |$(cat "$W/which"; : >"$W/which") |"
  pm2 delete hostile >/dev/null 2>&1 || true
fi
if [[ " ${tools[*]} " == *" tmux "* ]]; then
  # The tmux server itself is not tagged: only the session's command is.
  env -u PEER_TAG tmux -L "$TAG" new-session -d -s hostile -e "PEER_TAG=$TAG" "$W/hostile.sh"; started
  tmux -L "$TAG" kill-session -t hostile
  echo "| tmux \`kill-session\` | $(survivors) |$(cat "$W/which"; : >"$W/which") |"
fi
