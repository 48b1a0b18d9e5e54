package dev.runboard.store;

import dev.runboard.session.Session;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/**
 * Where a record read from disk may say its output is: only the session's own places in this data
 * dir, {@code sessions/<id>/capture.log} and {@code artifacts/<id>.log}. Every reader (tail, grep,
 * diff, show, the window's viewer, removal and retention) takes these paths from the record, so a
 * record edited by hand or by a hostile tool could otherwise make them print, or delete, any file
 * the user can reach. A record written before its data dir was moved or copied names the old
 * place: the same file at this data dir's place is meant. Any other path is dropped, and the
 * record's {@code artifact_error} says what it named and why it is not read. Records come from
 * {@link SessionStore#load} and from the window's {@link RowIndex}, which both pass through here.
 */
public final class OwnOutputFiles {
    /**
     * The {@code artifact_error_code} of a record whose output files were dropped: beside the codes of
     * {@link ArtifactErrorCode} (a failure to persist), for scripts and for the readers that refuse it.
     */
    public static final String OUTSIDE_DATA_DIR = "outside_data_dir";

    private final SessionStore store;

    OwnOutputFiles(SessionStore store) {
        this.store = store;
    }

    SessionRecord confine(SessionRecord r) {
        Path capture = store.file(r.id(), SessionStore.CAPTURE);
        Path artifact = store.dataDir().resolve(FileArtifactStore.DIR_NAME).resolve(r.id() + ".log");
        String ownCapture = own(r.captureFile(), capture, Path.of("sessions", r.id(), SessionStore.CAPTURE));
        String ownArtifact = own(r.artifact(), artifact, Path.of(FileArtifactStore.DIR_NAME, r.id() + ".log"));
        boolean captureForeign = r.captureFile() != null && ownCapture == null;
        boolean artifactForeign = r.artifact() != null && ownArtifact == null;
        if (!captureForeign && !artifactForeign) {
            return same(r.captureFile(), ownCapture) && same(r.artifact(), ownArtifact) ? r
                    : r.withOutputFiles(ownArtifact, r.artifactError(), r.artifactErrorCode(), ownCapture);
        }
        String named = artifactForeign ? r.artifact() : r.captureFile();
        String why = "session " + r.id() + "'s record names its output as " + named + ", outside its place in the data dir ("
                + Session.slashes(artifactForeign ? artifact : capture) + "): runboard does not read it"
                + " (the record was changed by hand or by another tool)";
        return r.withOutputFiles(ownArtifact, why, OUTSIDE_DATA_DIR, ownCapture);
    }

    /** The recorded path as this data dir's own file, or null when it names a file elsewhere (or nothing). */
    private static String own(String recorded, Path here, Path tail) {
        if (recorded == null) {
            return null;
        }
        Path path;
        try {
            path = Path.of(recorded).normalize();
        } catch (InvalidPathException e) {
            return null;
        }
        Path absoluteHere = here.toAbsolutePath().normalize();
        if (path.equals(absoluteHere) || (path.isAbsolute() && path.endsWith(tail))) {
            return Session.slashes(absoluteHere); // this data dir's own, or the same file of a data dir since moved here
        }
        return null;
    }

    private static boolean same(String a, String b) {
        return a == null ? b == null : a.equals(b);
    }
}
