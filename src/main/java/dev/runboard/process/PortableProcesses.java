package dev.runboard.process;

import dev.runboard.session.Signal;
import java.util.List;
import java.util.Optional;

/**
 * Where runboard has no native process-group support yet (macOS, Windows): commands run and are
 * watched, and a kill ends the process and the descendants the JDK can see, but processes that
 * detach from the tree cannot be found. {@link #limitations()} says so to the user.
 */
public final class PortableProcesses implements OsProcesses {
    private final String osName;

    public PortableProcesses(String osName) {
        this.osName = osName;
    }

    @Override
    public List<String> launchPrefix() {
        return List.of();
    }

    @Override
    public boolean supportsTreeKill() {
        return false;
    }

    @Override
    public Optional<String> limitations() {
        return Optional.of("On " + osName + " runboard cannot yet kill whole process trees: processes that detach"
                + " from the command's tree may survive a kill, and only TERM and KILL can be sent.");
    }

    @Override
    public boolean signalGroup(long pgid, Signal signal) {
        return signal(pgid, signal);
    }

    @Override
    public boolean signal(long pid, Signal signal) {
        Optional<ProcessHandle> h = ProcessHandle.of(pid);
        if (h.isEmpty()) {
            return false;
        }
        List<ProcessHandle> descendants = h.get().descendants().toList();
        boolean force = signal == Signal.KILL;
        if (signal != Signal.KILL && signal != Signal.TERM) {
            throw new UnsupportedOperationException(limitations().orElseThrow());
        }
        descendants.forEach(d -> {
            if (force) {
                d.destroyForcibly();
            } else {
                d.destroy();
            }
        });
        return force ? h.get().destroyForcibly() : h.get().destroy();
    }

    @Override
    public boolean isAlive(long pid) {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    @Override
    public long startTicks(long pid) {
        return 0;
    }

    @Override
    public ProcessTable snapshot() {
        return new ProcessTable(ProcessHandle.allProcesses()
                .map(p -> new ProcInfo(p.pid(), p.parent().map(ProcessHandle::pid).orElse(0L), p.pid(), p.pid(),
                        p.isAlive() ? 'R' : 'X', 0, 0, p.info().command().orElse("?")))
                .toList());
    }

    @Override
    public boolean hasEnvEntry(long pid, String entry) {
        return false;
    }

    @Override
    public String commandLine(long pid) {
        return ProcessHandle.of(pid).flatMap(p -> p.info().commandLine()).orElse("?");
    }
}
