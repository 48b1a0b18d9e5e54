#!/bin/bash
# Retakes the main window's screenshots in docs/ at the sizes the layout is tested at:
# a temp RUNBOARD_HOME with the demo sessions (one in each status) and a workspace open.
# usage: docs/screenshots.sh   (after ./mvnw -q package -DskipTests)
set -eu
cd "$(dirname "$0")/.."
ws=$(mktemp -d)
homes=()
trap 'rm -rf "$ws" "${homes[@]}"' EXIT
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
shot=${SCREENSHOT_TOOL:-../shared/tools/screenshot.sh}
shoot() { # OUT SIZE [open DIR]
  local out=$1 size=$2 home; shift 2
  home=$(mktemp -d); homes+=("$home") # a fresh data dir each: no remembered window size, only the demo's sessions
  RUNBOARD_HOME=$home RUNBOARD_DEMO=1 "$shot" "$out" --wait 60 --size "$size" -- java -jar target/runboard.jar "$@"
}
shoot docs/screenshot-1024x700.png 1024x700 open "$ws"
shoot docs/screenshot-1280x800.png 1280x800 open "$ws"
cp docs/screenshot-1280x800.png docs/screenshot-workspace.png
shoot docs/screenshot-main.png 1280x800
