package org.ubft.fabric;

/**
 * The local checks every fabric implementation makes when an operation is posted (arguments, closed
 * fabric, outstanding bound) and the count of outstanding operations. Not thread-safe: it lives on
 * the fabric's user thread like the fabric itself.
 */
public final class OperationGuard {
    private final int maxOutstanding;
    private int outstanding;
    private boolean closed;

    public OperationGuard(int maxOutstanding) {
        if (maxOutstanding <= 0) {
            throw new IllegalArgumentException("maxOutstanding must be positive, got " + maxOutstanding);
        }
        this.maxOutstanding = maxOutstanding;
    }

    /**
     * Checks a post and counts it as outstanding.
     *
     * @param bufferCapacity capacity of the local source or destination buffer
     * @param bufferIndex    where in it the operation starts
     */
    public void admit(int offset, int length, int bufferCapacity, int bufferIndex) {
        if (closed) {
            throw new FabricException("fabric is closed");
        }
        if (offset < 0) {
            throw new FabricException("negative region offset " + offset);
        }
        if (length < 0 || length > Fabric.MAX_OPERATION_BYTES) {
            throw new FabricException("operation length " + length + " outside 0.." + Fabric.MAX_OPERATION_BYTES);
        }
        if (bufferIndex < 0 || (long) bufferIndex + length > bufferCapacity) {
            throw new FabricException("local buffer range [" + bufferIndex + ", " + ((long) bufferIndex + length)
                + ") exceeds its capacity " + bufferCapacity);
        }
        if (outstanding >= maxOutstanding) {
            throw new FabricException("more than " + maxOutstanding
                + " outstanding operations; poll completions before posting more");
        }
        outstanding++;
    }

    /** Counts one completion handed to the user. */
    public void completed() {
        outstanding--;
    }

    public int outstanding() {
        return outstanding;
    }

    public int maxOutstanding() {
        return maxOutstanding;
    }

    public void close() {
        closed = true;
        outstanding = 0;
    }

    public boolean isClosed() {
        return closed;
    }

    /** True if {@code [offset, offset + length)} lies inside a region of {@code regionLength} bytes. */
    public static boolean inBounds(int offset, int length, int regionLength) {
        return offset >= 0 && length >= 0 && (long) offset + length <= regionLength;
    }
}
