package dev.runboard.cli;

import dev.runboard.engine.SupervisorClient;
import dev.runboard.session.Signal;
import dev.runboard.store.Json;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code runboard signal ID SIG}: one signal to a running session's process group, without ending it. */
@Command(name = "signal", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Send one signal to a running session's whole process group.",
            "STOP pauses it, CONT resumes it, HUP, USR1 and USR2 reach handlers, INT and TERM ask it to stop",
            "(no escalation: use kill for that).",
            "Prints {session_id, signal, process_group, sent} as JSON; exits 0 when sent, 1 when the group is gone."})
public final class SignalCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    StoreAccess store;

    @Parameters(index = "0", paramLabel = "ID", description = "The session id (a unique prefix is enough).")
    String id;

    @Parameters(index = "1", paramLabel = "SIG", description = "INT, TERM, HUP, USR1, USR2, STOP, CONT, QUIT or KILL (SIG prefix and numbers work).")
    String signal;

    @Override
    public Integer call() throws Exception {
        Signal sig;
        try {
            sig = Signal.parse(signal);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        SupervisorClient client = store.client();
        String session = StoreAccess.resolveId(client, id);
        boolean sent;
        try {
            sent = client.signal(session, sig);
        } catch (SupervisorClient.RequestException e) {
            if (e.usage()) {
                throw new UsageException(e.getMessage());
            }
            throw e;
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("session_id", session);
        out.put("signal", sig.name());
        Long group = StoreAccess.show(client, session).pid();
        out.put("process_group", group == null ? 0L : group);
        out.put("sent", sent);
        spec.commandLine().getOut().println(Json.write(out));
        spec.commandLine().getOut().flush();
        return sent ? 0 : 1;
    }
}
