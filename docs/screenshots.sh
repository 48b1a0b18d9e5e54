#!/bin/bash
# Retakes every screenshot in docs/ with today's window: the main window at the sizes the layout is
# tested at (a temp RUNBOARD_HOME with the demo sessions, one in each status, and a workspace open),
# the dark theme, the detail pane, the New session dialog and the artifact viewer on a 300 MB log.
# usage: docs/screenshots.sh [NAME...]   (after ./mvnw -q package -DskipTests; names: 1024x700 1280x800
#        main dark detail dialog viewer slurm; none means all; and `remote`, named alone: it needs root, see below;
#        slurm needs root too, for its one-node cluster; `dialogs`, named alone: every dialog at 1024x700 and
#        1280x800, light and dark, into docs/dialogs/, by the window-manager check, which may install Xvfb and openbox)
set -eu
cd "$(dirname "$0")/.."
ws=$(mktemp -d)
homes=()
# Each window's data dir has its supervisor (the demo's sessions are its): their sessions killed and it stopped,
# then the folders go. Only where one is up (its address file): a kill here would start one otherwise.
cleanup() {
  local home
  for home in "${homes[@]}"; do
    [ -e "$home/supervisor.address" ] || continue
    RUNBOARD_HOME="$home" java -jar "$jar" kill --status running --grace 0 >/dev/null 2>&1 || true
    RUNBOARD_HOME="$home" java -jar "$jar" supervisor stop >/dev/null 2>&1 || true
  done
  rm -rf "$ws" "${homes[@]}"
}
trap cleanup EXIT
want=" ${*:-1024x700 1280x800 main dark detail dialog viewer slurm} "
if [ "$want" = " dialogs " ]; then
  # DialogsUnderWindowManagerTest saves each dialog (and the window) it checks, under a real window manager.
  for theme in light dark; do
    RUNBOARD_WM_SIZES="1024x700 1280x800" RUNBOARD_WM_MAVEN_ARGS="-Drunboard.screenshots=$PWD/docs/dialogs -Drunboard.theme=$theme" \
      .ci/window-manager
  done
  exit 0
fi
wanted() { [[ $want == *" $1 "* ]]; }
cat >"$ws/runboard.yaml" <<'YAML'
name: shop
commands:
  web:
    command: python3 -m http.server 8080
    group: dev
    depends_on: {worker: started}
    restart: on-failure
  worker:
    command: ./worker --queue default --verbose
    group: dev
  test:
    command: ./gradlew test --continue
  lint:
    command: npx eslint . --max-warnings 0
YAML
echo '{"scripts": {"build": "tsc -p .", "start": "node dist/server.js"}}' >"$ws/package.json"
# The screenshot tool (Xvfb + import) lives beside the repository in the team's shared tools.
shot=$(realpath "${SCREENSHOT_TOOL:-../shared/tools/screenshot.sh}")
jar=$PWD/target/runboard.jar
shoot() { # OUT SIZE WAIT [open DIR]   (extra environment: SHOT_ENV="NAME=VALUE ...")
  local out=$1 size=$2 wait_s=$3 home; shift 3
  home=$(mktemp -d); homes+=("$home") # a fresh data dir each: no remembered window size, only the demo's sessions
  # Started from the workspace folder: the dialog's working dir shows it, not where the repository is.
  (cd "$ws" && env RUNBOARD_HOME="$home" RUNBOARD_DEMO=1 ${SHOT_ENV:-} "$shot" "$OLDPWD/$out" --wait "$wait_s" --size "$size" \
    -- java -jar "$jar" "$@")
}
if wanted 1024x700; then shoot docs/screenshot-1024x700.png 1024x700 60 open "$ws"; fi
if wanted 1280x800; then
  shoot docs/screenshot-1280x800.png 1280x800 60 open "$ws"
  cp docs/screenshot-1280x800.png docs/screenshot-workspace.png
fi
if wanted main; then shoot docs/screenshot-main.png 1280x800 60; fi
if wanted dark; then SHOT_ENV="RUNBOARD_THEME=dark" shoot docs/screenshot-dark.png 1280x800 60 open "$ws"; fi
# The detail pane of the test watcher (selected by the demo): its output, process tree and charts,
# given a minute to draw their lines.
# The window opens at its first size, smaller than this screen: the black margin is cut off.
if wanted detail; then
  shoot docs/screenshot-detail.png 1400x900 60
  convert docs/screenshot-detail.png -trim +repage docs/screenshot-detail.png
fi
# The demo with two Slurm jobs on a private one-node cluster (.ci/slurm-setup): one held with Slurm's reason, one
# running on the node (selected: its Facts show job, node and partition), the Slurm column beside Status.
if wanted slurm; then
  cluster=$(mktemp -d)
  if .ci/slurm-setup start "$cluster" >/dev/null; then
    SHOT_ENV="RUNBOARD_DEMO_SHOW=slurm SLURM_CONF=$cluster/slurm.conf" shoot docs/screenshot-slurm.png 1280x800 60 || true
  else
    echo "screenshots: no Slurm cluster here (root and .ci/slurm-setup needed): screenshot-slurm.png not retaken" >&2
  fi
  .ci/slurm-setup stop "$cluster"
  rm -rf "$cluster"
fi
if wanted dialog; then SHOT_ENV="RUNBOARD_DEMO_SHOW=dialog" shoot docs/screenshot-dialog.png 1280x800 45; fi
if wanted viewer; then
  # 300 MB of log lines, coloured as loggers colour them, one ERROR in a thousand; the viewer opens
  # it searched by regex (RUNBOARD_VIEW, RUNBOARD_VIEW_FIND), the window's own data dir empty.
  log=$ws/build.log
  awk 'BEGIN { split("core http db cache auth search billing ui", m, " ");
    for (i = 1; i <= 3053375; i++) {
      t = sprintf("2026-11-29 12:%02d:%02d.%03d", int(i / 60000) % 60, int(i / 1000) % 60, i % 1000);
      if (i % 1000 == 997) printf "%s \033[41;97m ERROR \033[0m [%s] request %d failed: timeout after %d ms (retry 1)\n", t, m[i % 8 + 1], i, i % 5000;
      else printf "%s \033[32mINFO\033[0m  [%s] step %d processed batch of %d records in %d ms\n", t, m[i % 8 + 1], i, i % 100, i % 50 + 1 } }' >"$log"
  home=$(mktemp -d); homes+=("$home")
  env RUNBOARD_HOME="$home" RUNBOARD_VIEW="$log" RUNBOARD_VIEW_FIND='timeout after \d+ ms' \
    "$shot" docs/screenshot-viewer.png --wait 45 --size 1180x680 -- java -jar target/runboard.jar
  rm -f "$log"
fi
# Remote sessions (issue 43): two hosts served by private sshds on this machine (as .ci/sshd-setup's test
# user), one session on each through the window's supervisor; then gpu-box's network goes silent (its sshd
# stopped: a blackhole) until the window shows it disconnected. Root only (a second user, sshd).
if [[ " $* " == *" remote "* ]]; then
  .ci/sshd-setup >/dev/null
  user=${RUNBOARD_TEST_SSH_USER:-runboard-remote}
  r=$(mktemp -d); chmod 755 "$r"; home=$(mktemp -d); homes+=("$home" "$r")
  ssh-keygen -q -t ed25519 -N '' -f "$r/host"; ssh-keygen -q -t ed25519 -N '' -f "$r/id"
  cp "$r/id.pub" "$r/authorized_keys"; chmod 644 "$r/authorized_keys"; mkdir -p /run/sshd
  : >"$r/ssh_config"; pids=()
  for h in build-box gpu-box; do
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
    printf 'Port %s\nListenAddress 127.0.0.1\nHostKey %s/host\nPidFile %s/%s.pid\nUsePAM no\nPasswordAuthentication no\nAuthorizedKeysFile %s/authorized_keys\nStrictModes no\nLogLevel ERROR\n' \
      "$port" "$r" "$r" "$h" "$r" >"$r/$h.sshd"
    /usr/sbin/sshd -D -e -f "$r/$h.sshd" 2>>"$r/sshd.log" & pids+=($!)
    printf 'Host %s\n  HostName 127.0.0.1\n  Port %s\n  User %s\n  IdentityFile %s/id\n  IdentitiesOnly yes\n  UserKnownHostsFile %s/known_hosts\n  HostKeyAlias rb-shots\n  StrictHostKeyChecking yes\n\n' \
      "$h" "$port" "$user" "$r" "$r" >>"$r/ssh_config"
  done
  echo "rb-shots $(cut -d' ' -f1,2 "$r/host.pub")" >"$r/known_hosts"
  rb() { env RUNBOARD_HOME="$home" RUNBOARD_SSH_CONFIG="$r/ssh_config" java -jar "$jar" "$@"; }
  sleep 1
  rb start --host build-box --cwd /tmp -- 'i=1; while :; do echo "epoch $i: loss 0.$((9000 - i)) acc 0.$((5000 + i))"; i=$((i+1)); sleep 1; done' >/dev/null
  rb start --host gpu-box --cwd /tmp -- 'i=1; while :; do echo "step $i: 512 images/s"; i=$((i+1)); sleep 1; done' >/dev/null
  rb start --cwd /tmp -- 'i=1; while :; do echo "watching: $i files"; i=$((i+1)); sleep 2; done' >/dev/null
  sleep 4
  below() { local c; for c in $(pgrep -P "$1"); do echo "$c"; below "$c"; done; }
  stopped=$(below "${pids[1]}"; echo "${pids[1]}")
  kill -STOP $stopped   # gpu-box's network goes silent
  for _ in $(seq 60); do rb list | grep -q 'disconnected' && break; sleep 1; done
  env RUNBOARD_HOME="$home" RUNBOARD_SSH_CONFIG="$r/ssh_config" "$shot" docs/screenshot-remote.png --wait 20 --size 1280x800 \
    -- java -jar "$jar"
  kill -CONT $stopped
  rb kill --status running >/dev/null 2>&1 || true
  rb supervisor stop >/dev/null 2>&1 || true
  for sock in "$home"/ssh/*; do [ -S "$sock" ] && ssh -o ControlPath="$sock" -O exit x >/dev/null 2>&1; done
  kill "${pids[@]}" 2>/dev/null || true
  su -s /bin/sh "$user" -c 'rm -rf "$HOME/.cache/runboard-remote"' 2>/dev/null || true
fi
