package org.ubft.consensus.replica;

import org.agrona.concurrent.NanoClock;

/**
 * Which peers this replica holds for absent: the fabric lost its connection to the peer and reports it not back
 * ({@link Replica#onConnectionLost}: a killed process's sockets close at once), and nothing came from the peer for
 * a quiet period since (four configured slow-path timeouts, at least {@link #MIN_QUIET_NANOS}; anything valid on the
 * links counts, {@link Replica#onHeard}, so that a flood dropped before consensus sees it counts too). While some
 * peer is absent the fast path cannot decide at this replica (it needs every replica's WILL_CERTIFY and WILL_COMMIT,
 * Algorithm 2 lines 25-31, and CTBcast's fast path every receiver's LOCKED), so the waits that serve only the fast path are skipped: the leader proposes a
 * request once f followers echoed it ({@link RequestIntake}), a replica certifies a slot as it endorses it (Algorithm
 * 2, lines 21-22 as printed, {@link Agreement}), and CTBcast signs each message with its LOCK (Algorithm 1, line 4 as
 * printed, {@link ReplicaOutput#signEagerly}).
 *
 * <p>Safety does not depend on this: each of the three is what the algorithms allow at any time; the timeouts they
 * skip are there to save signatures when every replica answers. What a Byzantine peer can do with it: make this
 * replica's connection to it fail while it keeps sending, but then it is heard and not absent (a flood or late votes
 * end the absence at once), so the eager slow path runs only toward a peer that is silent to this replica, whose
 * votes the fast path would wait for in vain anyway. That peer may still talk to the other replicas: this replica
 * then signs what it would sign after the timeouts anyway (it hears no vote from the silent peer, so its own slots
 * and CTBcast messages reach the slow path either way), only earlier. A crashed peer's restart reconnects, and the
 * fast path's waits come back with its first message.
 */
final class Absence {
    private final int self;
    private final long quietNanos;
    private final ReplicaOutput out;
    /** What {@link ReplicaOutput#signEagerly} was last told. */
    private boolean signingEagerly;
    private final boolean[] lost;
    /** When something last came from each peer while its connection was lost (the loss itself counts as heard). */
    private final long[] heardAt;
    private boolean any;

    /** The shortest quiet period: a live peer's link traffic (messages, acknowledgements) has gaps far shorter. */
    static final long MIN_QUIET_NANOS = 5_000_000;

    Absence(int n, int self, long quietNanos, ReplicaOutput out) {
        this.self = self;
        this.quietNanos = quietNanos;
        this.out = out;
        this.lost = new boolean[n];
        this.heardAt = new long[n];
    }

    /** The fabric's connection to {@code peer} is lost ({@code true}) or back, at {@code now}. */
    void connectionLost(int peer, boolean isLost, long now) {
        if (peer != self) {
            lost[peer] = isLost;
            heardAt[peer] = now; // the quiet period starts with the loss: a peer that still sends is never absent
            update(anyAbsent(now));
        }
    }

    /** Something came from {@code peer} on the links; reads the clock only while its connection is lost. */
    void heard(int peer, NanoClock clock) {
        if (lost[peer]) {
            long now = clock.nanoTime();
            heardAt[peer] = now;
            update(anyAbsent(now));
        }
    }

    /** Re-evaluates {@link #any} at the replica's tick. */
    void tick(long now) {
        update(anyAbsent(now));
    }

    /** Sets {@link #any}; CTBcast signs with LOCK while it holds ({@link ReplicaOutput#signEagerly}). */
    private void update(boolean absent) {
        any = absent;
        if (absent != signingEagerly) {
            signingEagerly = absent;
            out.signEagerly(absent);
        }
    }

    private boolean anyAbsent(long now) {
        for (int p = 0; p < lost.length; p++) {
            if (lost[p] && now - heardAt[p] >= quietNanos) {
                return true;
            }
        }
        return false;
    }

    /** Whether some peer is absent (as of the last tick or change). */
    boolean any() {
        return any;
    }

}
