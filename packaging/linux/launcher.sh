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
# (docs/BENCHMARKS.md §10). The window (no arguments, or open) gets the serial collector with a 32 MB young
# generation, as bin/runboard's (docs/BENCHMARKS.md §14: a 10,000-session window peaked at 331-339 MiB with
# it, 485-494 MiB with G1's defaults), and C1 only, as bin/runboard's (§14: on two cores C2 compiled for
# 1.7 s of a start's 7 s of CPU; the window's work is short bursts, its searches 10-20 % slower for it).
# The supervisor keeps its .cfg's options.
if [ "$name" = runboard ]; then
  if [ $# -gt 0 ] && [ "$1" != open ]; then
    # C1's thresholds six times the default for every CLI call, as bin/runboard's (docs/BENCHMARKS.md §17, "One
    # JSON codec": picocli's and Jackson's start-up code is run a few hundred times, not worth compiling).
    options+=(-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -XX:-UsePerfData -Xss512k -XX:CompileThresholdScaling=6)
    # exec: C1 only for code 10x as hot as by default, as bin/runboard does (docs/BENCHMARKS.md §10, round 3).
    if [ "$1" = exec ]; then options+=(-XX:CompileThresholdScaling=10); fi
  else
    options+=(-XX:+UseSerialGC -Xmn32m -XX:TieredStopAtLevel=1)
    # Its heap in transparent huge pages where the kernel gives them on request, as bin/runboard's window
    # (docs/BENCHMARKS.md §14: shorter young collections while the history loads).
    if read -r thp 2>/dev/null </sys/kernel/mm/transparent_hugepage/enabled && [[ "$thp" == *"[madvise]"* ]]; then
      options+=(-XX:+UseTransparentHugePages)
    fi
  fi
fi
# The window: the archive above holds what `exec -- true` loads, not JavaFX, the controls, FXML and CSS. A window
# run writes one of the window's own at its exit (-XX:ArchiveClassesAtExit: a few seconds once the window has
# closed), in the user's cache as bin/runboard does, since lib/app may not be writable and a training run
# before the first start would need a display. Into <key>.window-<pid>.jsa (exec keeps this script's pid), which
# the next window start moves to <key>.window.jsa once that pid is gone; made again when the runtime, a jar or
# the .cfg is newer (a new build). Forks only to make the cache folder on the training run. docs/BENCHMARKS.md
# §14 has what it saves.
if [ "$name" = runboard ] && { [ $# -eq 0 ] || [ "$1" = open ]; } && [ "${RUNBOARD_CDS:-on}" != off ]; then
  case "${XDG_CACHE_HOME:-}" in # a relative value is invalid and ignored (the XDG spec)
    /*) cache_home=$XDG_CACHE_HOME ;;
    *) cache_home="${HOME:+$HOME/.cache}" ;;
  esac
  # bin/runboard's private cache folder: made 0700 whatever the umask, used only when it is this user's own and
  # no link (-O, -L: built-ins), since a window archive found there is mapped into the JVM.
  if [ -n "$cache_home" ] && { [ -e "$cache_home/runboard/v2" ] || (umask 077 && mkdir -p "$cache_home/runboard/v2") 2>/dev/null; } \
    && [ ! -L "$cache_home/runboard/v2" ] && [ -O "$cache_home/runboard/v2" ]; then
    key="$cache_home/runboard/v2/${app//\//%}"
    window_archive="$key.window.jsa"
    for made in "$key".window-*.jsa; do
      [ -e "$made" ] || continue
      made_by="${made##*.window-}"
      if ! kill -0 "${made_by%.jsa}" 2>/dev/null; then
        if [ -s "$made" ]; then mv -f "$made" "$window_archive" 2>/dev/null; else rm -f "$made"; fi
      fi
    done
    for f in "$lib/runtime/bin/java" "$lib/runtime/lib/modules" "$app/$name.cfg" "$app"/*.jar; do
      if [ -e "$window_archive" ] && [ -e "$f" ] && [ "$f" -nt "$window_archive" ]; then rm -f "$window_archive"; fi
    done
    window=()
    if [ -s "$window_archive" ]; then
      window=(-XX:SharedArchiveFile="$window_archive")
    # Trained only where a window can open: a start that fails for want of a display would leave an archive of that.
    elif [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] && [ -d "${key%/*}" ]; then
      window=(-XX:ArchiveClassesAtExit="$key.window-$$.jsa" "-Xlog:cds*=off")
    fi
    if [ ${#window[@]} -gt 0 ]; then
      # In place of the exec archive: a JVM maps one dynamic archive, and cannot write one on top of another.
      kept=()
      for o in ${options[@]+"${options[@]}"}; do
        case "$o" in -XX:SharedArchiveFile=*) ;; *) kept+=("$o") ;; esac
      done
      options=(${kept[@]+"${kept[@]}"} "${window[@]}")
    fi
  fi
fi
# The thin client, as bin/runboard's (docs/PROTOCOL.md): with the data dir's supervisor up, a subcommand other than
# exec (but a remote one: --host without --slurm), open and supervisor is run by it, through the Perl client it
# installed in its private bin/, and no JVM starts (a `list` in 0.05 s where a JVM takes 0.3-0.7 s:
# docs/BENCHMARKS.md §17). The data dir: --data-dir (once, before --) or $RUNBOARD_HOME, $XDG_DATA_HOME/runboard,
# ~/.local/share/runboard. RUNBOARD_THIN_CLIENT=off: the JVM.
thin=$#
if [ "${1:-}" = exec ]; then
  thin=0
  for ((i = 2; i <= $#; i++)); do
    case "${!i}" in
      --) break ;;
      --host | --host=*) thin=1 ;;
      --slurm) thin=0; break ;;
    esac
  done
fi
if [ "$name" = runboard ] && [ "$thin" -gt 0 ] && [ "${RUNBOARD_THIN_CLIENT:-on}" != off ]; then
  case "$1" in
    open | supervisor) ;;
    *)
      data="" seen=0
      for ((i = 1; i <= $#; i++)); do
        a=${!i}
        [ "$a" = -- ] && break
        case "$a" in
          --data-dir=*) data=${a#*=}; seen=$((seen + 1)) ;;
          --data-dir) j=$((i + 1)); data=${!j:-}; seen=$((seen + 1)) ;;
        esac
      done
      if [ "$seen" = 0 ]; then
        if [[ "${RUNBOARD_HOME:-}" == *[![:space:]]* ]]; then data=$RUNBOARD_HOME
        elif [[ "${XDG_DATA_HOME:-}" == /* ]]; then data=$XDG_DATA_HOME/runboard
        else data=${HOME:-}/.local/share/runboard; fi
      elif [[ "$data" != /* ]]; then data=$PWD/$data; fi
      if [ "$seen" -le 1 ] && read -r socket 2>/dev/null <"$data/supervisor.address" && [ -S "$socket" ] \
        && [ -O "$data/bin" ] && [ -f "$data/bin/runboard-client.pl" ] && hash perl 2>/dev/null; then
        exec "${BASH_CMDS[perl]}" "$data/bin/runboard-client.pl" "$socket" "$data" "$#" "$@" \
          "$lib/runtime/bin/java" ${options[@]+"${options[@]}"} -Djpackage.app-path="$self" -cp "$classpath" "$main"
      fi ;;
  esac
fi
# jpackage.app-path: where the supervisor's launcher is found (engine/SupervisorLauncher), as the native
# launcher sets it. exec -a: ps shows the launcher's name rather than java.
if [ $# -eq 0 ] && [ ${#arguments[@]} -gt 0 ]; then set -- "${arguments[@]}"; fi
exec -a "$self" "$lib/runtime/bin/java" ${options[@]+"${options[@]}"} -Djpackage.app-path="$self" -cp "$classpath" "$main" "$@"
