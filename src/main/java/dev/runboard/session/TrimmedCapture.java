package dev.runboard.session;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;

/**
 * A capture whose start its wrapper cuts while the command writes ({@code max_output}), read at the
 * offsets of the whole output: byte {@code p} is the file's byte {@code p - dropped}. A read is a
 * seqlock's: the wrapper says a cut is under way before it cuts ({@link OutputTrim#pending()}), so a
 * read that saw the same settled state before and after it read bytes that did not move; otherwise
 * it is read again. Bytes before {@link OutputTrim#dropped()} are gone: reading them throws
 * {@link OutputFile.Dropped}; readers that start at the beginning start at {@link OutputFile#start}.
 * Read-only, as every reader of output is.
 */
final class TrimmedCapture extends FileChannel {
    /** How long a read waits for a cut to finish before it takes the wrapper for gone mid-cut (the bytes stay where the state says). */
    private static final long PENDING_WAIT_NANOS = 5_000_000_000L;
    private static final long PARK_NANOS = 500_000;

    private final FileChannel file;
    private final Path capture;
    private long position;

    TrimmedCapture(FileChannel file, Path capture) {
        this.file = file;
        this.capture = capture;
    }

    /** The state once no cut is under way (or after waiting {@link #PENDING_WAIT_NANOS} for one). */
    OutputTrim settled() {
        OutputTrim t = OutputTrim.of(capture);
        long deadline = System.nanoTime() + PENDING_WAIT_NANOS;
        while (t.pending() > 0 && System.nanoTime() < deadline) {
            java.util.concurrent.locks.LockSupport.parkNanos(PARK_NANOS);
            t = OutputTrim.of(capture);
        }
        return t;
    }

    private static boolean same(OutputTrim a, OutputTrim b) {
        return a.dropped() == b.dropped() && a.pending() == b.pending();
    }

    @Override
    public long size() throws IOException {
        while (true) {
            OutputTrim before = settled();
            long size = file.size();
            if (same(before, OutputTrim.of(capture))) {
                return before.dropped() + size;
            }
        }
    }

    @Override
    public int read(ByteBuffer dst, long pos) throws IOException {
        int from = dst.position();
        while (true) {
            OutputTrim before = settled();
            if (pos < before.dropped()) {
                throw new OutputFile.Dropped(capture, before);
            }
            int n = file.read(dst, pos - before.dropped());
            if (same(before, OutputTrim.of(capture))) {
                return n;
            }
            dst.position(from); // the range moved while it was read: read it again where it is now
        }
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        int n = read(dst, position);
        if (n > 0) {
            position += n;
        }
        return n;
    }

    @Override
    public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
        long total = 0;
        for (int i = offset; i < offset + length; i++) {
            int n = read(dsts[i]);
            if (n <= 0) {
                return total == 0 ? n : total;
            }
            total += n;
            if (dsts[i].hasRemaining()) {
                break;
            }
        }
        return total;
    }

    @Override
    public long position() {
        return position;
    }

    @Override
    public FileChannel position(long newPosition) {
        if (newPosition < 0) {
            throw new IllegalArgumentException("negative position");
        }
        position = newPosition;
        return this;
    }

    @Override
    public long transferTo(long pos, long count, WritableByteChannel target) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate((int) Math.min(count, 1 << 20));
        long done = 0;
        while (done < count) {
            buf.clear().limit((int) Math.min(buf.capacity(), count - done));
            int n = read(buf, pos + done);
            if (n <= 0) {
                break;
            }
            buf.flip();
            while (buf.hasRemaining()) {
                target.write(buf);
            }
            done += n;
        }
        return done;
    }

    @Override
    public int write(ByteBuffer src) {
        throw new NonWritableChannelException();
    }

    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) {
        throw new NonWritableChannelException();
    }

    @Override
    public int write(ByteBuffer src, long pos) {
        throw new NonWritableChannelException();
    }

    @Override
    public FileChannel truncate(long size) {
        throw new NonWritableChannelException();
    }

    @Override
    public void force(boolean metaData) {
        // read-only: nothing to force
    }

    @Override
    public long transferFrom(ReadableByteChannel src, long pos, long count) {
        throw new NonWritableChannelException();
    }

    @Override
    public MappedByteBuffer map(MapMode mode, long pos, long size) {
        throw new UnsupportedOperationException("a capture whose start is cut cannot be mapped: its bytes move");
    }

    @Override
    public FileLock lock(long pos, long size, boolean shared) throws IOException {
        return file.lock(pos, size, shared);
    }

    @Override
    public FileLock tryLock(long pos, long size, boolean shared) throws IOException {
        return file.tryLock(pos, size, shared);
    }

    @Override
    protected void implCloseChannel() throws IOException {
        file.close();
    }
}
