package dev.runboard.ui;

/** The little scripts demo mode runs, so the table shows commands that read like real ones. */
final class DemoScripts {
    static final String BUILD = String.join("\n",
            "printf 'bundling 214 modules\\n'",
            "printf '\\033[42;97m DONE \\033[0m \\033[1;32mbuild ok\\033[0m  dist/bundle.js \\033[2m412 KB\\033[0m\\n'");

    static final String MIGRATE = String.join("\n",
            "echo 'migrating schema v41 -> v42'",
            "echo 'applying 0042_add_index.sql'",
            "printf '\\033[31merror:\\033[0m relation \"orders\" does not exist\\n'",
            "exit 3");

    static final String WAIT_FOR_DB = "echo \"waiting for the $1 database\"; sleep 30";

    static final String CRAWL = "echo 'crawling 1,200 pages'; sleep 600";

    static final String SERVE = "printf 'listening on \\033[4mhttp://localhost:%s\\033[0m\\n' \"$PORT\"; sleep 3600";

    static final String TESTS = String.join("\n",
            "worker() { while :; do i=0; while [ $i -lt $((RANDOM % 40000 + 5000)) ]; do i=$((i+1)); done; sleep 0.3; done; }",
            "worker & worker &",
            "command -v perl >/dev/null && perl -e '$x=\"x\"; $x x= (48<<20); sleep 3600' &",
            "printf '\\033[1mRunning 24 tests\\033[0m  \\033[2m(junit-platform, 2 workers)\\033[0m\\n'",
            "for t in parser lexer resolver cache router auth session store codec retry; do",
            "  printf '  \\033[32m\u2714\\033[0m %-26s \\033[2m%3d ms\\033[0m\\n' \"${t}Test\" $((RANDOM % 90 + 3)); sleep 0.15; done",
            "printf '  \\033[33m\u26A0\\033[0m %-26s \\033[33mskipped: needs docker\\033[0m\\n' IntegrationTest",
            "printf '  \\033[41;97m FAIL \\033[0m %-21s \\033[31;1mexpected 200 but was 503\\033[0m\\n' HealthCheckTest",
            "printf '      at \\033[36mdev.example.HealthCheckTest.ready\\033[0m(HealthCheckTest.java:42)\\n'",
            "for t in metrics tracing config shutdown; do",
            "  printf '  \\033[32m\u2714\\033[0m %-26s \\033[2m%3d ms\\033[0m\\n' \"${t}Test\" $((RANDOM % 90 + 3)); sleep 0.15; done",
            "printf '\\033[7m Tests: 22 passed, 1 failed, 1 skipped \\033[0m \\033[30;103m 2 workers \\033[0m\\n'",
            "printf '\\033[1;35m\u25B6 watching for changes\u2026\\033[0m\\n'",
            // Each rebuild reports with a PASS or FAIL badge (a background colour), as test runners do.
            "i=0; while true; do i=$((i+1)); if [ $((i % 4)) -eq 0 ]; then b='\\033[41;97m FAIL \\033[0m 1 of 24 failed';",
            "  else b='\\033[42;97m PASS \\033[0m 24 tests'; fi",
            "  printf '\\033[2m%s\\033[0m \\033[34mINFO\\033[0m rebuild #%-3d %b in %d ms\\n' \"$(date +%T)\" $i \"$b\" $((RANDOM % 400 + 100)); sleep 2; done");

    private DemoScripts() {
    }
}
