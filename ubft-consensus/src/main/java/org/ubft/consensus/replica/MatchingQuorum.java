package org.ubft.consensus.replica;

import java.util.Arrays;
import java.util.Objects;

import static org.ubft.consensus.wire.ConsensusWire.DIGEST_BYTES;

/**
 * The one "f+1 matching" count of the protocol: per group and replica, the latest value that replica sent, and how
 * many distinct replicas' values match one. Every certificate the paper forms is such a count: f+1 CERTIFY shares of a
 * slot make PΣ (Algorithm 2, lines 34-36, {@link CertifyShares}); f+1 COMMITs of a slot decide it (line 40, {@link
 * CommitQuorum}); f+1 CERTIFY-CHECKPOINT shares make CΣ (line 49, {@link CheckpointShares}); f+1 CRTFY_VCs about a
 * replica make its certificate and f+1 certified replicas the NEW_VIEW (Algorithm 3, lines 13-16, {@link
 * ViewChangeCertificates}); f+1 CERTIFY_SUMMARY shares make a SUMMARY (Algorithm 4, line 7, {@link Summaries}).
 *
 * <p>A value is two numbers naming what it is about ({@code id}: a view, a checkpoint's sequence number or a summary
 * identifier; {@code slot}: a CERTIFY's slot, 0 where none) and a 32-byte digest of
 * what it says; two values match when all three are equal. A replica holds at most one value per group: recording its
 * next one replaces the last, so a replica never counts twice, whatever it sends (a duplicate, or a Byzantine
 * replica's second, conflicting value: only the latest counts, for its own digest). What is signed (signatures,
 * states) stays with the owner, indexed the same way (group · n + replica).
 *
 * <p>Fixed memory, preallocated: groups · n cells. No method allocates; {@link #next} walks the matching replicas in
 * replica order (the order certificates are written in) without an iterator.
 */
final class MatchingQuorum {
    /** For {@code except}: no replica is left out. */
    static final int NOBODY = -1;

    private final int groups;
    private final int n;
    private final int quorum;
    private final boolean[] held;
    private final long[] id;
    private final long[] slot;
    private final byte[] digest;

    /**
     * @param groups independent tallies (slot table entries, subjects, buckets; 1 for one tally)
     * @param n      replicas, ids 0..n-1
     * @param quorum matching values that make a quorum (f+1)
     */
    MatchingQuorum(int groups, int n, int quorum) {
        if (groups < 1 || n < 1 || quorum < 1 || quorum > n) {
            throw new IllegalArgumentException("groups " + groups + ", n " + n + ", quorum " + quorum);
        }
        this.groups = groups;
        this.n = n;
        this.quorum = quorum;
        int cells = Math.multiplyExact(groups, n);
        held = new boolean[cells];
        id = new long[cells];
        slot = new long[cells];
        digest = new byte[Math.multiplyExact(cells, DIGEST_BYTES)];
    }

    private int cell(int g, int replica) {
        return Objects.checkIndex(g, groups) * n + Objects.checkIndex(replica, n);
    }

    /**
     * Records {@code replica}'s value (id, slot, digest {@code d[at..]}) in group g, replacing the one it held.
     *
     * @return whether a quorum of distinct replicas' values now match it
     */
    boolean record(int g, int replica, long id, long slot, byte[] d, int at) {
        put(g, replica, id, slot, d, at);
        return matching(g, id, slot, d, at, NOBODY) >= quorum;
    }

    /** As {@link #record}, without counting (a tally loaded whole before it is asked). */
    void put(int g, int replica, long id, long slot, byte[] d, int at) {
        int c = cell(g, replica);
        held[c] = true;
        this.id[c] = id;
        this.slot[c] = slot;
        System.arraycopy(d, at, digest, c * DIGEST_BYTES, DIGEST_BYTES);
    }

    /** Forgets {@code replica}'s value in group g. */
    void forget(int g, int replica) {
        held[cell(g, replica)] = false;
    }

    /** Forgets every value of group g. */
    void forgetGroup(int g) {
        int c = cell(g, 0);
        Arrays.fill(held, c, c + n, false);
    }

    /** Whether {@code replica} holds a value in group g. */
    boolean holds(int g, int replica) {
        return held[cell(g, replica)];
    }

    /** Whether {@code replica} holds a value about (id, slot) in group g, whatever its digest. */
    boolean holds(int g, int replica, long id, long slot) {
        int c = cell(g, replica);
        return held[c] && this.id[c] == id && this.slot[c] == slot;
    }

    /** The id of {@code replica}'s value in group g (which it must hold). */
    long id(int g, int replica) {
        return id[cell(g, replica)];
    }

    /** The slot of {@code replica}'s value in group g (which it must hold). */
    long slot(int g, int replica) {
        return slot[cell(g, replica)];
    }

    /** The digests, {@link #digestAt} giving where a cell's is: read only. */
    byte[] digests() {
        return digest;
    }

    /** Where {@code replica}'s digest in group g starts in {@link #digests}. */
    int digestAt(int g, int replica) {
        return cell(g, replica) * DIGEST_BYTES;
    }

    /** Whether {@code replica}'s value in group g is (id, slot, {@code d[at..]}). */
    boolean matches(int g, int replica, long id, long slot, byte[] d, int at) {
        int c = cell(g, replica);
        return held[c] && this.id[c] == id && this.slot[c] == slot
            && Arrays.equals(digest, c * DIGEST_BYTES, c * DIGEST_BYTES + DIGEST_BYTES, d, at, at + DIGEST_BYTES);
    }

    /** How many replicas other than {@code except} ({@link #NOBODY}: none left out) hold (id, slot, {@code d[at..]}). */
    int matching(int g, long id, long slot, byte[] d, int at, int except) {
        int count = 0;
        for (int q = 0; q < n; q++) {
            if (q != except && matches(g, q, id, slot, d, at)) {
                count++;
            }
        }
        return count;
    }

    /**
     * The first replica from {@code from} on, other than {@code except}, holding (id, slot, {@code d[at..]}) in group
     * g, or -1: {@code for (q = next(g, 0, ...); q >= 0; q = next(g, q + 1, ...))} walks them in replica order.
     */
    int next(int g, int from, long id, long slot, byte[] d, int at, int except) {
        for (int q = from; q < n; q++) {
            if (q != except && matches(g, q, id, slot, d, at)) {
                return q;
            }
        }
        return -1;
    }

    /** The first replica (in replica order) whose value in group g a quorum of values match, or -1. */
    int firstWithQuorum(int g) {
        for (int a = 0; a < n; a++) {
            int c = cell(g, a);
            if (held[c] && matching(g, id[c], slot[c], digest, c * DIGEST_BYTES, NOBODY) >= quorum) {
                return a;
            }
        }
        return -1;
    }

    /** The first replica (in replica order) whose value in group g is about {@code id} and a quorum match, or -1. */
    int firstWithQuorum(int g, long id) {
        for (int a = 0; a < n; a++) {
            int c = cell(g, a);
            if (held[c] && this.id[c] == id && matching(g, id, slot[c], digest, c * DIGEST_BYTES, NOBODY) >= quorum) {
                return a;
            }
        }
        return -1;
    }
}
