package org.ubft.consensus.replica;

/**
 * Whether the fast path has worked lately: slots decided in a row on the slow path, up to {@link #LIMIT}, 0 after a
 * fast decision or once every replica endorsed a slot (all n WILL_CERTIFY: the fast path's first half, which the slow
 * path, started at once, may outrun). From {@link #LIMIT} on, the waits that only serve the fast path are skipped, until a slot is decided
 * on the fast path again: a replica certifies a slot as it endorses it (Algorithm 2, lines 21-22 as printed, {@link
 * Agreement}), and the leader proposes a request once f followers echoed it instead of waiting for every follower
 * ({@link RequestIntake}). While a replica is down or silent the fast path cannot decide, and each wait only added
 * the slow-path timeout to every request (one replica of three down: about 8 ms a request over tcp, 3 ms without the
 * waits). Both are what the algorithm allows at any time; the waits are there to save signatures when all replicas
 * answer.
 */
final class SlowStreak {
    /** Slow decisions in a row after which the fast path's waits are skipped. */
    static final int LIMIT = 4;

    private int slowInARow;

    void decided(boolean fast) {
        if (fast) {
            slowInARow = 0;
        } else if (slowInARow < LIMIT) {
            slowInARow++;
        }
    }

    /** Every replica endorsed a slot (Algorithm 2, line 25): the fast path works again. */
    void allEndorsed() {
        slowInARow = 0;
    }

    /** Whether the fast path has not worked lately (its waits are skipped). */
    boolean on() {
        return slowInARow >= LIMIT;
    }
}
