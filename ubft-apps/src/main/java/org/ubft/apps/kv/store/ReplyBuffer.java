package org.ubft.apps.kv.store;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The bytes of replies being built, growing up to a hard bound: a write beyond it throws {@link TooLarge} (callers
 * {@link #mark()} before a command and {@link #reset(int)} to replace an oversized reply with an error).
 */
public final class ReplyBuffer {
    /** A reply would pass the buffer's bound. */
    public static final class TooLarge extends RuntimeException {
        TooLarge() {
            super("reply too large", null, false, false);
        }
    }

    private final int max;
    private byte[] bytes = new byte[256];
    private int size;

    public ReplyBuffer(int max) {
        this.max = max;
    }

    public int size() {
        return size;
    }

    public int max() {
        return max;
    }

    public int mark() {
        return size;
    }

    public void reset(int mark) {
        size = mark;
    }

    public ReplyBuffer write(byte b) {
        ensure(1);
        bytes[size++] = b;
        return this;
    }

    public ReplyBuffer write(byte[] b) {
        ensure(b.length);
        System.arraycopy(b, 0, bytes, size, b.length);
        size += b.length;
        return this;
    }

    /** {@code s} as ASCII (callers pass ASCII text). */
    public ReplyBuffer ascii(String s) {
        return write(s.getBytes(StandardCharsets.US_ASCII));
    }

    public ReplyBuffer decimal(long v) {
        return ascii(Long.toString(v));
    }

    public ReplyBuffer crlf() {
        ensure(2);
        bytes[size++] = '\r';
        bytes[size++] = '\n';
        return this;
    }

    public byte[] toByteArray() {
        return Arrays.copyOf(bytes, size);
    }

    private void ensure(int more) {
        if ((long) size + more > max) {
            throw new TooLarge();
        }
        if (size + more > bytes.length) {
            bytes = Arrays.copyOf(bytes, (int) Math.min(max, Math.max((long) size + more, 2L * bytes.length)));
        }
    }
}
