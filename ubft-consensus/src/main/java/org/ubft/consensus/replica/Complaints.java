package org.ubft.consensus.replica;

import java.util.Arrays;

/**
 * Leader suspicion made a vote. A replica that suspects the leader of its view (Algorithm 3, line 1) first sends the
 * others a COMPLAINT about that view and keeps working in it; it changes view (seals, lines 3-6) only once f+1
 * replicas, itself included or not, complained about the view it is in, so at least one correct replica suspects.
 * <p>
 * A departure from the paper, where a suspicion changes the view at once: a correct replica that suspects alone
 * (a scheduling hiccup, a request only it received) would seal, leave the others' view for good and, with it, the fast
 * path's unanimity. With complaints it stays and the others carry on with it on the fast path. The paper's liveness
 * argument is unchanged: when the leader is faulty every correct replica suspects it, and the correct ones are f+1.
 * <p>
 * Holds, per replica, the highest view it complained about: n longs, whatever the senders do.
 */
final class Complaints {
    private final long[] complainedAbout;
    private long lastSentView = -1;
    private long lastSentAt;

    Complaints(int n) {
        complainedAbout = new long[n];
        Arrays.fill(complainedAbout, -1);
    }

    /** Records that {@code replica} complained about view {@code v} (a later complaint about a lower view is ignored). */
    void record(int replica, long v) {
        if (v > complainedAbout[replica]) {
            complainedAbout[replica] = v;
        }
    }

    /** Replicas that complained about view {@code v} (or a higher one: they left {@code v} in their minds). */
    int about(long v) {
        int count = 0;
        for (long c : complainedAbout) {
            if (c >= v) {
                count++;
            }
        }
        return count;
    }

    /** Replicas other than {@code self} that complained about view {@code v} (or a higher one). */
    int aboutByOthers(long v, int self) {
        return about(v) - (complainedAbout[self] >= v ? 1 : 0);
    }

    /** Whether this replica's complaint about {@code v} is due: not yet sent in {@code v}, or last sent
     * {@code resendNanos} ago (a complaint may be lost, and the others' suspicions may come later). */
    boolean due(long v, long now, long resendNanos) {
        if (v != lastSentView || now - lastSentAt >= resendNanos) {
            lastSentView = v;
            lastSentAt = now;
            return true;
        }
        return false;
    }
}
