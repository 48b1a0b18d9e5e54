#!/usr/bin/env bash
# Smoke-tests the packaged launcher without a display: the CLI must work from the app-image alone.
#
#   packaging/smoke-test.sh [APP_IMAGE_DIR]     default target/dist/runboard (built with packaging/build.sh
#                                               when missing)
#   packaging/smoke-test.sh --installed         tests the `runboard` on PATH instead (after installing the .deb)
#
# Checks: `runboard exec -- echo hello` exits 0 and prints a snapshot with status completed and output hello;
# `runboard --version` prints "runboard <the packaged version>"; `runboard --help` exits 0; `runboard start`
# brings the supervisor up from the packaged launcher, `kill` ends the session and `supervisor stop` ends it.
# Prints one PASS or FAIL line at the end; exits non-zero on failure. Data goes to a temporary RUNBOARD_HOME.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${1:-}" = --installed ]; then
  RUNBOARD="$(command -v runboard)" || { echo "FAIL: no runboard on PATH"; exit 1; }
  CFG=/usr/lib/runboard/app/runboard.cfg
else
  IMAGE="${1:-target/dist/runboard}"
  if [ ! -x "$IMAGE/bin/runboard" ]; then
    [ $# -eq 0 ] || { echo "FAIL: no launcher at $IMAGE/bin/runboard"; exit 1; }
    echo "no app-image at $IMAGE; building it"
    packaging/build.sh app-image
  fi
  RUNBOARD="$IMAGE/bin/runboard"
  CFG="$IMAGE/lib/app/runboard.cfg"
fi

start_ns=$(date +%s%N)
failures=()
checks=0
fail() { checks=$((checks + 1)); failures+=("$1"); echo "  not ok: $1"; }
pass() { checks=$((checks + 1)); echo "  ok: $1"; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# No display: the CLI must not need one. Keep the test's data out of the user's home.
run() { env -u DISPLAY -u WAYLAND_DISPLAY RUNBOARD_HOME="$work/home" timeout 60 "$RUNBOARD" "$@"; }

echo "smoke-testing $RUNBOARD"

# 1. exec: a completed snapshot with the command's output.
rc=0
run exec -- echo hello >"$work/exec.out" 2>"$work/exec.err" || rc=$?
if [ "$rc" -eq 0 ]; then pass "exec exits 0"; else fail "exec exited $rc"; fi
if grep -Eq '"status" *: *"completed"' "$work/exec.out"; then pass 'exec prints "status" : "completed"'; else fail "exec printed no completed status"; fi
if grep -Eq '"output" *: *"hello\\n"' "$work/exec.out"; then pass 'exec prints output "hello\n"'; else fail "exec printed no output hello"; fi

# 2. --version: the version the package was built with.
expected="$(sed -n 's/^java-options=-Djpackage.app-version=//p' "$CFG" 2>/dev/null | head -1)"
rc=0
version="$(run --version 2>"$work/version.err")" || rc=$?
if [ "$rc" -eq 0 ] && [ -n "$expected" ] && [ "$version" = "runboard $expected" ]; then
  pass "--version prints '$version'"
else
  fail "--version printed '$version' (exit $rc), expected 'runboard ${expected:-?}'"
fi

# 3. --help works.
rc=0
run --help >"$work/help.out" 2>&1 || rc=$?
if [ "$rc" -eq 0 ] && grep -q 'exec' "$work/help.out"; then pass "--help lists exec"; else fail "--help exited $rc or does not list exec"; fi

# 4. start: the packaged launcher brings a supervisor up (its own binary, no java on PATH needed).
rc=0
id="$(run start -- sleep 30 2>"$work/start.err")" || rc=$?
if [ "$rc" -eq 0 ] && [ -n "$id" ]; then pass "start prints a session id"; else fail "start exited $rc: $(head -1 "$work/start.err")"; fi
if run supervisor status >"$work/status.out" 2>&1; then pass "supervisor status: one runs"; else fail "supervisor status found none"; fi
sup_pid="$(sed -n 's/.*"pid" : \([0-9]*\).*/\1/p' "$work/status.out" | head -1)"
if [ -x "$(dirname "$RUNBOARD")/runboard-supervisor" ]; then
  # The launcher execs java under its own name (exec -a), with the supervisor's .cfg options and arguments.
  if [ -n "$sup_pid" ] && tr '\0' ' ' <"/proc/$sup_pid/cmdline" 2>/dev/null | grep -q '^[^ ]*/runboard-supervisor .*-Xmx512m.* supervisor run'; then
    pass "the supervisor runs from its own launcher (its heap options)"
  else
    fail "the supervisor does not run from bin/runboard-supervisor"
  fi
fi
rc=0
[ -n "$id" ] && { run kill "$id" --grace 0 >"$work/kill.out" 2>&1 || rc=$?; }
if [ "$rc" -eq 0 ] && grep -q '"survivors" : \[ \]' "$work/kill.out"; then pass "kill ends the session, no survivor"; else fail "kill exited $rc"; fi
run supervisor stop >/dev/null 2>&1 || true
if ! run supervisor status >/dev/null 2>&1; then pass "supervisor stop ends it"; else fail "the supervisor still runs after stop"; fi

elapsed_ms=$((($(date +%s%N) - start_ns) / 1000000))
if [ ${#failures[@]} -eq 0 ]; then
  echo "PASS: packaged runboard smoke test ($checks checks, $((elapsed_ms / 1000)).$(printf '%03d' $((elapsed_ms % 1000))) s)"
else
  for f in "$work"/exec.out "$work"/exec.err "$work"/version.err "$work"/start.err "$work"/kill.out "$work"/home/supervisor.log; do
    [ -s "$f" ] && { echo "--- $(basename "$f")"; head -40 "$f"; }
  done
  echo "FAIL: packaged runboard smoke test: ${#failures[@]} of $checks checks failed: $(printf "%s; " "${failures[@]}")"
  exit 1
fi
