package org.ubft.sim.scenario;

import org.ubft.sim.SimCluster;
import org.ubft.sim.SimOptions;
import org.ubft.sim.byzantine.RandomAdversary;
import org.ubft.sim.byzantine.RandomClient;

import java.util.SplittableRandom;

import static org.ubft.sim.scenario.Faults.between;
import static org.ubft.sim.scenario.Scenarios.AFTER_GST;
import static org.ubft.sim.scenario.Scenarios.LIVENESS_BOUND;
import static org.ubft.sim.scenario.Scenarios.MS;

/**
 * Randomized adversarial schedules: each seed draws one Byzantine replica and its strategy ({@link RandomAdversary}:
 * silence, forgery, field mutation, signature flood, equivocation, conflicting or duplicate proposals, omniscient
 * silence at a view change, amnesia that forgets or forks) and combines it with faults within the tolerance before
 * GST: lossy links with long delays, a partition of the replicas, a pause of a correct replica, crashes of up to f_m
 * memory nodes; the key-value workload (checked for linearizability) in half the runs. Safety always, and liveness
 * within {@link Scenarios#LIVENESS_BOUND} of GST.
 */
public final class AdversaryScenarios {
    private AdversaryScenarios() {
    }

    public static final Scenario RANDOM = Scenario.of("adversary-random",
        "a Byzantine replica and strategy drawn from the seed (RandomAdversary), with lossy links, a replica partition, a"
            + " correct replica's pause and f_m memory-node crashes drawn too, before GST (10-40 ms); kv workload in half",
        (c, r) -> plan(c, r, Mode.CLASSIC))
        .withOptions(r -> r.nextBoolean() ? SimOptions.defaults().withKv(4 + r.nextInt(5)) : SimOptions.defaults())
        .withBehaviours(() -> new RandomAdversary(3).slots());

    /**
     * {@link #RANDOM}'s faults with a Byzantine client too: client 0 runs a strategy drawn from its seed
     * ({@link RandomClient}: a hole in its request numbers, replays, equivocation, leader-only requests) from the
     * attack's start, and the replica's strategy is drawn from every {@link RandomAdversary.Kind}, among them a replica
     * that complains about every view ({@link RandomAdversary#chooseAny}): attacks that need a client and a replica
     * together, such as the view churn of a client's hole in its numbers with a complaining replica. Client 1 must stay
     * live. The flip workload only (a Byzantine client's operations are not a linearizable history to check).
     */
    public static final Scenario MIXED = Scenario.of("adversary-mixed",
        "adversary-random's faults and a Byzantine replica drawn from every strategy (a replica that always complains"
            + " too), with client 0 Byzantine (RandomClient: a hole in its numbers, replays, equivocation or leader-only"
            + " requests)", (c, r) -> plan(c, r, Mode.MIXED))
        .withBehaviours(() -> new RandomAdversary(3).slots())
        .withClientBehaviours(() -> new org.ubft.sim.ClientBehaviour[] {new RandomClient(2 * MS)});

    /**
     * {@link #RANDOM}'s faults with a Byzantine replica that refuses a random set of the others' connections (their
     * fabrics report it lost) while it is silent, floods, forges or mutates ({@link RandomAdversary#chooseRefusing}):
     * consensus's Absence must hold a sending peer present and a silent one absent, under lossy links, partitions,
     * pauses and memory-node crashes.
     */
    public static final Scenario REFUSING = Scenario.of("adversary-refusing",
        "adversary-random's faults, and a Byzantine replica that refuses a random set of the others' connections"
            + " (their fabrics report it lost) while silent, flooding, forging or mutating",
        (c, r) -> plan(c, r, Mode.REFUSING))
        .withOptions(r -> r.nextBoolean() ? SimOptions.defaults().withKv(4 + r.nextInt(5)) : SimOptions.defaults())
        .withBehaviours(() -> new RandomAdversary(3).slots());

    private enum Mode { CLASSIC, MIXED, REFUSING }

    private static Plan plan(SimCluster c, SplittableRandom r, Mode mode) {
        int n = c.cluster().n();
        long gst = between(r, 10 * MS, 40 * MS);
        if (r.nextBoolean()) {
            Faults.asynchronousUntil(c, gst, r, 100_000, 0.2);
        } else {
            Faults.synchronous(c, r);
        }
        RandomAdversary adversary = ((RandomAdversary.Slot) c.behaviour(0)).adversary();
        long from = between(r, 2 * MS, 8 * MS);
        RandomAdversary.Kind kind = switch (mode) {
            case MIXED -> adversary.chooseAny(r, from);
            case REFUSING -> adversary.chooseRefusing(r, from);
            default -> adversary.choose(r, from);
        };
        int byz = adversary.chosenSlot();
        if (kind == RandomAdversary.Kind.AMNESIAC_FORGETS || kind == RandomAdversary.Kind.AMNESIAC_FORKS) {
            long crash = between(r, from, Math.max(from, gst - 4 * MS));
            Faults.snapshotDisk(c, byz, between(r, 0, crash));
            Faults.crashReplica(c, byz, crash);
            Faults.restartReplica(c, byz, crash + between(r, MS, 3 * MS),
                ((org.ubft.sim.byzantine.Amnesiac) adversary.chosen()).disk());
        }
        if (r.nextInt(3) == 0) { // a partition of the replicas before GST: one replica on its own
            int alone = r.nextInt(n);
            int[] others = new int[n - 1];
            for (int i = 0, j = 0; i < n; i++) {
                if (i != alone) {
                    others[j++] = i;
                }
            }
            Faults.replicaPartition(c, between(r, 0, gst), new int[][] {{alone}, others});
            Faults.healAll(c, gst);
        }
        if (r.nextInt(3) == 0) { // a correct replica stops running for a while before GST
            int paused = (byz + 1 + r.nextInt(n - 1)) % n;
            long at = between(r, 0, gst);
            Faults.pauseReplica(c, paused, at, Math.max(1, gst - at));
        }
        if (r.nextBoolean()) { // up to f_m memory nodes crash for good
            int crashes = 1 + r.nextInt(c.cluster().fm());
            int first = r.nextInt(c.cluster().memnodeCount());
            for (int k = 0; k < crashes; k++) {
                Faults.crashMemnode(c, (first + k) % c.cluster().memnodeCount(), between(r, 0, gst));
            }
        }
        return new Plan(gst, gst + AFTER_GST + LIVENESS_BOUND, LIVENESS_BOUND);
    }
}
