package dev.runboard.remote;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads one poll's answer as it streams in: per session a header line {@code ID SIZE ALIVE
 * STATUS_LEN DATA_LEN}, the exit-status file's bytes, then the new output, which goes straight
 * into the session's mirror. A session has ended when its status is there and its mirror holds
 * every byte up to the size read after it; or, without a status, when its wrapper is gone on two
 * polls in a row with nothing left to fetch (the host rebooted, say: the status is lost), when its
 * folder is gone from the host, or when its status file holds no status the wrapper writes. A session
 * another target owns ({@link HostLink#mirror}: a Slurm job's) has no wrapper pid here; its liveness is
 * its owner's to judge, so only its status or its folder's loss end its mirror.
 */
final class PollFrames {
    /** The most output one poll brings for all of a host's sessions together. */
    static final long MAX_BYTES_PER_POLL = 256L << 20;

    /** A session that has ended: the wrapper's status line, or null with why it was lost. */
    record Ended(String id, String status, String lostWhy) {
        static Ended lost(String id, String why) {
            return new Ended(id, null, why);
        }
    }

    private final Map<String, Followed> followed;
    private final List<Ended> ended = new ArrayList<>();
    private final java.util.Set<String> ending = new java.util.HashSet<>();
    private boolean more;
    private boolean carried;
    /** Sessions whose wrapper was found gone without a status, and on how many polls (kept across polls). */
    private final Map<String, Integer> gone;

    /** The text of the poll's usage frame, when it asked for one (see {@link dev.runboard.process.TreeUsageFrames}). */
    private String usage;

    /** Sessions whose output comes by their stream, not by this poll: their bytes still on the way are not more to fetch. */
    private final java.util.Set<String> streamed;

    PollFrames(Map<String, Followed> followed, Map<String, Integer> gone, java.util.Set<String> streamed) {
        this.followed = followed;
        this.gone = gone;
        this.streamed = streamed;
    }

    String usage() {
        return usage;
    }

    byte[] read(InputStream raw) throws IOException {
        InputStream in = new BufferedInputStream(raw, 1 << 16);
        byte[] buffer = new byte[1 << 16];
        String header;
        while ((header = HelperLines.read(in, "a poll")) != null) {
            if (header.startsWith("#usage ")) {
                int length = Integer.parseInt(header.substring(7));
                byte[] text = in.readNBytes(length);
                if (text.length < length) {
                    throw new IOException("the connection ended in the middle of the usage frame");
                }
                usage = new String(text, StandardCharsets.UTF_8);
                continue;
            }
            String[] f = header.split(" ");
            if (f.length != 5) {
                throw new IOException("the remote helper answered something unexpected: " + header);
            }
            String id = f[0];
            long size = Long.parseLong(f[1]);
            boolean alive = f[2].equals("1");
            int statusLength = Integer.parseInt(f[3]);
            long dataLength = Long.parseLong(f[4]);
            String status = new String(in.readNBytes(statusLength), StandardCharsets.UTF_8);
            if (status.length() < statusLength) {
                throw new IOException("the connection ended in the middle of a status");
            }
            Followed s = followed.get(id);
            if (s == null) {
                in.skipNBytes(dataLength);
                continue;
            }
            s.hostBytes().set(size);
            s.mirror().append(in, dataLength, buffer);
            carried |= dataLength > 0;
            boolean complete = s.mirror().size() >= size;
            more |= !complete && !streamed.contains(id);
            if (size < 0) {
                ended.add(Ended.lost(id, "the session's folder is gone from the host (reinstalled, or the folder"
                        + " deleted)" + (alive ? "; its wrapper (pid " + s.pid() + ") still runs there" : "")));
            } else if (!status.isEmpty() && !complete) {
                ending.add(id); // its end is known, its last bytes are on the way
            } else if (!status.isEmpty() && complete) {
                ended.add(RemoteProcess.isStatus(status) ? new Ended(id, status, null) : Ended.lost(id,
                        "its exit-status file holds no status (\"" + status.strip().lines().findFirst().orElse("")
                                + "\")"));
            } else if (status.isEmpty() && !alive && complete && !s.ownedElsewhere()) { // its liveness is its owner's
                if (gone.merge(id, 1, Integer::sum) >= 2) {
                    gone.remove(id);
                    ended.add(Ended.lost(id, "its wrapper (pid " + s.pid() + ") is gone without recording how the command"
                            + " ended (killed with SIGKILL, or the host rebooted)"));
                }
            }
        }
        return new byte[0];
    }

    List<Ended> ended() {
        return ended;
    }

    /** Sessions whose command has ended on the host while some of their output is still to come here. */
    java.util.Set<String> ending() {
        return ending;
    }

    /** Whether this poll brought output (of a session without a stream: no other's is asked for). */
    boolean carried() {
        return carried;
    }

    /** Whether a session without a stream has output this poll did not bring (a poll carries a bounded amount). */
    boolean more() {
        return more;
    }

}
