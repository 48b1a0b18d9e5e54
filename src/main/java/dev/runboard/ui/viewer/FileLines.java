package dev.runboard.ui.viewer;

import dev.runboard.session.AnsiText;
import dev.runboard.session.OutputPreview;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.AbstractList;
import java.util.Arrays;
import java.util.function.DoubleConsumer;

/**
 * A text file as a read-only list of lines, read on demand: a sparse index (the offset of every
 * {@value #BLOCK}th line) keeps memory small for large files, and one decoded block is cached.
 * Not thread-safe: one instance per thread.
 */
public final class FileLines extends AbstractList<String> implements AutoCloseable {
    static final int BLOCK = 64;
    /** Bytes read for one block at most: a block of absurdly long lines is cut, not loaded whole. */
    private static final int MAX_BLOCK_BYTES = 4 << 20;
    private static final int MAX_LINE_CHARS = 10_000;

    private final Path file;
    private final FileChannel channel;
    private final long[] blockStarts;
    private final int lineCount;
    private final long size;
    private int cachedBlock = -1;
    private String[] cached;

    private FileLines(Path file, long[] blockStarts, int lineCount, long size) throws IOException {
        this.file = file;
        this.channel = FileChannel.open(file, StandardOpenOption.READ);
        this.blockStarts = blockStarts;
        this.lineCount = lineCount;
        this.size = size;
    }

    /** Scans the file once for line starts (off the FX thread); progress goes 0..1. */
    public static FileLines index(Path file, DoubleConsumer progress) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = ch.size();
            long[] starts = new long[16];
            int blocks = 1; // block 0 starts at offset 0
            int lines = 0;
            ByteBuffer buf = ByteBuffer.allocateDirect(1 << 20);
            long pos = 0;
            byte last = '\n';
            while (pos < size) {
                buf.clear();
                int n = ch.read(buf, pos);
                if (n <= 0) {
                    break;
                }
                for (int i = 0; i < n; i++) {
                    byte b = buf.get(i);
                    if (b == '\n') {
                        lines++;
                        if (lines % BLOCK == 0 && pos + i + 1 < size) {
                            if (blocks == starts.length) {
                                starts = Arrays.copyOf(starts, blocks * 2);
                            }
                            starts[blocks++] = pos + i + 1;
                        }
                    }
                }
                last = buf.get(n - 1);
                pos += n;
                progress.accept(size == 0 ? 1 : (double) pos / size);
            }
            if (size > 0 && last != '\n') {
                lines++; // a last line without a newline still counts
            }
            return new FileLines(file, Arrays.copyOf(starts, blocks), lines, size);
        }
    }

    /** Another reader over the same index, for a search running on another thread. */
    public FileLines copy() throws IOException {
        return new FileLines(file, blockStarts, lineCount, size);
    }

    @Override
    public String get(int index) {
        if (index < 0 || index >= lineCount) {
            throw new IndexOutOfBoundsException(index);
        }
        int block = index / BLOCK;
        if (block != cachedBlock) {
            cached = readBlock(block);
            cachedBlock = block;
        }
        return cached[index % BLOCK];
    }

    private String[] readBlock(int block) {
        long start = blockStarts[block];
        long end = block + 1 < blockStarts.length ? blockStarts[block + 1] : size;
        int len = (int) Math.min(end - start, MAX_BLOCK_BYTES);
        ByteBuffer buf = ByteBuffer.allocate(len);
        try {
            while (buf.hasRemaining() && channel.read(buf, start + buf.position()) > 0) {
                // keep reading until the block is in
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String text = OutputPreview.decode(Arrays.copyOf(buf.array(), buf.position()));
        String[] lines = new String[BLOCK];
        Arrays.fill(lines, "[line not shown: this part of the file has lines too long to display]");
        int from = 0;
        for (int i = 0; i < BLOCK && from <= text.length(); i++) {
            int nl = text.indexOf('\n', from);
            int to = nl < 0 ? text.length() : nl;
            if (nl < 0 && to == from && i > 0) {
                break;
            }
            lines[i] = display(text.substring(from, to));
            from = to + 1;
        }
        return lines;
    }

    private static String display(String raw) {
        String line = AnsiText.strip(raw.endsWith("\r") ? raw.substring(0, raw.length() - 1) : raw);
        return line.length() > MAX_LINE_CHARS
                ? line.substring(0, MAX_LINE_CHARS) + " \u2026 (" + (line.length() - MAX_LINE_CHARS) + " more characters)"
                : line;
    }

    @Override
    public int size() {
        return lineCount;
    }

    public long bytes() {
        return size;
    }

    public Path file() {
        return file;
    }

    @Override
    public void close() {
        try {
            channel.close();
        } catch (IOException ignored) {
            // read-only: nothing to lose
        }
    }
}
