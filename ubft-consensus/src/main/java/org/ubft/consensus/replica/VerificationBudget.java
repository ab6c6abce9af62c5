package org.ubft.consensus.replica;

import java.util.Arrays;

/**
 * How many signature operations each sender may cause at this replica: a token bucket per replica and per client.
 * A verification (or a signature made on a peer's behalf, the CRTFY_VC its SEAL_VIEW asks for) takes a token from
 * the sender of the message that needs it (for a relayed certificate, the relayer); without one the message is
 * dropped and counted ({@link ReplicaCounters.Drop#OVER_BUDGET}). So a flooding peer slows only itself: the others'
 * buckets are untouched, and a correct replica never verifies more than {@link #perSlot} signatures per executed
 * slot and sender, plus a bounded burst, {@link #perView} per view it enters and {@value #PER_MILLI} per millisecond
 * (liveness while nothing is executed: before GST, during a view change).
 *
 * <p>Why a correct sender never runs out (the sizes, from the paper's message pattern): per slot a replica sends at
 * most one CERTIFY (Algorithm 2, line 22) and one COMMIT whose f+1 shares are mostly known already (Algorithm 2, line
 * 36), per K slots (K divides W, at least 1) one CERTIFY-CHECKPOINT and one CHECKPOINT of f+1 shares mostly known
 * already (lines 47, 61); per view change one
 * SEAL_VIEW, one CRTFY_VC per subject to the leader, one NEW_VIEW of f+1 certificates of f+1 shares plus their
 * checkpoint certificates and a re-proposed window (Algorithm 3); a SUMMARY or a gap's held messages at most t at
 * once (Algorithm 4). {@link #perSlot} is twice the per-slot need, the cap covers a window and a tail of COMMITs at
 * once plus a NEW_VIEW.
 *
 * <p>A replica whose signature failed its check here ({@link #provedFaulty}) is Byzantine beyond doubt: a correct
 * replica signs each statement it sends and relays only shares it verified, and every statement is built from the
 * message's own bytes, so a correct sender's signatures always verify (so is one that certified another PREPARE than
 * the one accepted here, {@code SlowPath.onCertify}: Observation 3). Its tokens are forfeited and its cap drops to
 * {@link #perSlot}: the burst a correct sender may need at a view change (up to W CERTIFYs at once) is no longer
 * there for its forgeries (byz-signature-burst-late-checkers: bursts of 96 forged CERTIFYs every millisecond with W =
 * 256 spent each correct replica's cap of about 1,300 checks and the view's 527 more after each view change it caused,
 * and the cluster stopped). What it may still cause is the steady rate: {@link #perSlot} per executed slot. What it
 * costs: help a Byzantine replica gave is refused once it is proved (adversary-mixed seed 39, whose correct leader
 * paused before GST while only the proved replica's shares could complete slots, served 21 requests instead of 66).
 */
final class VerificationBudget {
    /** Tokens every sender gains per millisecond of this replica's clock. */
    static final long PER_MILLI = 1;

    private final long cap;
    private final long perSlot;
    private final long perView;
    private final long[] tokens;
    /** Per source: {@link #credit} when its tokens were last brought up to date (credit is added lazily). */
    private final long[] seen;
    private final long[] spent;
    private final long[] refused;
    /** Per replica: whether a signature it sent failed its check here. */
    private final boolean[] provedFaulty;
    /** Per broadcaster: the bucket of its CTBcast stream's SIGNED checks ({@link #takeStream}). */
    private final long[] streamTokens;
    private final long[] streamSeen;
    private final long[] streamRefused;
    /** Tokens every source has been given so far, beyond the cap it started with. */
    private long credit;
    private long lastRefill;
    private long total;

    /**
     * @param n       replicas (sources 0 .. n-1); clients are sources n .. n + clients - 1
     * @param clients clients
     */
    VerificationBudget(int n, int clients, int f, int window, int tail, long now) {
        int quorum = f + 1;
        this.perSlot = 2L * (quorum + 2);
        this.perView = (long) window * quorum + 2L * quorum * (quorum + 1) + n;
        this.cap = (long) (window + tail) * quorum + perView;
        int sources = n + clients;
        this.tokens = new long[sources];
        this.seen = new long[sources];
        this.spent = new long[sources];
        this.refused = new long[sources];
        Arrays.fill(tokens, cap);
        this.provedFaulty = new boolean[n];
        this.streamTokens = new long[n];
        this.streamSeen = new long[n];
        this.streamRefused = new long[n];
        Arrays.fill(streamTokens, cap);
        this.lastRefill = now;
    }

    /** Takes one token of {@code source} (negative: this replica's own doing, never refused). */
    boolean take(int source, long now) {
        return take(source, now, 1);
    }

    /**
     * Takes {@code count} tokens of {@code source} at once, or none (then counted refused): a message whose
     * verifications the sender's tokens cannot all cover is refused whole, so that its retries find the tokens
     * saved up. Taken one at a time, a certificate of f+1 shares asked for again and again by a replica that
     * executes nothing (its tokens come at {@value #PER_MILLI} per ms) spent each new token on its first share and
     * was refused at its second, for good (PausesTest LEADER_THEN_FOLLOWER: the lagging replica's SUMMARYs).
     */
    boolean take(int source, long now, int count) {
        if (source < 0) {
            total += count;
            return true;
        }
        refill(now);
        long t = Math.min(capOf(source), tokens[source] + (credit - seen[source]));
        seen[source] = credit;
        tokens[source] = t;
        if (t < count) {
            refused[source]++;
            return false;
        }
        tokens[source] = t - count;
        spent[source] += count;
        total += count;
        return true;
    }

    /**
     * Takes a token of broadcaster {@code broadcaster} for a check of a SIGNED of its CTBcast stream (CTBcast's slow
     * path): a bucket of its own per broadcaster, of the same size and credit as the consensus one (a correct
     * broadcaster CTBcasts at most a PREPARE and a COMMIT per slot, a CHECKPOINT per K slots, a SEAL_VIEW and a NEW_VIEW
     * per view, and a SIGNED's register reads check at most n more values), so that a broadcaster that withholds its
     * LOCKs and floods its stream delays only its own stream's slow path here.
     */
    boolean takeStream(int broadcaster, long now) {
        refill(now);
        long t = Math.min(cap, streamTokens[broadcaster] + (credit - streamSeen[broadcaster]));
        streamSeen[broadcaster] = credit;
        if (t < 1) {
            streamTokens[broadcaster] = t;
            streamRefused[broadcaster]++;
            return false;
        }
        streamTokens[broadcaster] = t - 1;
        return true;
    }

    /** SIGNED checks postponed for {@code broadcaster} for want of tokens ({@link #takeStream}). */
    long streamRefused(int broadcaster) {
        return streamRefused[broadcaster];
    }

    private long capOf(int source) {
        return source < provedFaulty.length && provedFaulty[source] ? perSlot : cap;
    }

    /**
     * A signature replica {@code replica} sent (its own, or a share it relayed) failed its check: it is Byzantine. Its
     * tokens are forfeited and its cap is {@link #perSlot} from now on (the class comment).
     */
    void provedFaulty(int replica, long now) {
        if (replica < 0 || replica >= provedFaulty.length) {
            return;
        }
        refill(now);
        provedFaulty[replica] = true;
        tokens[replica] = 0;
        seen[replica] = credit;
    }

    /** Whether a signature replica {@code replica} sent failed its check here ({@link #provedFaulty(int, long)}). */
    boolean provedFaulty(int replica) {
        return replica >= 0 && replica < provedFaulty.length && provedFaulty[replica];
    }

    /** This replica executed a slot: every sender may cause {@link #perSlot} more. */
    void slotExecuted() {
        credit += perSlot;
    }

    /** This replica entered a view, or caught up by state transfer. */
    void progressed() {
        credit += perView;
    }

    private void refill(long now) {
        long millis = (now - lastRefill) / 1_000_000;
        if (millis > 0) {
            lastRefill += millis * 1_000_000;
            credit += Math.min(cap, millis * PER_MILLI);
        }
    }

    /** Signature operations {@code source} caused here. */
    long spent(int source) {
        return spent[source];
    }

    /** Operations refused to {@code source} for want of tokens. */
    long refused(int source) {
        return refused[source];
    }

    /** Every signature verification (and peer-caused signature) made here. */
    long total() {
        return total;
    }

    long cap() {
        return cap;
    }

    long perSlot() {
        return perSlot;
    }
}
