package org.ubft.sim.check;

import org.ubft.sim.cpu.ReplicaCpu;

import java.util.function.IntFunction;
import java.util.function.IntPredicate;

/**
 * Bounded CPU work per request: every correct replica verifies at most {@link #MAX_VERIFIES_PER_REQUEST} signatures
 * per request it executes, over the run after a warm-up ({@link #WARM_UP_NANOS}) and in every window of
 * {@link #WINDOW_NANOS} (plus a fixed {@link #WINDOW_ALLOWANCE} per window, for the window's view change, checkpoint
 * and summaries, which do not scale with requests, {@link #VIEW_CHANGE_ALLOWANCE} per view change and
 * {@link #CHECKPOINT_ALLOWANCE} per stable checkpoint the replica takes; over the run
 * also {@link #IDLE_ALLOWANCE_PER_MILLI} per millisecond per replica that may be Byzantine); and it
 * never finds more than {@link #MAX_CRYPTO_PER_CYCLE}
 * signature operations queued for one duty cycle ({@link ReplicaCpu#maxCryptoPerCycle()}: the crypto queue the
 * simulator can observe; the CTBcast crypto service's own queue is drained every cycle in the simulator). A Byzantine
 * replica that can make a correct one verify without bound (garbage signatures it need not sign) turns each
 * verification into 68 µs of CPU ({@link org.ubft.sim.cpu.CpuCosts}): this is the liveness of the real system under
 * such a flood, which the latency-only liveness checker sees only when the flood saturates the CPU.
 *
 * <p>Each replica is reported at most once per rule, with the numbers. Byzantine replicas are not held to it.
 */
public final class ResourceChecker implements Checker {
    public static final String NAME = "resources";
    /**
     * Verifications per executed request. What a correct run needs, per slot: on the slow path the f + 1 = 2 CERTIFY
     * shares of the others, the COMMITs' certificates (shares verified once each, the rest known), and CTBcast's
     * SIGNED copies (one per message of another broadcaster: the PREPARE and n - 1 COMMITs); per checkpoint (every W =
     * 32 slots) about 2 shares and the certificate's unknown ones; per summary (every t/2 = 8 messages of a stream)
     * the CERTIFY_SUMMARY shares and the SUMMARY's certificate; a client's signed retransmission one. So about 8 per
     * slot on the slow path, and batches hold 1 or more requests; the fast path needs none but checkpoints and
     * summaries. Measured per correct replica over every scenario of {@code Scenarios.ALL}, seeds 1-4, after the
     * warm-up: fast-path runs 0.1-1.5, slow-path runs (torn-reads, byz-silent-follower, register writers) 2.4-3.6,
     * runs with view changes up to 13.5 (leader-crash-restart: a replica that executes little after a view change).
     * 20 leaves room above that; a flood of garbage signatures costs hundreds.
     */
    public static final double MAX_VERIFIES_PER_REQUEST = 20;
    /**
     * What one window (and the run) may verify beyond {@link #MAX_VERIFIES_PER_REQUEST} per executed request: a view
     * change (a NEW_VIEW's f + 1 certificates of f + 1 shares, CRTFY_VCs, the SEAL_VIEWs' CTBcast SIGNEDs, a state
     * transfer's checkpoint certificate, the streams' summaries) verifies tens of signatures while executing nothing.
     * Measured: at most 107 beyond the per-request bound in one 10 ms window of a correct replica (ALL, seeds 1-4,
     * follower-crash-restart); 250 leaves room for two view changes in one window.
     */
    public static final long WINDOW_ALLOWANCE = 250;
    /**
     * Signature operations in one duty cycle. A correct replica's largest: the f + 1 certificates of a NEW_VIEW and
     * the SIGNEDs of a stream's retransmitted tail (t = 16 per stream) after a pause or gap. Measured: at most 50 (ALL,
     * seeds 1-4, byz-amnesiac-leader-fork); 128 = twice the CTBcast crypto service's capacity (64 tasks).
     */
    public static final long MAX_CRYPTO_PER_CYCLE = 128;
    /**
     * What each view change a replica goes through may verify besides (its NEW_VIEW's certificates, the CRTFY_VCs,
     * the SEAL_VIEWs' SIGNEDs): a Byzantine leader can force view changes, each of which costs every correct replica
     * tens of verifications while nothing executes. Measured: a window with one view change verified up to 107 beyond
     * the per-request bound (see {@link #WINDOW_ALLOWANCE}); 100 per view change.
     */
    public static final long VIEW_CHANGE_ALLOWANCE = 100;
    /**
     * What each stable checkpoint a replica takes may verify besides: the others' CERTIFY_CHECKPOINT shares (n - 1),
     * the shares of their CHECKPOINTs' certificates it has not verified as CERTIFY_CHECKPOINTs ((n - 1)(f + 1) at
     * most) and CTBcast's SIGNED of each CHECKPOINT (n - 1): 8 with n = 3. A replica catching up by state transfer
     * takes the cluster's checkpoints one after another while it executes nothing (follower-crash-restart-k4 seed 29:
     * 16 checkpoints, K = 4, 362 verifications and no request executed); 12 leaves room.
     */
    public static final long CHECKPOINT_ALLOWANCE = 12;
    /**
     * What each millisecond after the warm-up may verify besides, per replica that may be Byzantine (f of them): the
     * replica's per-sender budget ({@code VerificationBudget.PER_MILLI}) grants every sender one token per millisecond
     * so that a view change or state transfer never starves while nothing executes, and a flooding sender spends it
     * on garbage. So a flood costs at most this many verifications per millisecond (6.8% of a core at 68 µs each)
     * however few requests the run executes (adversary-random seed 5506: a Byzantine leader flooded a run that
     * executed 8 requests in 100 ms).
     */
    public static final long IDLE_ALLOWANCE_PER_MILLI = 1;
    /** The first part of a run, when replicas start and their first signatures are not per request. */
    public static final long WARM_UP_NANOS = 10_000_000;
    public static final long WINDOW_NANOS = 10_000_000;

    private final Violations violations;
    private final int n;
    private final IntFunction<ReplicaCpu> cpu;
    private final IntPredicate correct;
    private final long[] baseVerifies;
    private final long[] baseExecuted;
    private final long[] windowVerifies;
    private final long[] windowExecuted;
    private final long[] maxWindowExcess;
    private final boolean[] reportedWindow;
    private final boolean[] reportedCycle;
    private final long[] windowBusy;
    private final double[] maxBusyFraction;
    private final double[] verifiesPerRequest;
    private final long[] viewChanges;
    private final long[] windowViewChanges;
    private final long[] checkpoints;
    private final long[] windowCheckpoints;
    private boolean warm;
    private long warmStart;
    private long windowStart;

    public ResourceChecker(Violations violations, int n, IntFunction<ReplicaCpu> cpu, IntPredicate correct) {
        this.violations = violations;
        this.n = n;
        this.cpu = cpu;
        this.correct = correct;
        this.baseVerifies = new long[n];
        this.baseExecuted = new long[n];
        this.windowVerifies = new long[n];
        this.windowExecuted = new long[n];
        this.maxWindowExcess = new long[n];
        this.reportedWindow = new boolean[n];
        this.reportedCycle = new boolean[n];
        this.windowBusy = new long[n];
        this.maxBusyFraction = new double[n];
        this.verifiesPerRequest = new double[n];
        this.viewChanges = new long[n];
        this.windowViewChanges = new long[n];
        this.checkpoints = new long[n];
        this.windowCheckpoints = new long[n];
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void view(long time, int replica, long view) {
        if (warm && replica >= 0 && replica < n) {
            viewChanges[replica]++;
        }
    }

    @Override
    public void checkpoint(long time, int replica, long seq) {
        if (warm && replica >= 0 && replica < n) {
            checkpoints[replica]++;
        }
    }

    @Override
    public void tick(long time) {
        if (!warm) {
            if (time < WARM_UP_NANOS) {
                return;
            }
            warm = true;
            warmStart = windowStart = time;
            for (int i = 0; i < n; i++) {
                baseVerifies[i] = windowVerifies[i] = cpu.apply(i).verifies();
                baseExecuted[i] = windowExecuted[i] = cpu.apply(i).executed();
                windowBusy[i] = cpu.apply(i).busyNanos();
            }
            return;
        }
        for (int i = 0; i < n; i++) {
            ReplicaCpu c = cpu.apply(i);
            if (correct.test(i) && c.maxCryptoPerCycle() > MAX_CRYPTO_PER_CYCLE && !reportedCycle[i]) {
                reportedCycle[i] = true;
                violations.report(NAME, time, "replica-" + i + " found " + c.maxCryptoPerCycle()
                    + " signature operations queued for one duty cycle, over the bound " + MAX_CRYPTO_PER_CYCLE
                    + " (" + c + ")");
            }
        }
        if (time - windowStart >= WINDOW_NANOS) {
            for (int i = 0; i < n; i++) {
                endWindow(i, time);
                endBusyWindow(i, time, time - windowStart);
            }
            windowStart = time;
        }
    }

    private void endWindow(int i, long time) {
        ReplicaCpu c = cpu.apply(i);
        long verifies = c.verifies() - windowVerifies[i];
        long executed = c.executed() - windowExecuted[i];
        windowVerifies[i] = c.verifies();
        windowExecuted[i] = c.executed();
        long views = viewChanges[i] - windowViewChanges[i];
        windowViewChanges[i] = viewChanges[i];
        long cps = checkpoints[i] - windowCheckpoints[i];
        windowCheckpoints[i] = checkpoints[i];
        long excess = verifies - (long) Math.ceil(MAX_VERIFIES_PER_REQUEST * executed) - CHECKPOINT_ALLOWANCE * cps;
        maxWindowExcess[i] = Math.max(maxWindowExcess[i], excess);
        if (correct.test(i) && excess > WINDOW_ALLOWANCE + VIEW_CHANGE_ALLOWANCE * views && !reportedWindow[i]) {
            reportedWindow[i] = true;
            violations.report(NAME, time, "replica-" + i + " verified " + verifies + " signatures for " + executed
                + " executed requests in the " + WINDOW_NANOS / 1_000_000 + " ms to " + time + " ns: over "
                + MAX_VERIFIES_PER_REQUEST + " per request + " + WINDOW_ALLOWANCE + " + " + VIEW_CHANGE_ALLOWANCE + " x "
                + views + " view changes + " + CHECKPOINT_ALLOWANCE + " x " + cps + " checkpoints (" + c + ")");
        }
    }

    private void endBusyWindow(int i, long time, long length) {
        ReplicaCpu c = cpu.apply(i);
        double busy = (c.busyNanos() - windowBusy[i]) / (double) length;
        windowBusy[i] = c.busyNanos();
        maxBusyFraction[i] = Math.max(maxBusyFraction[i], busy);
    }

    /**
     * The largest share of a window replica {@code i} was busy (measured, not bounded: correct slow-path runs keep a
     * replica busy up to 99% of a window at the default Ed25519 costs, byz-register-writer, so a busy share tells a
     * flood from a slow path no better than the per-request rule does).
     */
    public double maxBusyFraction(int i) {
        return maxBusyFraction[i];
    }

    @Override
    public void finish(long time) {
        if (!warm) {
            return;
        }
        long idle = IDLE_ALLOWANCE_PER_MILLI * ((n - 1) / 2) * ((time - warmStart) / 1_000_000);
        for (int i = 0; i < n; i++) {
            ReplicaCpu c = cpu.apply(i);
            long verifies = c.verifies() - baseVerifies[i];
            long executed = c.executed() - baseExecuted[i];
            verifiesPerRequest[i] = verifies / (double) Math.max(1, executed);
            if (correct.test(i) && verifies > MAX_VERIFIES_PER_REQUEST * executed + WINDOW_ALLOWANCE
                + VIEW_CHANGE_ALLOWANCE * viewChanges[i] + CHECKPOINT_ALLOWANCE * checkpoints[i] + idle) {
                violations.report(NAME, time, "replica-" + i + " verified " + verifies + " signatures for " + executed
                    + " executed requests, " + viewChanges[i] + " view changes and " + checkpoints[i]
                    + " checkpoints after the warm-up ("
                    + String.format(java.util.Locale.ROOT, "%.1f", verifiesPerRequest[i]) + " per request, bound "
                    + MAX_VERIFIES_PER_REQUEST + " + " + WINDOW_ALLOWANCE + " + " + VIEW_CHANGE_ALLOWANCE
                    + " per view change + " + CHECKPOINT_ALLOWANCE + " per checkpoint + " + idle
                    + " for the run's time)");
            }
        }
    }

    /** Replica {@code i}'s verifications per executed request after the warm-up (set by {@link #finish}). */
    public double verifiesPerRequest(int i) {
        return verifiesPerRequest[i];
    }

    /** The most verifications beyond the per-request bound in one window of replica {@code i}. */
    public long maxWindowExcess(int i) {
        return maxWindowExcess[i];
    }
}
