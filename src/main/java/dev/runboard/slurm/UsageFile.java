package dev.runboard.slurm;

/**
 * A job's {@code usage} file as its wrapper writes it on the node (runboard-wrap.pl {@code --usage}): a header
 * naming the wrapper's pid and the node's clock ticks and page size, then a usage frame in the format
 * {@link dev.runboard.process.TreeUsageFrames} reads (its process lines carry the id {@value #ID}).
 */
record UsageFile(long leader, long clockTicks, long pageSize, String frame) {
    /** The session id the wrapper writes on its process lines (it does not know the session's). */
    static final String ID = "s";

    static UsageFile parse(String text) {
        long leader = -1;
        long ticks = 100;
        long page = 4096;
        StringBuilder frame = new StringBuilder();
        for (String line : text.split("\n")) {
            if (line.startsWith("leader ")) {
                leader = Long.parseLong(line.substring(7).strip());
            } else if (line.startsWith("clock_ticks ")) {
                ticks = Long.parseLong(line.substring(12).strip());
            } else if (line.startsWith("page_size ")) {
                page = Long.parseLong(line.substring(10).strip());
            } else {
                frame.append(line).append('\n');
            }
        }
        if (leader < 0) {
            throw new IllegalArgumentException("a usage file without its leader line");
        }
        return new UsageFile(leader, ticks, page, frame.toString());
    }
}
