#!/bin/bash
# Retakes the main window's screenshots in docs/ at the sizes the layout is tested at:
# a temp RUNBOARD_HOME with the demo sessions (one in each status) and a workspace open.
# usage: docs/screenshots.sh   (after ./mvnw -q package -DskipTests)
set -eu
cd "$(dirname "$0")/.."
home=$(mktemp -d)
ws=$(mktemp -d)
trap 'rm -rf "$home" "$ws"' EXIT
cat >"$ws/runboard.yaml" <<'YAML'
name: shop
commands:
  web:
    command: python3 -m http.server 8080
    group: dev
  worker:
    command: ./worker --queue default --verbose
    group: dev
  test:
    command: ./gradlew test --continue
  lint:
    command: npx eslint . --max-warnings 0
YAML
echo '{"scripts": {"build": "tsc -p .", "start": "node dist/server.js"}}' >"$ws/package.json"
shoot() {
  RUNBOARD_HOME=$home RUNBOARD_DEMO=1 ../shared/tools/screenshot.sh "$1" --wait 45 --size "$2" -- \
    java -jar target/runboard.jar open "$ws"
}
shoot docs/screenshot-1024x700.png 1024x700
shoot docs/screenshot-1280x800.png 1280x800
