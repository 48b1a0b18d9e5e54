#!/usr/bin/env bash
# runboard's launchers in the app-image and the .deb (bin/runboard, bin/runboard-supervisor), in place of
# jpackage's native ones. JDK 17's native launcher asks the package manager which package owns it on every
# start (`rpm -qf`, then `dpkg -S`, then `dpkg -L` of the package: LinuxPackage.c, to find
# libapplauncher.so in an installed package), with no option to skip it: 2.4 s of a 4 s `list` on a busy
# machine (docs/BENCHMARKS.md §10). This script runs the bundled runtime's java with what the launcher's
# .cfg says (class path, main class, java-options with its class-data archive, default arguments), and for
# CLI calls the cheap flags of a short-lived client, as bin/runboard does in a checkout.
#
# No fork before the exec, except a readlink when started through a symlink or a path with . or .. in it.
# The name it was started as picks the .cfg: lib/app/<name>.cfg in the app-image (bin/ and lib/ side by
# side), lib/runboard/app/<name>.cfg in jpackage's /usr layout (/usr/bin/runboard, /usr/lib/runboard/).
set -u
self="$0"
case "$self" in /*) ;; *) self="$PWD/$self" ;; esac
case "$self" in */./* | */../* | *//*) self="$(readlink -f "$self")" ;; esac
if [ -L "$self" ]; then self="$(readlink -f "$self")"; fi
name="${self##*/}"
root="${self%/bin/*}"
lib="$root/lib"
[ -f "$lib/app/$name.cfg" ] || lib="$root/lib/runboard"
app="$lib/app"
if [ ! -f "$app/$name.cfg" ] || [ ! -x "$lib/runtime/bin/java" ]; then
  echo "runboard: $self finds no $name.cfg and runtime beside it (in ../lib/app or ../lib/runboard/app); reinstall runboard" >&2
  exit 1
fi

classpath=""
main=""
options=()
arguments=()
while IFS= read -r line || [ -n "$line" ]; do
  case "$line" in
    app.classpath=*) value="${line#*=}"; classpath="${classpath:+$classpath:}${value//'$APPDIR'/$app}" ;;
    app.mainclass=*) main="${line#*=}" ;;
    java-options=-XX:SharedArchiveFile=*)
      # RUNBOARD_CDS=off: without the class-data archive (the training run that makes one needs that).
      if [ "${RUNBOARD_CDS:-on}" != off ]; then value="${line#*=}"; options+=("${value//'$APPDIR'/$app}"); fi ;;
    java-options=*) value="${line#*=}"; options+=("${value//'$APPDIR'/$app}") ;;
    arguments=*) arguments+=("${line#*=}") ;;
  esac
done <"$app/$name.cfg"

# A CLI call is short-lived: C1 only, the serial collector, no perf-data file in /tmp, small thread stacks
# (docs/BENCHMARKS.md §10). The window (no arguments, or open) and the supervisor keep their .cfg's options.
if [ "$name" = runboard ] && [ $# -gt 0 ] && [ "$1" != open ]; then
  options+=(-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -XX:-UsePerfData -Xss512k)
  # exec: C1 only for code 10x as hot as by default, as bin/runboard does (docs/BENCHMARKS.md §10, round 3).
  if [ "$1" = exec ]; then options+=(-XX:CompileThresholdScaling=10); fi
fi
# jpackage.app-path: where the supervisor's launcher is found (engine/SupervisorLauncher), as the native
# launcher sets it. exec -a: ps shows the launcher's name rather than java.
if [ $# -eq 0 ] && [ ${#arguments[@]} -gt 0 ]; then set -- "${arguments[@]}"; fi
exec -a "$self" "$lib/runtime/bin/java" ${options[@]+"${options[@]}"} -Djpackage.app-path="$self" -cp "$classpath" "$main" "$@"
