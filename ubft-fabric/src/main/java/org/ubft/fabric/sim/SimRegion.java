package org.ubft.fabric.sim;

import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.fabric.BasicLocalRegion;
import org.ubft.fabric.Permissions;

/** A region of a simulated node: plain heap memory plus the rest of a torn write still to be applied. */
final class SimRegion extends BasicLocalRegion {
    private final UnsafeBuffer buffer;
    /** Second half of a torn write: words still to apply, or null. */
    private SimOperation pendingWrite;
    private boolean[] pendingWords;

    SimRegion(int regionId, int length, Permissions permissions) {
        this(regionId, new UnsafeBuffer(new byte[length]), permissions);
    }

    private SimRegion(int regionId, UnsafeBuffer buffer, Permissions permissions) {
        super(regionId, buffer, permissions);
        this.buffer = buffer;
    }

    /** Applies a write whole. */
    void apply(SimOperation op) {
        completePendingWrite();
        buffer.putBytes(op.offset, op.data, 0, op.length);
    }

    /**
     * Applies the words of a write selected by {@code firstHalf} now and keeps the others for
     * {@link #completePendingWrite()}: until then, readers see a mix of old and new 8-byte words.
     */
    void applyTorn(SimOperation op, boolean[] firstHalf) {
        completePendingWrite();
        applyWords(op, firstHalf, true);
        pendingWrite = op;
        pendingWords = firstHalf;
    }

    void completePendingWrite() {
        if (pendingWrite != null) {
            applyWords(pendingWrite, pendingWords, false);
            pendingWrite = null;
            pendingWords = null;
        }
    }

    boolean hasPendingWrite(SimOperation op) {
        return pendingWrite == op;
    }

    private void applyWords(SimOperation op, boolean[] selected, boolean value) {
        for (int w = 0; w < selected.length; w++) {
            if (selected[w] == value) {
                int from = wordStart(op, w);
                int to = Math.min(wordStart(op, w + 1), op.offset + op.length);
                buffer.putBytes(from, op.data, from - op.offset, to - from);
            }
        }
    }

    /** Start of the w-th region-aligned 8-byte word that the write touches (the first may be partial). */
    static int wordStart(SimOperation op, int w) {
        return w == 0 ? op.offset : ((op.offset >>> 3) + w) << 3;
    }

    /** Number of region-aligned 8-byte words (some partial) that a write of that range touches. */
    static int wordCount(int offset, int length) {
        return length == 0 ? 0 : ((offset + length - 1) >>> 3) - (offset >>> 3) + 1;
    }
}
