package dev.runboard.session;

/**
 * A running session's output while it grows. {@link #read()} looks at the capture file;
 * {@link #lastRead()} gives what the previous look found, for a caller that needs the status now
 * and can take the output as it was (a table between its once-a-second refreshes).
 */
public interface LiveOutput {
    LiveOutput NONE = new LiveOutput() {
        @Override
        public OutputPreview read() {
            return OutputPreview.EMPTY;
        }

        @Override
        public OutputPreview lastRead() {
            return OutputPreview.EMPTY;
        }
    };

    OutputPreview read();

    OutputPreview lastRead();
}
