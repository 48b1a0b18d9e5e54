package dev.runboard.store;

import java.io.IOException;
import java.nio.file.Path;

/** Where the full output of sessions that outgrew their preview is kept. */
public interface ArtifactStore {

    /** Moves a finished session's capture file into the store and returns where it now is. */
    Path persist(String sessionId, Path captureFile) throws ArtifactException;

    /** Where a session's artifact lives (derived from the id alone), whether or not it exists. */
    Path pathFor(String sessionId);

    void delete(String sessionId) throws IOException;
}
