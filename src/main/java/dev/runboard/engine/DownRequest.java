package dev.runboard.engine;

import com.fasterxml.jackson.annotation.JsonTypeName;
import dev.runboard.workspace.Workspace;
import java.nio.file.Path;
import java.util.List;

/** {@code down}: stops a workspace file's commands ({@code names}, or all), dependants first; answers the names stopped. */
@JsonTypeName("down")
record DownRequest(String file, List<String> names) implements Request<DownRequest.Reply> {
    /** The commands stopped, dependants first. */
    record Reply(List<String> stopped) implements Protocol.Reply {
    }

    @Override
    public Reply answer(Served served) throws Exception {
        Path path = StackRequests.file(file);
        List<String> named = names == null ? List.of() : names;
        if (!named.isEmpty()) {
            Workspace ws = StackRequests.load(path);
            for (String n : named) {
                if (!ws.commands().containsKey(n) && (n.isEmpty() || !ws.groups().containsKey(n))) {
                    throw new SupervisorRequests.Refused(ws.unknownName(n));
                }
            }
        }
        List<String> stopped = served.stack().orchestrator().down(path.toString(), named);
        if (stopped.isEmpty() && !java.nio.file.Files.isRegularFile(path)) {
            // A mistyped -f: said as up says it. (What runs from a file removed since up is still stopped above.)
            throw new SupervisorRequests.Refused(StackRequests.noFile(path));
        }
        return new Reply(stopped);
    }
}
