package dev.runboard.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.runboard.store.Json;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * What the client pays to read a {@code list} reply of 10,000 snapshots (what {@code list --json} of a long history
 * asks) into its record ({@link Protocol#envelope}, {@link Protocol#decode}), against reading it as a tree, as the
 * client did before replies were records. Rounds alternate which goes first, so that neither pays for the other's
 * garbage. {@code ./mvnw -B -Pbench test -Dtest=ReplyDecodeBenchmark} (docs/BENCHMARKS.md §20).
 */
@Tag("bench")
class ReplyDecodeBenchmark {
    private static final int SESSIONS = 10_000;

    @Test
    void aListOfTenThousandSnapshots() throws Exception {
        int rounds = Integer.getInteger("bench.rounds", 15);
        ObjectNode snapshot = (ObjectNode) Json.mapper().readTree(SNAPSHOT);
        List<ShownSnapshot> sessions = new ArrayList<>();
        for (int i = 0; i < SESSIONS; i++) {
            sessions.add(new ShownSnapshot(snapshot.deepCopy()));
        }
        String line = new String(Protocol.line(new ListRequest.Reply(sessions)), StandardCharsets.UTF_8);
        long[] tree = new long[rounds];
        long[] record = new long[rounds];
        for (int round = 0; round < rounds; round++) {
            boolean treeFirst = round % 2 == 0;
            for (int k = 0; k < 2; k++) {
                long t0 = System.nanoTime();
                if ((k == 0) == treeFirst) {
                    JsonNode asTree = Json.mapper().readTree(line).path("sessions");
                    tree[round] = System.nanoTime() - t0;
                    assertEquals(SESSIONS, asTree.size());
                } else {
                    Protocol.Envelope envelope = Protocol.envelope(line);
                    ListRequest.Reply read = (ListRequest.Reply) Protocol.decode(line, envelope.ok(), ListRequest.Reply.class);
                    record[round] = System.nanoTime() - t0;
                    assertEquals(SESSIONS, read.sessions().size());
                }
            }
        }
        double[] ratios = new double[rounds];
        for (int i = 0; i < rounds; i++) {
            ratios[i] = (double) record[i] / tree[i];
        }
        Arrays.sort(tree);
        Arrays.sort(record);
        Arrays.sort(ratios);
        System.out.printf("list reply of %d snapshots, %.1f MB, %d rounds: as a tree median %.1f ms, into its record median"
                        + " %.1f ms; per round record/tree median %.2f (%.2f-%.2f)%n", SESSIONS, line.length() / 1e6, rounds,
                tree[rounds / 2] / 1e6, record[rounds / 2] / 1e6, ratios[rounds / 2], ratios[0], ratios[rounds - 1]);
    }

    /** A finished session's snapshot as a supervisor writes it, with 20 lines of output. */
    private static final String SNAPSHOT = "{\"status\":\"completed\",\"session_id\":\"20261207-074509-1a039e\",\"command\":\"make -j4 test\","
            + "\"argv\":null,\"cwd\":\"/home/u/project\",\"shell\":\"/bin/sh\",\"env\":{\"A\":\"1\"},\"pid\":24996,"
            + "\"started_at\":\"2026-12-07T07:45:09.317592059Z\",\"ended_at\":\"2026-12-07T07:45:19.317592059Z\",\"elapsed_seconds\":10.0,"
            + "\"timeout_seconds\":null,\"grace_seconds\":5.0,\"nice\":0,\"exit_code\":0,\"signal\":null,\"reason\":null,"
            + "\"output\":\"" + "line of output\\n".repeat(20) + "\",\"output_truncated\":false,\"output_bytes\":300,"
            + "\"output_original_bytes\":null,\"output_visible_bytes\":null,\"output_dropped_bytes\":null,\"last_line\":\"line of output\","
            + "\"artifact\":null,\"artifact_error\":null,\"artifact_error_code\":null,\"capture_file\":\"/x/output.log\",\"kill_report\":null,"
            + "\"resources\":{\"peak_rss_bytes\":1000,\"cpu_seconds\":0.5},\"events\":[],\"host\":null,\"connection\":null,\"lingering\":[],"
            + "\"ready\":null,\"depends_on\":null,\"restarts\":0,\"previous_run\":null,\"stack_name\":null,\"stack_file\":null,"
            + "\"progress\":null,\"progress_basis\":null,\"eta_seconds\":null,\"longer_than_usual\":false,\"slurm\":null}";
}
