#!/usr/bin/env bash
# Remote sessions (issue #19) against a private sshd on this machine, as a second local user.
#
#   bench/remote.sh [--bytes 1G] [--rounds 3] [--pages 5] [--sessions 50] [--idle 20] [--jar target/runboard.jar]
#                   [--via bin|java] [--floor ROUNDS]
#
# 1. Capture: `runboard exec --host H -- CMD` (the output written to a file on the host and
#    mirrored here byte for byte by the session's output stream, hash-checked) against `ssh H 'CMD > file'` (the output stays on
#    the host; the issue's baseline) and `ssh H CMD > file` (the bytes streamed here, what the mirror
#    must at least cost), interleaved rounds; ratio = baseline time / runboard time. Last, the median of
#    runboard's time over plain `ssh H CMD > file`'s, pair by pair (issue 43's figure: --bytes 512M --rounds 5).
#    --via: how exec is run: bin (default) through bin/runboard with RUNBOARD_JAR=JAR, as a person runs it (the
#    client JVM's options and class-data archive); java: a bare `java -jar JAR` (the figures before 2026-12-07 11:00).
# 1a. Floor (--floor ROUNDS, default 0): what the design costs with no runboard at all. A remote session's
#    output goes to a file on the host (it outlives the link) and is streamed from there; here the command
#    writes a file on the host and a minimal follower (bench/follow.py: sendfile(2) from the file to ssh's
#    pipe, a look every 2 ms) streams it through one plain ssh call into a file here, against plain
#    `ssh H CMD > file`, interleaved. Its median ratio is the least issue 43's figure can be on this machine.
#    Then the same piped through cat before the file: the least a design can cost whose one ssh stream per
#    host carries every session's bytes, which a local process must copy into each session's capture.
# 1b. Last page: a remote output of BYTES none of which is mirrored here, opened as the viewer opens
#    it (bench/RemoteLastPage.java: the page worker's End, by byte ranges over runboard's ssh master)
#    against bringing it whole first (`ssh H cat OUT > file`, then tail), PAGES interleaved rounds.
# 2. Polling: N remote `sleep` sessions started with `runboard start --host`; the supervisor's CPU
#    (its own + its reaped ssh clients', /proc/PID/stat utime+stime+cutime+cstime) and the remote
#    helper's (the sshd side, read as the test user's processes' CPU is not separable: the whole
#    machine's busy time from /proc/stat is printed beside it) over IDLE seconds, against the same
#    supervisor with no sessions.
# Needs root (a second user, sshd); run .ci/sshd-setup first. Temp files are removed on exit.
# RUNBOARD_TEST_SSH_USER names another test user (as for .ci/sshd-setup): the remote-session tests
# clear their user's runboard folder when they end, which must not hit a benchmark running meanwhile.
set -euo pipefail
cd "$(dirname "$0")/.."

BYTES=1G; ROUNDS=3; PAGES=5; SESSIONS=50; IDLE=20; JAR=target/runboard.jar; VIA=bin; FLOOR=0
while [ $# -gt 0 ]; do
  case "$1" in
    --bytes) BYTES=$2; shift 2 ;;
    --rounds) ROUNDS=$2; shift 2 ;;
    --pages) PAGES=$2; shift 2 ;;
    --sessions) SESSIONS=$2; shift 2 ;;
    --idle) IDLE=$2; shift 2 ;;
    --jar) JAR=$2; shift 2 ;;
    --via) VIA=$2; shift 2 ;;
    --floor) FLOOR=$2; shift 2 ;;
    -h|--help) sed -n '2,31p' "$0"; exit 0 ;;
    *) echo "remote.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
  esac
done
[ -f "$JAR" ] || ./mvnw -B -q package -DskipTests
.ci/sshd-setup >/dev/null
USER_=${RUNBOARD_TEST_SSH_USER:-runboard-remote}
id "$USER_" >/dev/null 2>&1 || { echo "remote.sh: needs the test user (run .ci/sshd-setup as root)" >&2; exit 2; }

WORK=$(mktemp -d); chmod 755 "$WORK"
SSHD_PID=
export RUNBOARD_HOME="$WORK/data" RUNBOARD_SSH_CONFIG="$WORK/ssh_config"
unset XDG_RUNTIME_DIR   # runboard's control sockets then go under this run's data dir, ended on exit
cleanup() {
  java -jar "$JAR" supervisor stop >/dev/null 2>&1 || true
  ssh -F "$RUNBOARD_SSH_CONFIG" -o ControlPath="$WORK/bench.ctl" -O exit rb-bench >/dev/null 2>&1 || true
  # runboard's own master (ControlPersist keeps it for later commands; this data dir is going away)
  for sock in "$RUNBOARD_HOME"/ssh/*; do
    [ -S "$sock" ] && ssh -F "$RUNBOARD_SSH_CONFIG" -o ControlPath="$sock" -O exit rb-bench >/dev/null 2>&1 || true
  done
  [ -n "$SSHD_PID" ] && kill "$SSHD_PID" 2>/dev/null || true
  rm -rf "$WORK"
  su -s /bin/sh "$USER_" -c 'rm -rf "$HOME/.cache/runboard-remote" /tmp/rb-bench-out /tmp/rb-bench-floor' 2>/dev/null || true
}
trap cleanup EXIT

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
ssh-keygen -q -t ed25519 -N '' -f "$WORK/host"; ssh-keygen -q -t ed25519 -N '' -f "$WORK/id"
cp "$WORK/id.pub" "$WORK/authorized_keys"; chmod 644 "$WORK/authorized_keys"
mkdir -p /run/sshd
cat > "$WORK/sshd_config" <<CFG
Port $port
ListenAddress 127.0.0.1
HostKey $WORK/host
PidFile $WORK/sshd.pid
UsePAM no
PasswordAuthentication no
AuthorizedKeysFile $WORK/authorized_keys
StrictModes no
MaxSessions 100
LogLevel ERROR
CFG
/usr/sbin/sshd -D -e -f "$WORK/sshd_config" 2>"$WORK/sshd.log" & SSHD_PID=$!
echo "rb-bench $(cut -d' ' -f1,2 "$WORK/host.pub")" > "$WORK/known_hosts"
cat > "$RUNBOARD_SSH_CONFIG" <<CFG
Host rb-bench
  HostName 127.0.0.1
  Port $port
  User $USER_
  IdentityFile $WORK/id
  IdentitiesOnly yes
  UserKnownHostsFile $WORK/known_hosts
  HostKeyAlias rb-bench
  StrictHostKeyChecking yes
  BatchMode yes
CFG
for _ in $(seq 100); do ssh -F "$RUNBOARD_SSH_CONFIG" rb-bench true 2>/dev/null && break; sleep 0.1; done
SSH=(ssh -F "$RUNBOARD_SSH_CONFIG" -o ControlMaster=auto -o ControlPath="$WORK/bench.ctl" -o ControlPersist=60 rb-bench)

LINE='runboard remote benchmark line ...............................................................'
CMD="yes '$LINE' | head -c $BYTES"
expected=$(sh -c "$CMD" | sha256sum | cut -d' ' -f1)
now() { date +%s.%N; }
echo "== capture of $BYTES: ssh H 'CMD > file' (baseline) vs runboard exec --host (file there + mirror here)"
"${SSH[@]}" true
case "$VIA" in
  bin) RUNBOARD=(env RUNBOARD_JAR="$(readlink -f "$JAR")" bin/runboard) ;;
  java) RUNBOARD=(java -jar "$JAR") ;;
  *) echo "remote.sh: --via takes bin or java" >&2; exit 2 ;;
esac
EXEC=("${RUNBOARD[@]}" exec)
# Installs the helper and opens the master; brings the data dir's supervisor up, which runs every exec --host (after
# it, bin/runboard's thin client hands the call over with no JVM); via bin, makes the class-data archive.
"${EXEC[@]}" --host rb-bench --cwd /tmp -- true >/dev/null
ratios=(); sratios=(); overs=()
for r in $(seq "$ROUNDS"); do
  ts=$(now); "${SSH[@]}" "$CMD" > "$WORK/streamed"; t0=$(now); rm -f "$WORK/streamed"
  stream=$(echo "$t0 - $ts" | bc)
  t0=$(now); "${SSH[@]}" "$CMD > /tmp/rb-bench-out"; t1=$(now)
  base=$(echo "$t1 - $t0" | bc)
  "${SSH[@]}" "rm -f /tmp/rb-bench-out"
  t1=$(now)
  out=$("${EXEC[@]}" --host rb-bench --cwd /tmp -- "$CMD"); t2=$(now)
  read -r raw id < <(printf '%s' "$out" | python3 -c 'import json,sys; s=json.load(sys.stdin); print(s["raw_output"], s["session_id"])')
  got=$(sha256sum "$raw" | cut -d' ' -f1)
  [ "$got" = "$expected" ] || { echo "round $r: hash MISMATCH ($got vs $expected)"; exit 1; }
  rb=$(echo "$t2 - $t1" | bc)
  ratio=$(echo "scale=2; $base / $rb" | bc); ratios+=("$ratio")
  sratio=$(echo "scale=2; $stream / $rb" | bc); sratios+=("$sratio")
  overs+=("$(echo "scale=3; $rb / $stream" | bc)")
  printf 'round %d: ssh redirect there %.2f s, ssh streamed here %.2f s, runboard %.2f s (hash equal); ratios %s and %s\n' \
    "$r" "$base" "$stream" "$rb" "$ratio" "$sratio"
  "${RUNBOARD[@]}" remove "$id" >/dev/null # its capture and artifact, through the supervisor that owns them
done
echo "ratios to ssh 'CMD > file': ${ratios[*]}; to ssh CMD > file here: ${sratios[*]}"
if [ "${#overs[@]}" -gt 0 ]; then
  median=$(printf '%s\n' "${overs[@]}" | sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}')
  echo "runboard exec --host / ssh H CMD > file, pair by pair: ${overs[*]}; median $median"
fi

if [ "$FLOOR" -gt 0 ]; then
  echo "== floor: ssh H '(CMD) > file there & follow it' > file here (no runboard) vs ssh H CMD > file here"
  cp bench/follow.py "$WORK/follow.py"; chmod 644 "$WORK/follow.py"
  floors=(); copies=()
  for r in $(seq "$FLOOR"); do
    ts=$(now); "${SSH[@]}" "$CMD" > "$WORK/streamed"; t0=$(now); rm -f "$WORK/streamed"
    stream=$(echo "$t0 - $ts" | bc)
    t1=$(now)
    "${SSH[@]}" "rm -f /tmp/rb-bench-floor; ($CMD) > /tmp/rb-bench-floor & python3 $WORK/follow.py /tmp/rb-bench-floor \$!" > "$WORK/followed"
    t2=$(now)
    got=$(sha256sum "$WORK/followed" | cut -d' ' -f1); rm -f "$WORK/followed"
    [ "$got" = "$expected" ] || { echo "floor round $r: hash MISMATCH ($got vs $expected)"; exit 1; }
    floor=$(echo "$t2 - $t1" | bc); floors+=("$(echo "scale=3; $floor / $stream" | bc)")
    t1=$(now)
    "${SSH[@]}" "rm -f /tmp/rb-bench-floor; ($CMD) > /tmp/rb-bench-floor & python3 $WORK/follow.py /tmp/rb-bench-floor \$!" \
      | cat > "$WORK/followed"
    t2=$(now)
    got=$(sha256sum "$WORK/followed" | cut -d' ' -f1); rm -f "$WORK/followed"
    [ "$got" = "$expected" ] || { echo "floor round $r: hash MISMATCH through cat ($got vs $expected)"; exit 1; }
    copied=$(echo "$t2 - $t1" | bc); copies+=("$(echo "scale=3; $copied / $stream" | bc)")
    printf 'round %d: ssh streamed here %.2f s, file there + follower %.2f s, the same through cat %.2f s (hashes equal)\n' \
      "$r" "$stream" "$floor" "$copied"
  done
  median_of() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
  echo "file there + follower / ssh H CMD > file, pair by pair: ${floors[*]}; median $(median_of "${floors[@]}")"
  echo "the same through cat (one local process copying, as one stream shared by a host's sessions would) / ssh H CMD > file: ${copies[*]};" \
    "median $(median_of "${copies[@]}")"
fi

if [ "$PAGES" -gt 0 ]; then
  echo "== last page of a remote $BYTES output, nothing of it mirrored: by byte ranges vs bringing it whole"
  client=$(java -cp "$JAR" bench/RemoteLastPage.java "$RUNBOARD_HOME")
  out=".cache/runboard-remote/$client/s/20260101-000000-lastpage/out"
  "${SSH[@]}" "mkdir -p \$(dirname $out) && $CMD > $out"
  for r in $(seq "$PAGES"); do
    t0=$(now); "${SSH[@]}" "cat $out" > "$WORK/whole"; tail -n 40 "$WORK/whole" > /dev/null; t1=$(now)
    rm -f "$WORK/whole"
    page=$(java -cp "$JAR" bench/RemoteLastPage.java "$RUNBOARD_HOME" rb-bench 20260101-000000-lastpage 40)
    printf 'round %d: whole then tail %.2f s; %s\n' "$r" "$(echo "$t1 - $t0" | bc)" "$page"
  done
  "${SSH[@]}" "rm -rf \$(dirname $out)"
fi

cpu_of() { awk '{print $14+$15+$16+$17}' "/proc/$1/stat"; }
busy() { awk '/^cpu /{print $2+$3+$4+$7+$8}' /proc/stat; }
hz=$(getconf CLK_TCK)
echo "== polling: $SESSIONS remote sessions on one host, ${IDLE} s"
[ "$SESSIONS" -gt 0 ] || exit 0
java -jar "$JAR" start --host rb-bench --cwd /tmp -- true >/dev/null
sup=$(java -jar "$JAR" supervisor status 2>/dev/null | grep -o '"pid" *: *[0-9]*' | head -1 | grep -o '[0-9]*$')
# The host side: this run's sshd processes below the listener (the per-connection sshd and, reaped
# into its children's time, the helper's perl of every poll).
host_cpu() {
  local total=0 p
  for p in $(ps -o pid= --ppid "$SSHD_PID"; for q in $(ps -o pid= --ppid "$SSHD_PID"); do ps -o pid= --ppid "$q"; done); do
    [ -r "/proc/$p/stat" ] && total=$((total + $(cpu_of "$p")))
  done
  echo "$total"
}
measure() {
  local c0 b0 h0 c1 b1 h1
  c0=$(cpu_of "$sup"); b0=$(busy); h0=$(host_cpu); sleep "$IDLE"; c1=$(cpu_of "$sup"); b1=$(busy); h1=$(host_cpu)
  echo "$(echo "scale=2; 100 * ($c1 - $c0) / $hz / $IDLE" | bc) $(echo "scale=2; 100 * ($b1 - $b0) / $hz / $IDLE" | bc)" \
    "$(echo "scale=2; 100 * ($h1 - $h0) / $hz / $IDLE" | bc)"
}
read -r s0 m0 h0 < <(measure)
printf 'no sessions:  supervisor %s %% of a core, host side (sshd + helper) %s %%, machine %s %%\n' "$s0" "$h0" "$m0"
ids=()
for _ in $(seq "$SESSIONS"); do ids+=("$(java -jar "$JAR" start --host rb-bench --cwd /tmp -- sleep 600)"); done
read -r s1 m1 h1 < <(measure)
printf '%d sessions: supervisor %s %% of a core (its ssh clients included), host side (sshd + helper) %s %%, machine %s %%\n' \
  "$SESSIONS" "$s1" "$h1" "$m1"
t0=$(now)
for id in "${ids[@]}"; do java -jar "$JAR" kill "$id" >/dev/null; done
echo "killed $SESSIONS in $(echo "$(now) - $t0" | bc) s"
