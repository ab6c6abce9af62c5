package org.ubft.consensus.replica;

import static org.ubft.consensus.wire.ConsensusWire.DIGEST_BYTES;

/**
 * The states a replica computed (or fetched, or kept across a restart) for checkpoints from its stable one on, with
 * their digests: the state of checkpoint s is the one after executing slots below s. With a checkpoint every K slots
 * and execution bounded by the window [seq, seq + W), at most W / K + 1 of them are live at once (seq, seq + K, ...,
 * seq + W), so a ring of that many, indexed by s / K, holds them all; {@link #forgetBefore} drops the ones a newer
 * stable checkpoint superseded.
 */
final class OwnStates {
    private final int interval;
    private final long[] seq;
    private final byte[][] state;
    private final byte[] digest;

    /** @param capacity W / K + 1; @param interval K */
    OwnStates(int capacity, int interval) {
        this.interval = interval;
        this.seq = new long[capacity];
        this.state = new byte[capacity][];
        this.digest = new byte[capacity * DIGEST_BYTES];
        clear();
    }

    /** Keeps {@code s}'s state and digest, replacing whatever its entry held. */
    void put(long s, byte[] st, byte[] d) {
        int i = index(s);
        seq[i] = s;
        state[i] = st;
        System.arraycopy(d, 0, digest, i * DIGEST_BYTES, DIGEST_BYTES);
    }

    /** The entry of checkpoint {@code s}, or -1 if this replica holds no state of it. */
    int find(long s) {
        int i = index(s);
        return seq[i] == s ? i : -1;
    }

    byte[] state(int i) {
        return state[i];
    }

    /** Whether entry {@code i}'s digest is {@code d}. */
    boolean digestIs(int i, byte[] d) {
        return java.util.Arrays.equals(digest, i * DIGEST_BYTES, (i + 1) * DIGEST_BYTES, d, 0, DIGEST_BYTES);
    }

    /** Drops the states of checkpoints before {@code s}. */
    void forgetBefore(long s) {
        for (int i = 0; i < seq.length; i++) {
            if (seq[i] >= 0 && seq[i] < s) {
                seq[i] = -1;
                state[i] = null;
            }
        }
    }

    void clear() {
        java.util.Arrays.fill(seq, -1);
        java.util.Arrays.fill(state, null);
    }

    private int index(long s) {
        return (int) ((s / interval) % seq.length);
    }
}
