#!/bin/sh
# Makes the installed launchers' class-data archives: run by the .deb's postinst as
#   /usr/lib/runboard/make-archives /usr/bin
# JDK 17 maps an archive only for the absolute class path it was made with, so the app-image's archives
# (made where it was built) cannot serve /usr/lib/runboard/app; one training run of each launcher here
# writes lib/app/<launcher>.jsa, which the launchers' .cfg name. A run that fails leaves that launcher
# without an archive: slower, never broken. The .deb's prerm removes them.
set -u
bin="${1:-/usr/bin}"
app="$(dirname "$(readlink -f "$0")")/app"
train="$(mktemp -d)" || exit 0
for launcher in runboard runboard-supervisor; do
  [ -x "$bin/$launcher" ] || continue
  rm -f "$app/$launcher.jsa"
  if [ "$launcher" = runboard ]; then set -- exec -- true; else set -- supervisor run; fi
  env -u DISPLAY -u WAYLAND_DISPLAY RUNBOARD_HOME="$train/home" RUNBOARD_SUPERVISOR_IDLE=1 RUNBOARD_CDS=off \
    JAVA_TOOL_OPTIONS="-XX:ArchiveClassesAtExit=$app/$launcher.jsa -Xlog:disable -Xlog:all=off" \
    timeout 120 "$bin/$launcher" "$@" </dev/null >/dev/null 2>&1 || true
  [ -s "$app/$launcher.jsa" ] && chmod 644 "$app/$launcher.jsa"
done
rm -rf "$train"
exit 0
