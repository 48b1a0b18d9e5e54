#!/usr/bin/env bash
# Builds runboard's native packages with jpackage (JDK 17+). Run from anywhere; paths are the repo's.
#
#   packaging/build.sh            Linux app-image:  target/dist/runboard/  (bin/runboard is the launcher)
#   packaging/build.sh deb        the app-image, then a .deb: target/dist/runboard_<version>-1_<arch>.deb
#
# Needs: a JDK 17+ with jpackage and jdeps (JAVA_HOME, else PATH); for `deb` also fakeroot and dpkg-deb,
# which it installs with apt-get when missing and run as root (it says so first). Everything else comes from
# the repo (Maven wrapper) and Maven Central. See docs/PACKAGING.md for what the packages contain.
#
# What goes where:
#   --input        target/jpackage/input: runboard.jar and its runtime jars, minus JavaFX (on the class path)
#   --module-path  target/jpackage/javafx: the javafx-*-linux.jar modules, jlinked into the bundled runtime
#                  (the unclassified javafx-*.jar in target/lib are empty placeholders and are left out)
#   --add-modules  what jdeps finds in the input jars, plus javafx.controls and javafx.fxml (the window loads
#                  FXML and AtlantaFX reflectively, which jdeps cannot see); jlink adds their requirements
#
# macOS .dmg and Windows .msi: not built here. jpackage cannot cross-build; each needs its own OS.
#   macOS:   run this script's steps on a Mac with a JDK 17 (jpackage --type dmg); stage the javafx
#            `-mac` jars (or `-mac-aarch64` on Apple silicon) instead of `-linux`, e.g. with
#            `./mvnw package -Djavafx.platform=mac-aarch64`; icon as .icns (iconutil from icons/png);
#            --mac-package-identifier dev.runboard; to run without Gatekeeper warnings, sign with a
#            Developer ID (--mac-sign --mac-signing-key-user-name ...) and notarize (xcrun notarytool
#            submit --wait, then xcrun stapler staple).
#   Windows: jpackage --type msi needs the WiX Toolset 3.x on PATH (candle.exe, light.exe); the javafx
#            `-win` jars; icon as .ico (multi-size, from icons/png); --win-menu --win-shortcut
#            --win-dir-chooser, --win-console for a launcher that can print CLI output (or a second
#            launcher via --add-launcher); sign the .msi with signtool for SmartScreen.
#   Both:    the engine's process-tree kill (setsid, process groups, /proc) is Linux-only for now, so
#            those builds would run, but kill only the direct child process.
set -euo pipefail
cd "$(dirname "$0")/.."

TYPE="${1:-app-image}"
case "$TYPE" in
  app-image | deb) ;;
  -h | --help) sed -n '2,9p' "$0"; exit 0 ;;
  *) echo "usage: packaging/build.sh [app-image|deb]" >&2; exit 2 ;;
esac

NAME=runboard
MAIN_CLASS=dev.runboard.Launcher
DESCRIPTION="A desktop process monitor for long-running developer commands"
# Modules the code reaches only by reflection (jdeps cannot see them). jlink adds what they require.
REFLECTIVE_MODULES=javafx.controls,javafx.fxml
# --generate-cds-archive: the bundled runtime's own class-data archive, the base that the app's archives
# (made below, after jpackage) build on. jlink runs the image's bin/java to make it, so the runtime keeps its
# native commands (java and keytool, 30 KB) instead of --strip-native-commands.
JLINK_OPTIONS="--strip-debug --no-header-files --no-man-pages --generate-cds-archive"
# A desktop app that sits open for days: G1 keeps at most 20 % of the heap free instead of 70 %, which
# halved the window's RSS with 1,000 finished sessions (docs/BENCHMARKS.md #4: 633 MB -> 332 MB).
JAVA_OPTIONS=(--java-options -XX:MaxHeapFreeRatio=20 --java-options -XX:MinHeapFreeRatio=10)
STAGE=target/jpackage
DIST=target/dist

say() { printf '==> %s\n' "$*"; }
die() { printf 'packaging/build.sh: %s\n' "$*" >&2; exit 1; }

# --- tools -------------------------------------------------------------------------------------------------
JDK_BIN=""
if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/jpackage" ]; then
  JDK_BIN="$JAVA_HOME/bin/"
fi
for tool in java jdeps jpackage; do
  command -v "${JDK_BIN}$tool" >/dev/null 2>&1 || die "needs '$tool' from a JDK 17+ (set JAVA_HOME or put it on PATH)"
done
JAVA_FEATURE="$("${JDK_BIN}jdeps" --version | cut -d. -f1)" # the bundled runtime's Java version
[ "$JAVA_FEATURE" -ge 17 ] 2>/dev/null || die "needs JDK 17 or newer (found '$JAVA_FEATURE')"
# Before JDK 24 jlink builds the runtime only from the JDK's jmods, which some distributions package apart
# from jpackage (Debian: jpackage is in openjdk-17-jre-headless, the jmods in openjdk-17-jdk-headless).
JDK_HOME="$(dirname "$(dirname "$(readlink -f "$(command -v "${JDK_BIN}jdeps")")")")"
if [ "$JAVA_FEATURE" -lt 24 ] && [ ! -f "$JDK_HOME/jmods/java.base.jmod" ]; then
  die "needs the JDK's jmods in $JDK_HOME/jmods (Debian: apt-get install openjdk-$JAVA_FEATURE-jdk-headless)"
fi
if [ "$(uname -s)" != Linux ]; then
  die "builds Linux packages only; for macOS/Windows see the notes at the top of this script"
fi

if [ "$TYPE" = deb ]; then
  missing=()
  command -v fakeroot >/dev/null 2>&1 || missing+=(fakeroot)
  command -v dpkg-deb >/dev/null 2>&1 || missing+=(dpkg)
  if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
      say "installing Debian packages needed for a .deb: ${missing[*]}"
      apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
    else
      die "a .deb needs: ${missing[*]} (e.g. sudo apt-get install ${missing[*]})"
    fi
  fi
fi

start=$SECONDS

# --- build -------------------------------------------------------------------------------------------------
say "building the jar (./mvnw -B -q package -DskipTests)"
./mvnw -B -q package -DskipTests
VERSION="$("${JDK_BIN}java" -jar target/$NAME.jar --version | awk '{print $2}')"
[ -n "$VERSION" ] || die "could not read the version from 'java -jar target/$NAME.jar --version'"

# --- stage -------------------------------------------------------------------------------------------------
say "staging jars in $STAGE"
rm -rf "$STAGE"
mkdir -p "$STAGE/input" "$STAGE/javafx"
cp target/$NAME.jar "$STAGE/input/"
for jar in target/lib/*.jar; do
  case "$(basename "$jar")" in
    javafx-*-linux.jar) cp "$jar" "$STAGE/javafx/" ;;
    javafx-*) ;; # the empty placeholder jars
    *) cp "$jar" "$STAGE/input/" ;;
  esac
done
ls "$STAGE"/javafx/javafx-*-linux.jar >/dev/null 2>&1 || die "no javafx-*-linux.jar in target/lib"

# Jars compiled for a newer Java than the bundled runtime would fail when their classes load, and jdeps
# (same JDK) cannot read them: warn, and leave them out of the jdeps scan.
too_new="$("${JDK_BIN}java" packaging/ClassVersionCheck.java "$STAGE"/input/*.jar)"
if [ -n "$too_new" ]; then
  echo "WARNING: these jars need a newer Java than the bundled runtime (Java $JAVA_FEATURE); their classes" >&2
  echo "WARNING: will fail to load (UnsupportedClassVersionError) in the packaged app:" >&2
  while IFS= read -r line; do echo "WARNING:   $line" >&2; done <<<"$too_new"
fi

# --- modules -----------------------------------------------------------------------------------------------
scan=()
for jar in "$STAGE"/input/*.jar; do
  grep -qF "$jar" <<<"$too_new" || scan+=("$jar")
done
classpath="$(IFS=:; echo "${scan[*]}")"
found="$("${JDK_BIN}jdeps" -q --multi-release "$JAVA_FEATURE" --ignore-missing-deps --print-module-deps \
  --module-path "$STAGE/javafx" --class-path "$classpath" "${scan[@]}")"
MODULES="$(tr ',' '\n' <<<"$found,$REFLECTIVE_MODULES" | sort -u | paste -sd, -)"
say "modules: $MODULES"

# --- app-image ---------------------------------------------------------------------------------------------
rm -rf "${DIST:?}/$NAME"
mkdir -p "$DIST"
say "jpackage --type app-image -> $DIST/$NAME"
"${JDK_BIN}jpackage" --type app-image \
  --dest "$DIST" \
  --name "$NAME" \
  --app-version "$VERSION" \
  --description "$DESCRIPTION" \
  --vendor "$NAME" \
  --icon icons/png/runboard-256.png \
  --input "$STAGE/input" \
  --main-jar "$NAME.jar" \
  --main-class "$MAIN_CLASS" \
  --module-path "$STAGE/javafx" \
  --add-modules "$MODULES" \
  --jlink-options "$JLINK_OPTIONS" \
  --add-launcher runboard-supervisor=packaging/supervisor-launcher.properties \
  "${JAVA_OPTIONS[@]}"

# --- launchers -----------------------------------------------------------------------------------------------
# jpackage's native launchers (JDK 17) ask rpm and dpkg which package owns them on every start (2.4 s of a
# client call on a busy machine; docs/BENCHMARKS.md §10): bin/ gets packaging/linux/launcher.sh instead, one
# copy per launcher, which runs lib/runtime/bin/java with its .cfg's class path and options.
say "script launchers in $DIST/$NAME/bin (in place of jpackage's native ones)"
for launcher in "$DIST/$NAME"/bin/*; do
  install -m 755 packaging/linux/launcher.sh "$launcher"
done

# --- class-data archives -------------------------------------------------------------------------------------
# Each launcher gets an archive of the classes a training run of it loads (JDK 17: -XX:ArchiveClassesAtExit),
# and its .cfg then maps it (-XX:SharedArchiveFile through the launcher's java-options; $APPDIR is lib/app).
# An archive only fits this runtime and these jars at the absolute paths it was made with (JDK 17 checks the
# class path string and has no relocation): these fit the app-image where it is; the .deb makes its own.
# A training run that fails leaves its launcher without an archive, as before: slower, never broken.
say "class-data archives for the launchers (training runs)"
train="$(mktemp -d)"
cds_train() { # LAUNCHER ARCHIVE ARGS...: runs the launcher once with the archive written at its exit
  local launcher="$1" archive="$2"
  shift 2
  rm -f "$archive"
  env -u DISPLAY -u WAYLAND_DISPLAY RUNBOARD_HOME="$train/home" RUNBOARD_SUPERVISOR_IDLE=1 RUNBOARD_CDS=off \
    JAVA_TOOL_OPTIONS="-XX:ArchiveClassesAtExit=$archive -Xlog:disable -Xlog:all=off" \
    timeout 120 "$launcher" "$@" </dev/null >"$train/out" 2>&1 || true
  if [ -s "$archive" ]; then
    local cfg
    cfg="$DIST/$NAME/lib/app/$(basename "$launcher").cfg"
    # -Xlog off for cds: an archive that does not fit (a runtime changed by hand) is ignored quietly.
    sed -i "/^\[JavaOptions\]/a java-options=-XX:SharedArchiveFile=\$APPDIR/$(basename "$archive")\\
java-options=-Xlog:cds=off\\
java-options=-Xlog:cds+dynamic=off" "$cfg"
    echo "$(basename "$archive") ($(du -h "$archive" | cut -f1))"
  else
    echo "WARNING: no class-data archive for $(basename "$launcher") (it runs without one): $(tail -1 "$train/out")" >&2
  fi
}
cds_train "$DIST/$NAME/bin/$NAME" "$DIST/$NAME/lib/app/$NAME.jsa" exec -- true
cds_train "$DIST/$NAME/bin/$NAME-supervisor" "$DIST/$NAME/lib/app/$NAME-supervisor.jsa" supervisor run
rm -rf "$train"
echo "$DIST/$NAME ($(du -sh "$DIST/$NAME" | cut -f1))"

# --- deb ---------------------------------------------------------------------------------------------------
if [ "$TYPE" = deb ]; then
  rm -f "$DIST"/"$NAME"_*.deb
  license=()
  [ -f LICENSE ] && license=(--license-file LICENSE)
  # --install-dir /usr selects jpackage's /usr layout: the launcher itself is /usr/bin/runboard (on PATH,
  # runs both the window and the CLI), the app and its runtime go to /usr/lib/runboard/.
  # No --linux-shortcut: its postinst/prerm run xdg-desktop-menu, which fails where no menu directory exists
  # (minimal systems, containers), and then the package can be neither configured nor removed. The desktop
  # entry and icons are added below as ordinary package files instead.
  say "jpackage --type deb -> $DIST"
  "${JDK_BIN}jpackage" --type deb \
    --dest "$DIST" \
    --app-image "$DIST/$NAME" \
    --name "$NAME" \
    --app-version "$VERSION" \
    --description "$DESCRIPTION" \
    --vendor "$NAME" \
    --install-dir /usr \
    --linux-app-category devel \
    --linux-deb-maintainer "${RUNBOARD_DEB_MAINTAINER:-noreply@runboard.invalid}" \
    --linux-package-deps libgtk-3-0 \
    "${license[@]}"
  debs=("$DIST"/"$NAME"_*.deb)
  if [ ${#debs[@]} -ne 1 ] || [ ! -f "${debs[0]}" ]; then die "expected one .deb in $DIST"; fi
  deb="${debs[0]}"

  say "adding the desktop entry and icons to $(basename "$deb")"
  root="$STAGE/deb-root"
  rm -rf "$root"
  (
    umask 022
    dpkg-deb --raw-extract "$deb" "$root"
    install -D -m 644 packaging/linux/runboard.desktop "$root/usr/share/applications/runboard.desktop"
    for size in 16 24 32 48 64 128 256 512; do
      install -D -m 644 "icons/png/runboard-$size.png" "$root/usr/share/icons/hicolor/${size}x${size}/apps/runboard.png"
    done
    install -D -m 644 icons/runboard.svg "$root/usr/share/icons/hicolor/scalable/apps/runboard.svg"
    # Shell completion (subcommands, options, session ids, workspace names), where each shell looks for it.
    mkdir -p "$root/usr/share/bash-completion/completions" "$root/usr/share/zsh/vendor-completions" \
      "$root/usr/share/fish/vendor_completions.d"
    "${JDK_BIN}java" -jar target/runboard.jar completion bash > "$root/usr/share/bash-completion/completions/runboard"
    "${JDK_BIN}java" -jar target/runboard.jar completion zsh > "$root/usr/share/zsh/vendor-completions/_runboard"
    "${JDK_BIN}java" -jar target/runboard.jar completion fish > "$root/usr/share/fish/vendor_completions.d/runboard.fish"
    chmod 644 "$root/usr/share/bash-completion/completions/runboard" "$root/usr/share/zsh/vendor-completions/_runboard" \
      "$root/usr/share/fish/vendor_completions.d/runboard.fish"
    # Class-data archives fit only the absolute class path they were made with: the app-image's do not fit
    # /usr/lib/runboard/app. The postinst makes them there (packaging/linux/make-archives.sh, a few seconds),
    # the prerm removes them (they are not the package's files).
    rm -f "$root/usr/lib/$NAME/app/"*.jsa
    install -m 755 packaging/linux/make-archives.sh "$root/usr/lib/$NAME/make-archives"
    python3 - "$root/DEBIAN/postinst" "/usr/lib/$NAME/make-archives /usr/bin || true" \
      "$root/DEBIAN/prerm" "rm -f /usr/lib/$NAME/app/*.jsa" <<'PY'
import sys
# Each line goes before the script's last 'exit 0' (jpackage's scripts end with it).
for path, line in zip(sys.argv[1::2], sys.argv[2::2]):
    text = open(path).read()
    at = text.rindex("exit 0")
    open(path, "w").write(text[:at] + line + "\n" + text[at:])
PY
    sed -i "s/^Installed-Size:.*/Installed-Size: $(du -sk --exclude=DEBIAN "$root" | cut -f1)/" "$root/DEBIAN/control"
    # --root-owner-group: files owned by root in the package whoever builds it (no fakeroot needed here).
    dpkg-deb --build --root-owner-group "$root" "$deb" >/dev/null
  )
  rm -rf "$root"
  echo "$deb ($(du -h "$deb" | cut -f1))"
fi

say "done in $((SECONDS - start)) s"
