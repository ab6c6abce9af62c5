package org.ubft.ctbcast.tbcast;

/**
 * What a receiver remembers of one broadcaster's stream: the highest index seen, {@code high}, and which
 * of the {@code size} indices {@code high - size + 1 .. high} it delivered (a bitmap indexed by
 * {@code index mod size}). Anything below the window is out of the tail and refused; anything above
 * moves the window up. Fixed memory whatever the indices; O(size) at most per call, O(1) amortized.
 */
final class DeliveryWindow {
    static final int NEW = 0;
    static final int DUPLICATE = 1;
    static final int OUT_OF_WINDOW = 2;

    private final int size;
    private final long[] bits;
    /** Highest index accepted; 0 before the first (indices start at 1). */
    private long high;
    /** Lowest index of the window not delivered ({@code high + 1} if every one was). */
    private long low = 1;

    DeliveryWindow(int size) {
        this.size = size;
        this.bits = new long[(size + 63) / 64];
    }

    /**
     * Records the arrival of {@code index} (1 .. 2^62 - 1, checked by the caller).
     *
     * @return {@link #NEW} (deliver it), {@link #DUPLICATE} or {@link #OUT_OF_WINDOW}
     */
    int accept(long index) {
        if (index > high) {
            if (index - high >= size) {
                java.util.Arrays.fill(bits, 0L);
            } else {
                for (long i = high + 1; i <= index; i++) {
                    clear(i);
                }
            }
            high = index;
            low = Math.max(low, start());
        } else if (index < start()) {
            return OUT_OF_WINDOW;
        } else if (get(index)) {
            return DUPLICATE;
        }
        set(index);
        while (low <= high && get(low)) {
            low++;
        }
        return NEW;
    }

    /**
     * Takes the broadcaster's word that nothing below {@code below} is still to come ({@code Envelope#settledBelow}):
     * the window's indices below it count as delivered, so {@link #low()} (the ack's base) moves past indices never
     * sent here and a later copy of one is a duplicate. Only inside the window, up to {@link #high()}: a claim can
     * move nothing but this broadcaster's window. O(size) at most, O(1) amortized.
     */
    void settle(long below) {
        long end = Math.min(below, high + 1);
        for (long i = low; i < end; i++) {
            set(i);
        }
        while (low <= high && get(low)) {
            low++;
        }
    }

    /** First index of the window (at least 1). */
    long start() {
        return Math.max(1, high - size + 1);
    }

    long high() {
        return high;
    }

    /** Lowest index of the window not yet delivered: what an ack gives as its base. */
    long low() {
        return low;
    }

    /** Whether {@code index}, inside the window, was delivered (or settled, {@link #settle}). */
    boolean delivered(long index) {
        return index >= start() && index <= high && get(index);
    }

    /**
     * The delivered indices among {@code first .. first + count - 1} (all inside the window, {@code count <= 64}) as
     * bits 0 .. count - 1: an ack's bitmap word. Two word reads when the size is a multiple of 64 (2t with t a multiple
     * of 32, the default 128 included), else one division and a bit at a time.
     */
    long deliveredBits(long first, int count) {
        long word = RingBits.window(bits, size, (int) (first % size));
        return count == 64 ? word : word & ((1L << count) - 1);
    }

    private boolean get(long index) {
        int b = (int) (index % size);
        return (bits[b >>> 6] & (1L << b)) != 0;
    }

    private void set(long index) {
        int b = (int) (index % size);
        bits[b >>> 6] |= 1L << b;
    }

    private void clear(long index) {
        int b = (int) (index % size);
        bits[b >>> 6] &= ~(1L << b);
    }
}
