package dev.runboard.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.runboard.engine.SupervisorClient;
import dev.runboard.session.InvalidSpecException;
import dev.runboard.session.SessionEvent;
import dev.runboard.session.SessionSpec;
import dev.runboard.session.Signal;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * {@code exec} as a client of the data dir's supervisor, which owns the session: started there, this client's stdin
 * copied to it, the hang, guard, rule and connection events printed as they come, then the final snapshot printed
 * and exec's exit code returned once the record is final. A remote session's exec always runs so: its host's
 * connection, output stream and poll are the supervisor's (one owner for each host, where an exec of its own JVM
 * opened them a second time), and bin/runboard's thin client starts no JVM for it (docs/BENCHMARKS.md §12). So does
 * any exec the supervisor runs for a thin client. Ctrl-C (this JVM's, or the thin client's {@code signal} frame)
 * kills the tree, then prints the killed snapshot, as a local exec does.
 */
final class SupervisedExec {
    /** How often the events are looked at while the command runs. */
    private static final long EVENT_LOOK_MS = 1000;
    /** The events exec prints as they come: what the watchdog, the guards and the rules find, and the link's state. */
    private static final Set<String> PRINTED_EVENTS =
            Set.of(SessionEvent.HANG, SessionEvent.GUARD, SessionEvent.RULE, SessionEvent.CONNECTION);
    private static final int INTERRUPTED = 128 + 2;

    private final SupervisorClient client;
    private final SessionSpec spec;
    private final ClientCall call;
    private final PrintWriter out;
    private final PrintWriter err;
    private final CountDownLatch ended = new CountDownLatch(1);
    private final Set<String> eventsSeen = new HashSet<>();
    private boolean printed;

    SupervisedExec(SupervisorClient client, SessionSpec spec, ClientCall call, PrintWriter out, PrintWriter err) {
        this.client = client;
        this.spec = spec;
        this.call = call;
        this.out = out;
        this.err = err;
    }

    int run() throws IOException {
        String id;
        try {
            id = client.start(spec);
        } catch (InvalidSpecException e) {
            err.println("runboard exec: " + e.getMessage());
            err.flush();
            return RunboardCli.USAGE;
        }
        // In its own JVM, Ctrl-C runs the shutdown hooks, and the JVM halts when they return: the hook kills and prints.
        Thread onCtrlC = call.relayed() ? null : new Thread(() -> killAndPrint(id), "runboard-exec-interrupt");
        if (onCtrlC != null) {
            Runtime.getRuntime().addShutdownHook(onCtrlC);
        }
        daemon("runboard-exec-stdin-" + id, () -> copyInput(id));
        Thread events = daemon("runboard-exec-events-" + id, () -> printEvents(id));
        try {
            SupervisorClient.ExecEnd end = client.execEnded(id);
            ended.countDown();
            removeHook(onCtrlC);
            printOnce(end.snapshot());
            return end.exit();
        } catch (IOException e) {
            if (!Thread.interrupted()) {
                throw e;
            }
            // The thin client was interrupted (Ctrl-C) or has gone: the tree goes with it.
            killAndPrint(id);
            return INTERRUPTED;
        } finally {
            ended.countDown();
            // No look of the events' is left in flight once exec is done: one that came after the supervisor's stop
            // would start another supervisor for nobody.
            joinQuietly(events);
        }
    }

    /**
     * The client's stdin to the command, then its end; over as soon as the session takes no more input. Bytes read
     * after exec is done go nowhere: a request then could start a supervisor for nobody.
     */
    private void copyInput(String id) {
        byte[] buffer = new byte[64 << 10];
        try {
            InputStream in = call.stdin();
            for (int n; (n = in.read(buffer)) >= 0; ) {
                if (ended.getCount() == 0) {
                    return;
                }
                if (n > 0) {
                    client.stdin(id, java.util.Arrays.copyOf(buffer, n));
                }
            }
            if (ended.getCount() > 0) {
                client.closeStdin(id);
            }
        } catch (IOException takesNoMore) {
            // the session has ended (its input with it), or this client's input failed: nothing more to send
        }
    }

    private void printEvents(String id) {
        try {
            while (!ended.await(EVENT_LOOK_MS, TimeUnit.MILLISECONDS)) {
                for (JsonNode event : client.show(id).json().path("events")) {
                    String kind = event.path("kind").asText();
                    if (PRINTED_EVENTS.contains(kind) && eventsSeen.add(event.toString())) {
                        synchronized (this) {
                            if (!printed) {
                                ExecCommand.printEvent(kind, event.path("message").asText(), err);
                            }
                        }
                    }
                }
            }
        } catch (InterruptedException | IOException over) {
            // the session ended, or the supervisor is gone (exec's wait says so)
        }
    }

    private void killAndPrint(String id) {
        if (ended.getCount() == 0 && printed) {
            return;
        }
        try {
            client.kill(id, Signal.TERM, spec.grace());
            printOnce(client.execEnded(id).snapshot());
        } catch (IOException e) {
            // the session ended meanwhile, or the supervisor went: the kill was asked; nothing more to print
        }
    }

    /**
     * Synchronized, not just a flag: when the main thread is mid-print as Ctrl-C arrives, the hook
     * must wait for it to finish, or the JVM halts with the snapshot half written.
     */
    private synchronized void printOnce(byte[] snapshot) {
        if (!printed) {
            printed = true;
            ByteWriter.printLine(out, snapshot);
        }
    }

    private static void removeHook(Thread hook) {
        if (hook == null) {
            return;
        }
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // Ctrl-C arrived as the session ended: the hook is running; printing once is still right.
        }
    }

    private static Thread daemon(String name, Runnable body) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    private static void joinQuietly(Thread t) {
        try {
            t.join(java.time.Duration.ofSeconds(5).toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
