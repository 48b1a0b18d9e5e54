#!/usr/bin/env bash
# Renders the runboard app icon to PNGs from its SVG sources.
#
#   icons/render.sh            writes icons/png/runboard-{16,24,32,48,64,128,256,512}.png and copies them to
#                              src/main/resources/dev/runboard/icons/ (loaded by the app as classpath resources)
#   icons/render.sh preview    also writes target/icon-preview.png: every size on a light and a dark panel
#
# Sources: runboard.svg (32 px and up), runboard-24.svg and runboard-16.svg (simplified glyphs drawn on their
# own pixel grid, because the full pulse line muddles below 32 px).
# Needs rsvg-convert (Debian: apt-get install librsvg2-bin); preview also needs ImageMagick (apt-get install imagemagick).
# Installs nothing itself.
set -euo pipefail
cd "$(dirname "$0")/.."

SIZES=(16 24 32 48 64 128 256 512)
OUT=icons/png
RES=src/main/resources/dev/runboard/icons

need() {
  command -v "$1" >/dev/null 2>&1 && return
  echo "icons/render.sh: needs '$1' — on Debian/Ubuntu: apt-get install $2" >&2
  exit 1
}
need rsvg-convert librsvg2-bin

source_for() {
  case "$1" in
    16) echo icons/runboard-16.svg ;;
    24) echo icons/runboard-24.svg ;;
    *) echo icons/runboard.svg ;;
  esac
}

mkdir -p "$OUT" "$RES"
for size in "${SIZES[@]}"; do
  png="$OUT/runboard-$size.png"
  rsvg-convert --width "$size" --height "$size" --keep-aspect-ratio "$(source_for "$size")" --output "$png"
  cp "$png" "$RES/runboard-$size.png"
  echo "$png"
done

if [ "${1:-}" = preview ]; then
  need convert imagemagick
  mkdir -p target
  row() { # $1 = panel colour
    local args=()
    for size in "${SIZES[@]}"; do args+=("$OUT/runboard-$size.png"); done
    convert -background "$1" "${args[@]}" -bordercolor "$1" -border 8 -gravity center +append -border 8 miff:-
  }
  { row '#f5f5f5'; row '#1e1e1e'; } | convert - -append target/icon-preview.png
  echo target/icon-preview.png
fi
