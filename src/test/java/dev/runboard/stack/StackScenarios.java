package dev.runboard.stack;

import java.io.IOException;
import java.net.ServerSocket;

/** The stacks of issue #17's "done when", as runboard.yaml text, shared by the engine, CLI and window tests. */
public final class StackScenarios {
    private StackScenarios() {
    }

    /** A free local port (closed again: the stub database opens it later). */
    public static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /** A stub database that opens its port after 2 s, a migration after it, a server after both. */
    public static String dbMigrateServer(int port) {
        return """
                commands:
                  db:
                    command: |-
                      sleep 2; exec perl -MIO::Socket::INET -e '$s = IO::Socket::INET->new(LocalAddr => "127.0.0.1", LocalPort => %d, Listen => 5, ReuseAddr => 1) or die "listen: $!"; print "listening\\n"; while ($c = $s->accept) { close $c }'
                    shell: /bin/sh
                    ready: {tcp: %d, period: 200ms, timeout: 60s}
                  migrate:
                    command: echo migrated
                    shell: /bin/sh
                    depends_on: {db: ready}
                  server:
                    command: echo serving; exec sleep 60
                    shell: /bin/sh
                    depends_on: {db: ready, migrate: succeeded}
                    autostart: true
                """.formatted(port, port);
    }

    /** A server that crashes twice, then stays up; backoff 1 s doubling. */
    public static String crashTwice() {
        return """
                commands:
                  flaky:
                    command: n=$(cat count 2>/dev/null || echo 0); n=$((n+1)); echo $n > count; echo "run $n"; if [ $n -lt 3 ]; then exit 1; fi; exec sleep 60
                    shell: /bin/sh
                    restart: on-failure
                    backoff: {initial: 1s, max: 30s, limit: 5, reset_after: 60s}
                  steady:
                    command: exec sleep 60
                    shell: /bin/sh
                    restart: always
                    backoff: {initial: 500ms}
                  broken:
                    command: echo no; exit 3
                    shell: /bin/sh
                  after_broken:
                    command: echo never
                    shell: /bin/sh
                    depends_on: {broken: succeeded}
                """;
    }

    /** Five jobs in a group with parallel 2. */
    public static String queueOfFive() {
        StringBuilder sb = new StringBuilder("commands:\n");
        for (int i = 1; i <= 5; i++) {
            sb.append("  job").append(i).append(":\n    command: sleep 0.6\n    shell: /bin/sh\n    group: tests\n");
        }
        return sb.append("groups:\n  tests: {parallel: 2}\n").toString();
    }
}
