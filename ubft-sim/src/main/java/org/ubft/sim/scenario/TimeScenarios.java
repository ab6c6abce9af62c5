package org.ubft.sim.scenario;

import org.ubft.sim.ReplicaBehaviour;
import org.ubft.sim.SimCluster;
import org.ubft.sim.byzantine.LyingClockLeader;

import java.util.List;
import java.util.SplittableRandom;

import static org.ubft.sim.scenario.Scenarios.AFTER_GST;
import static org.ubft.sim.scenario.Scenarios.LIVENESS_BOUND;
import static org.ubft.sim.scenario.Scenarios.MS;

/**
 * Replicated time (docs/design.md, "Replicated time"): the replicas' clocks are virtual time plus a skew per replica
 * ({@link SimCluster#clockSkew}), and the replicated-time checker holds every correct replica to one time per request,
 * never going back and never past the latest correct clock plus {@code consensus.time.bound.ms} (1000 ms here).
 * <ul>
 *   <li>{@code clock-skew}: every replica correct, clocks skewed at random within the bound (any two differ by less
 *       than it), a follower's clock lagging the most: every correct leader's batch must be accepted;</li>
 *   <li>{@code clock-skew-leader-crash}: the same, and the leader of view 0 crashes: the next leader's clock is
 *       behind or ahead of the time its predecessor executed;</li>
 *   <li>{@code byz-clock-*}: the leader of view 0 lies about time from {@value ByzantineScenarios#ATTACK_MS} ms on
 *       ({@link LyingClockLeader}); followers refuse what goes back or runs ahead, the view changes, and a frozen
 *       time (within the rule) is accepted.</li>
 * </ul>
 */
public final class TimeScenarios {
    /** The followers' clock skews are drawn within this (the bound is 1000 ms): any two differ by less than it. */
    static final long MAX_SKEW_MS = 450;

    private TimeScenarios() {
    }

    /** Skews every replica's clock at random in [-MAX_SKEW_MS, MAX_SKEW_MS], one follower at the lowest. */
    static void skewClocks(SimCluster c, SplittableRandom r) {
        int n = c.cluster().n();
        for (int i = 0; i < n; i++) {
            c.clockSkew(i, r.nextLong(-MAX_SKEW_MS, MAX_SKEW_MS + 1));
        }
        c.clockSkew(1 + r.nextInt(n - 1), -MAX_SKEW_MS); // a follower lagging as far as the assumption allows
        c.clockSkew(0, MAX_SKEW_MS); // and the first leader ahead as far
    }

    public static final Scenario CLOCK_SKEW = Scenario.of("clock-skew",
        "every replica correct, clocks skewed by up to 450 ms either way (the leader of view 0 450 ms ahead, a follower"
            + " 450 ms behind; bound 1000 ms): every batch is accepted, one replicated time per request", (c, r) -> {
            Faults.synchronous(c, r);
            skewClocks(c, r);
            long gst = 0;
            return new Plan(gst, gst + AFTER_GST + LIVENESS_BOUND, LIVENESS_BOUND);
        });

    public static final Scenario CLOCK_SKEW_LEADER_CRASH = Scenario.of("clock-skew-leader-crash",
        "as clock-skew, and the leader of view 0 (the clock 450 ms ahead) crashes at 5-15 ms: the next leader's clock is"
            + " behind the time executed, which stands still until its clock passes it", (c, r) -> {
            Faults.synchronous(c, r);
            skewClocks(c, r);
            long at = 5 * MS + r.nextLong(10 * MS);
            Faults.crashReplica(c, 0, at);
            return new Plan(at, at + AFTER_GST + LIVENESS_BOUND, LIVENESS_BOUND);
        });

    private static Scenario lying(LyingClockLeader.Mode mode, String what) {
        String name = "byz-clock-" + mode.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
        long from = ByzantineScenarios.ATTACK_MS * MS;
        return Scenario.of(name, "the leader of view 0 stamps " + what + " into its batches from 5 ms on (clocks skewed"
            + " within the bound)", (c, r) -> {
                Faults.synchronous(c, r);
                skewClocks(c, r);
                return new Plan(from, from + AFTER_GST + LIVENESS_BOUND, LIVENESS_BOUND);
            }).withBehaviours(() -> new ReplicaBehaviour[] {new LyingClockLeader(mode, from)});
    }

    public static final Scenario BACKWARDS = lying(LyingClockLeader.Mode.BACKWARDS,
        "a time an hour before its first (backwards): refused, the view changes");
    public static final Scenario FAR_AHEAD = lying(LyingClockLeader.Mode.FAR_AHEAD,
        "a time an hour ahead of its clock: refused (no key expires early), the view changes");
    public static final Scenario MAX = lying(LyingClockLeader.Mode.MAX, "Long.MAX_VALUE: refused, the view changes");
    public static final Scenario FROZEN = lying(LyingClockLeader.Mode.FROZEN,
        "its first time again and again (equal to the last): accepted, time stands still while it leads");
    public static final Scenario JUST_PAST_BOUND = lying(LyingClockLeader.Mode.JUST_PAST_BOUND,
        "its clock plus the bound plus 50 ms: refused by the followers whose clocks are not that far ahead");
    public static final Scenario MIXED = lying(LyingClockLeader.Mode.MIXED,
        "one of backwards, an hour ahead, Long.MAX_VALUE, frozen or just past the bound per batch");

    /** Every replicated-time scenario (all in {@code ubft sim --scenario all}). */
    public static final List<Scenario> ALL = List.of(CLOCK_SKEW, CLOCK_SKEW_LEADER_CRASH, BACKWARDS, FAR_AHEAD, MAX,
        FROZEN, JUST_PAST_BOUND, MIXED);
}
