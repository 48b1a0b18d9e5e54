import dev.runboard.artifact.ArtifactFile;
import dev.runboard.artifact.LineIndex;
import dev.runboard.artifact.MirroredBytes;
import dev.runboard.artifact.PageReader;
import dev.runboard.remote.SshSessions;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The viewer's "End" on a remote output none of which is mirrored here: opens it as the viewer does
 * (an empty local mirror, the rest by byte ranges from the host) and reads the last page of ROWS
 * lines, as the viewer's page worker does; prints the milliseconds and the last line.
 *
 *   java -cp target/runboard.jar bench/RemoteLastPage.java DATA_DIR HOST SESSION_ID ROWS
 *   java -cp target/runboard.jar bench/RemoteLastPage.java DATA_DIR      (prints this client's folder name)
 * (RUNBOARD_SSH_CONFIG names the ssh config, as for runboard itself.)
 */
public class RemoteLastPage {
    public static void main(String[] args) throws Exception {
        Path data = Path.of(args[0]);
        if (args.length == 1) {
            try (SshSessions ssh = SshSessions.forDataDir(data)) {
                System.out.println(ssh.clientId());
            }
            return;
        }
        int rows = Integer.parseInt(args[3]);
        Path mirror = Files.createTempFile(data, "mirror", ".log");
        try (SshSessions ssh = SshSessions.forDataDir(data)) {
            long t0 = System.nanoTime();
            ArtifactFile file = new ArtifactFile(mirror, new MirroredBytes(mirror, ssh.output(args[1], args[2])));
            PageReader.Page page = new PageReader(file, new LineIndex(mirror, () -> true)).end(rows);
            long t1 = System.nanoTime();
            String last = page.lines().get(page.lines().size() - 1).text();
            System.out.printf("%.1f ms for the last page of %d bytes (%d lines); its last line: %s%n",
                    (t1 - t0) / 1e6, page.fileSize(), page.lines().size(), last.length() > 40 ? last.substring(0, 40) : last);
            file.close();
        } finally {
            Files.deleteIfExists(mirror);
        }
    }
}
