package org.ubft.sim.scenario;

import org.ubft.consensus.replica.ReplicaConfig;
import org.ubft.sim.SimOptions;
import org.ubft.sim.cpu.CpuCosts;

import java.util.List;
import java.util.stream.Stream;

import static org.ubft.sim.scenario.Faults.between;

/**
 * The named scenarios of {@code ubft sim}. Times are virtual; every choice (which replica, when, how long, how lossy)
 * is drawn from the run's seed. Each run lasts until GST + {@link #LIVENESS_BOUND} + a margin, clients submitting
 * until GST + a margin, and checks agreement, validity, no duplicate execution, bounded memory and (all of these
 * scenarios stay within f = 1 and f_m = 1) liveness after GST.
 */
public final class Scenarios {
    public static final long MS = 1_000_000L;
    /** Every request outstanding at GST or submitted later must be accepted within this. */
    public static final long LIVENESS_BOUND = 80 * MS;
    /** Time after GST during which clients keep submitting. */
    public static final long AFTER_GST = 20 * MS;

    private Scenarios() {
    }

    private static Plan plan(long gst) {
        return new Plan(gst, gst + AFTER_GST + LIVENESS_BOUND, LIVENESS_BOUND);
    }

    public static final Scenario ALL_CORRECT = Scenario.of("all-correct",
        "no faults, bounded random latency", (c, r) -> {
            Faults.synchronous(c, r);
            return plan(between(r, 0, 10 * MS));
        });

    public static final Scenario LOSSY_BEFORE_GST = Scenario.of("lossy-before-gst",
        "until GST (10-40 ms) a third of the links drop up to 20% of the operations and delays have an exponential tail"
            + " (mean up to 100 us); bounded delays and no loss after", (c, r) -> {
            long gst = between(r, 10 * MS, 40 * MS);
            Faults.asynchronousUntil(c, gst, r, 100_000, 0.2);
            return plan(gst);
        });

    public static final Scenario PARTITION_LEADER = Scenario.of("partition-leader",
        "the leader of view 0 is cut off from the other replicas (clients still reach it) at 2-15 ms, healed at GST"
            + " 5-40 ms later", (c, r) -> {
            Faults.synchronous(c, r);
            long from = between(r, 2 * MS, 15 * MS);
            long gst = from + between(r, 5 * MS, 40 * MS);
            Faults.isolateReplica(c, 0, from, gst);
            return plan(gst);
        });

    public static final Scenario LEADER_CRASH = Scenario.of("leader-crash",
        "the leader of view 0 crashes at 2-30 ms (GST) and stays down", (c, r) -> {
            Faults.synchronous(c, r);
            long at = between(r, 2 * MS, 30 * MS);
            Faults.crashReplica(c, 0, at);
            return plan(at);
        });

    /**
     * {@link #LEADER_CRASH} with a wide window (W = 128, t = 64): by the crash up to about 120 slots were decided since
     * the checkpoint, and the seal promised a CERTIFY for each. Signed in one duty cycle, with the peer's CERTIFYs
     * checked in the same cycle, they went over the simulator's per-cycle bound of 128 signature operations; the seal
     * now signs at most {@code SlowPath.BULK_CERTIFIES_PER_CYCLE} per duty cycle. The deployed window (W = 256) is
     * {@link #LEADER_CRASH_DEPLOYED_WINDOW}.
     */
    public static final Scenario LEADER_CRASH_WIDE_WINDOW = LEADER_CRASH
        .withOptions(r -> SimOptions.defaults().withWindowAndTail(128, 64)).named("leader-crash-w128")
        .described("the leader of view 0 crashes at 2-30 ms (GST) and stays down, W = 128 and t = 64: the seal"
            + " promised CERTIFYs for up to about 120 slots");

    /**
     * {@link #LEADER_CRASH} with the deployed window and tail (W = 256, t = 128, conf/local-*.properties): up to about
     * 240 slots since the checkpoint at the crash. The resource checker found a sealing follower asking its peer for
     * the shares of every promised slot at once, and the peer signing a CERTIFY for each request in one duty cycle
     * (96 of them, 130-131 signature operations in one cycle, over the bound of 128, in 4 of 20 seeds); the answers
     * now share the seal's allowance ({@code SlowPath.BULK_CERTIFIES_PER_CYCLE}): at most 100 in seeds 1-40.
     */
    public static final Scenario LEADER_CRASH_DEPLOYED_WINDOW = LEADER_CRASH
        .withOptions(r -> SimOptions.defaults().withWindowAndTail(256, 128)).named("leader-crash-w256")
        .described("the leader of view 0 crashes at 2-30 ms (GST) and stays down, W = 256 and t = 128 as deployed:"
            + " the seal promised CERTIFYs for up to about 240 slots");

    /**
     * {@link #LEADER_CRASH_DEPLOYED_WINDOW} with late checking workers ({@link SimOptions#withLateCheckers}): each
     * follower's paced seal sends its peer up to 32 CERTIFYs in a duty cycle, past the peer's checking queue of 16
     * (on real processes with a worker: 113-181 dropped per kill before {@code Verdict.CHECK_HERE}); the overflow is
     * checked on the agent thread, the view change completes.
     */
    public static final Scenario LEADER_CRASH_LATE_CHECKERS = LEADER_CRASH
        .withOptions(r -> SimOptions.defaults().withWindowAndTail(256, 128).withLateCheckers())
        .named("leader-crash-late-checkers")
        .described("the leader of view 0 crashes at 2-30 ms (GST) and stays down, W = 256, the peers' checking"
            + " workers run only between duty cycles: the seal's CERTIFYs overflow their queues");

    public static final Scenario FOLLOWER_CRASH_RESTART = Scenario.of("follower-crash-restart",
        "a follower crashes at 2-20 ms and restarts with empty state 2-20 ms later (GST); it catches up by state"
            + " transfer", (c, r) -> {
            Faults.synchronous(c, r);
            int follower = 1 + r.nextInt(c.cluster().n() - 1);
            long at = between(r, 2 * MS, 20 * MS);
            long back = at + between(r, 2 * MS, 20 * MS);
            Faults.crashReplica(c, follower, at);
            Faults.restartReplica(c, follower, back);
            return plan(back);
        });

    /**
     * The leader crashes and comes back (its own-stream log says it led view 0, so it proposes nothing more there): the
     * followers must move to a view with another leader, and the restarted replica must take part.
     */
    public static final Scenario LEADER_CRASH_RESTART = Scenario.of("leader-crash-restart",
        "the leader of view 0 crashes at 2-20 ms and restarts 1-10 ms later (GST), empty but for its own-stream log;"
            + " it proposes nothing more in view 0, the others change view", (c, r) -> {
            Faults.synchronous(c, r);
            long at = between(r, 2 * MS, 20 * MS);
            long back = at + between(r, 1 * MS, 10 * MS);
            Faults.crashReplica(c, 0, at);
            Faults.restartReplica(c, 0, back);
            return plan(back);
        });

    public static final Scenario REPLICA_PAUSE = Scenario.of("replica-pause",
        "one replica (leader or follower) stops running for 1-40 ms at 2-20 ms, as in a long GC pause; GST when it"
            + " resumes", (c, r) -> {
            Faults.synchronous(c, r);
            int replica = r.nextInt(c.cluster().n());
            long at = between(r, 2 * MS, 20 * MS);
            long duration = between(r, MS, 40 * MS);
            Faults.pauseReplica(c, replica, at, duration);
            return plan(at + duration);
        });

    public static final Scenario MEMNODE_CRASH = Scenario.of("memnode-crash",
        "f_m memory nodes crash at 0-20 ms; a follower crashes at 5-25 ms, so CTBcast and consensus take their slow"
            + " paths, which read and write the registers on the remaining memory nodes (GST at the later crash)",
        (c, r) -> {
            Faults.synchronous(c, r);
            int memnodes = c.cluster().memnodeCount();
            int first = r.nextInt(memnodes);
            long last = 0;
            for (int k = 0; k < c.cluster().fm(); k++) {
                long at = between(r, 0, 20 * MS);
                Faults.crashMemnode(c, (first + k) % memnodes, at);
                last = Math.max(last, at);
            }
            int follower = 1 + r.nextInt(c.cluster().n() - 1);
            long crash = between(r, 5 * MS, 25 * MS);
            Faults.crashReplica(c, follower, crash);
            return plan(Math.max(last, crash));
        });

    public static final Scenario TORN_READS = Scenario.of("torn-reads",
        "every multi-word WRITE is torn with probability 0.2-0.5 (READs within up to 5 us see a mix of old and new"
            + " words); a follower crashes at 2-20 ms (GST) so that the slow paths read registers; replicas start on"
            + " the slow path", (c, r) -> {
            Faults.synchronous(c, r);
            c.network().tornWrites(0.2 + 0.3 * r.nextDouble(), 1 + r.nextLong(5_000));
            int follower = 1 + r.nextInt(c.cluster().n() - 1);
            long at = between(r, 2 * MS, 20 * MS);
            Faults.crashReplica(c, follower, at);
            return plan(at);
        }).withOptions(r -> SimOptions.defaults().withPath(ReplicaConfig.Path.SLOW));

    public static final Scenario LOSSY_FOLLOWER_CRASH = Scenario.of("lossy-follower-crash",
        "lossy-before-gst's network until GST (10-40 ms), and a follower crashes at 2-40 ms and stays down",
        (c, r) -> {
            long gst = between(r, 10 * MS, 40 * MS);
            Faults.asynchronousUntil(c, gst, r, 100_000, 0.2);
            int follower = 1 + r.nextInt(c.cluster().n() - 1);
            long at = between(r, 2 * MS, 40 * MS);
            Faults.crashReplica(c, follower, at);
            return plan(Math.max(gst, at));
        });

    /**
     * A follower paused past its tail comes back just as its partner crashes. It used to need up to 300 ms (10 of
     * seeds 1-20 missed the usual 80 ms bound): its state transfer asked the crashed partner first and waited out the
     * transfer's 50 ms request timeout, and the two survivors, each timing out, ended in different views (one in the
     * view of the dead replica, whose complaint the other, already past it, never sent). Now the fetch asks the
     * replica that showed the checkpoint, and a replica in a higher view counts as a complaint about the lower ones.
     *
     * <p>Runs without CPU costs ({@link CpuCosts#FREE}): with the default Ed25519 costs the timing shifts and seed 5
     * (LaggingFollowerRecoveryTest) loses liveness again: the lagging follower holds the checkpoint at 32 but fetches
     * its state for more than 100 ms (the survivors execute nothing from GST at 20 ms until about 150 ms, when the
     * fetch completes and the view changes). {@link #LAGGING_FOLLOWER_PARTNER_CRASH_CPU} is the same schedule with the
     * costs.
     */
    public static final Scenario LAGGING_FOLLOWER_PARTNER_CRASH = Scenario.of("lagging-follower-partner-crash",
        "a follower stops for 5-30 ms at 2-10 ms (past its CTBcast tail of 16: it comes back behind gaps while the"
            + " leader and the other follower decided without it), the other follower crashes just before it resumes"
            + " (GST): the lagging one must catch up and decide with the leader alone",
        (c, r) -> {
            Faults.synchronous(c, r);
            int lagging = 1 + r.nextInt(c.cluster().n() - 1);
            int partner = lagging == 1 ? 2 : 1;
            long at = between(r, 2 * MS, 10 * MS);
            long duration = between(r, 5 * MS, 30 * MS);
            Faults.pauseReplica(c, lagging, at, duration);
            Faults.crashReplica(c, partner, at + duration - between(r, 0, MS));
            return plan(at + duration);
        }).withOptions(r -> SimOptions.defaults().withCpu(CpuCosts.FREE));

    /** The key-value workload on 4-8 keys (from the seed): operations on a key conflict often. */
    private static SimOptions kv(java.util.SplittableRandom r) {
        return SimOptions.defaults().withKv(4 + r.nextInt(5));
    }

    /** {@code scenario} with the key-value workload, so that the linearizability checker runs too. */
    private static Scenario kv(Scenario scenario) {
        return scenario.withOptions(Scenarios::kv).named("kv-" + scenario.name())
            .described("key-value workload on 4-8 keys, checked for linearizability; " + scenario.description());
    }

    public static final Scenario KV_ALL_CORRECT = kv(ALL_CORRECT);
    public static final Scenario KV_LEADER_CRASH = kv(LEADER_CRASH);
    public static final Scenario KV_LOSSY_BEFORE_GST = kv(LOSSY_BEFORE_GST);
    public static final Scenario KV_FOLLOWER_CRASH_RESTART = kv(FOLLOWER_CRASH_RESTART);

    /**
     * {@code scenario} with the Redis workload on 4 or 6 keys (from the seed): the replicas run the key-value store's
     * KvMachine on replicated time, the clients send SET (EX, PX, NX, XX), GET, DEL, INCR, APPEND, (P)EXPIRE, (P)TTL,
     * MSET and MGET with expiry periods of a few milliseconds, checked for linearizability with expiry
     * ({@code RedisLinearizabilityChecker}).
     */
    private static Scenario redis(Scenario scenario) {
        return scenario.withOptions(r -> SimOptions.defaults().withRedis(4 + 2 * r.nextInt(2)))
            .named("kv-redis-" + scenario.name())
            .described("Redis workload with expiry on 4-6 keys, checked for linearizability on replicated time; "
                + scenario.description());
    }

    public static final Scenario KV_REDIS_ALL_CORRECT = redis(ALL_CORRECT);
    public static final Scenario KV_REDIS_LEADER_CRASH = redis(LEADER_CRASH);
    public static final Scenario KV_REDIS_FOLLOWER_CRASH_RESTART = redis(FOLLOWER_CRASH_RESTART);
    public static final Scenario KV_REDIS_CLOCK_SKEW = redis(TimeScenarios.CLOCK_SKEW_LEADER_CRASH);
    public static final Scenario KV_REDIS_BYZ_CLOCK = redis(TimeScenarios.MIXED);

    /**
     * A follower's crash and restart, then the leader's crash: the restarted replica must go on with its own CTBcast
     * stream (its log) and hear the others' streams again, or the view change never completes.
     *
     * <p>Runs without CPU costs ({@link CpuCosts#FREE}): with the default costs seed 10 (RestartedReplicaStreamTest)
     * executed nothing after GST within the 80 ms bound ({@link #RESTART_THEN_LEADER_CRASH_CPU}, in {@link #ALL} since
     * the liveness fixes of the adversary sweeps; seed 3 did too until CRTFY_VCs were sent again while a view waits for
     * its NEW_VIEW).
     */
    public static final Scenario RESTART_THEN_LEADER_CRASH = Scenario.of("restart-then-leader-crash",
        "a follower crashes at 2-10 ms and restarts 2-10 ms later, empty but for its own-stream log; the leader of"
            + " view 0 crashes 10-30 ms after the restart (GST): the restarted replica and the other follower must go"
            + " on together",
        (c, r) -> {
            Faults.synchronous(c, r);
            int follower = 1 + r.nextInt(c.cluster().n() - 1);
            long at = between(r, 2 * MS, 10 * MS);
            long back = at + between(r, 2 * MS, 10 * MS);
            long leader = back + between(r, 10 * MS, 30 * MS);
            Faults.crashReplica(c, follower, at);
            Faults.restartReplica(c, follower, back);
            Faults.crashReplica(c, 0, leader);
            return plan(leader);
        }).withOptions(r -> SimOptions.defaults().withCpu(CpuCosts.FREE));

    /**
     * {@link #LAGGING_FOLLOWER_PARTNER_CRASH} with the default CPU costs. It was a known bug until a replica certified a
     * slot on endorsing it when a peer's CERTIFY for it had come first (4% of its seeds, 44, 62, 64, 90, ..., lost
     * liveness: after GST the old leader had decided slots with the crashed follower; the lagging follower, leader of
     * view 1, re-proposed them, and its CERTIFY for one reached the old leader before that slot's PREPARE of view 1.
     * The old leader endorsed it after, and no slow-path timer runs for a slot it decided, so it never certified it).
     */
    public static final Scenario LAGGING_FOLLOWER_PARTNER_CRASH_CPU = LAGGING_FOLLOWER_PARTNER_CRASH
        .withOptions(r -> SimOptions.defaults()).named("lagging-follower-partner-crash-cpu");

    /** {@link #RESTART_THEN_LEADER_CRASH} with the default CPU costs (it lost liveness for seed 10). */
    public static final Scenario RESTART_THEN_LEADER_CRASH_CPU = RESTART_THEN_LEADER_CRASH
        .withOptions(r -> SimOptions.defaults()).named("restart-then-leader-crash-cpu");

    /**
     * {@code s} with a checkpoint every 4 slots (K = 4, {@code consensus.checkpoint.interval}) in its window (W = 32 by
     * default): stable checkpoints inside the window, shares of consecutive checkpoints crossing, a replica taking the
     * state it kept for a checkpoint it executed past (design.md §14, "Checkpoints every K slots"), and view changes,
     * restarts and the adversary's attacks with checkpoints falling anywhere.
     */
    static Scenario everyFourSlots(Scenario s) {
        return s.withOptions(r -> s.options().apply(r).withCheckpointInterval(4)).named(s.name() + "-k4")
            .described(s.description() + "; a checkpoint every 4 slots (K = 4)");
    }

    public static final Scenario LEADER_CRASH_K4 = everyFourSlots(LEADER_CRASH);
    public static final Scenario FOLLOWER_CRASH_RESTART_K4 = everyFourSlots(FOLLOWER_CRASH_RESTART);
    public static final Scenario RESTART_THEN_LEADER_CRASH_K4 = everyFourSlots(RESTART_THEN_LEADER_CRASH);
    public static final Scenario KV_LEADER_CRASH_K4 = everyFourSlots(KV_LEADER_CRASH);
    public static final Scenario ADVERSARY_MIXED_K4 = everyFourSlots(AdversaryScenarios.MIXED);

    /**
     * Every scenario of {@code ubft sim --scenario all}: these, the Byzantine ones ({@link ByzantineScenarios#ALL}) and
     * the Twins representatives ({@link TwinsScenarios#SAMPLE}; the whole enumeration runs as {@code twins-e}).
     */
    public static final List<Scenario> ALL = Stream.of(Stream.of(ALL_CORRECT, LOSSY_BEFORE_GST,
        PARTITION_LEADER, LEADER_CRASH, LEADER_CRASH_WIDE_WINDOW, LEADER_CRASH_DEPLOYED_WINDOW,
        LEADER_CRASH_LATE_CHECKERS, FOLLOWER_CRASH_RESTART, REPLICA_PAUSE, MEMNODE_CRASH, TORN_READS,
        LOSSY_FOLLOWER_CRASH, LAGGING_FOLLOWER_PARTNER_CRASH, RESTART_THEN_LEADER_CRASH, LEADER_CRASH_RESTART,
        RESTART_THEN_LEADER_CRASH_CPU, LAGGING_FOLLOWER_PARTNER_CRASH_CPU,
        KV_ALL_CORRECT, KV_LEADER_CRASH, KV_LOSSY_BEFORE_GST, KV_FOLLOWER_CRASH_RESTART, KV_REDIS_ALL_CORRECT,
        KV_REDIS_LEADER_CRASH, KV_REDIS_FOLLOWER_CRASH_RESTART, KV_REDIS_CLOCK_SKEW, KV_REDIS_BYZ_CLOCK,
        LEADER_CRASH_K4, FOLLOWER_CRASH_RESTART_K4, RESTART_THEN_LEADER_CRASH_K4, KV_LEADER_CRASH_K4, ADVERSARY_MIXED_K4),
        ByzantineScenarios.ALL.stream(), TimeScenarios.ALL.stream(),
        Stream.of(AdversaryScenarios.RANDOM, AdversaryScenarios.MIXED, AdversaryScenarios.REFUSING),
        TwinsScenarios.SAMPLE.stream())
        .flatMap(s -> s).toList();

    /**
     * More replica crashes than the cluster tolerates (f + 1 followers crash at 2-20 ms): no request after that can
     * gather f + 1 replies. Not in {@link #ALL}; it exists to show that the liveness checker fires.
     */
    public static final Scenario TOO_MANY_CRASHES = Scenario.of("too-many-crashes",
        "f + 1 replicas crash at 2-20 ms (beyond the tolerance: liveness must be reported violated)", (c, r) -> {
            Faults.synchronous(c, r);
            long at = between(r, 2 * MS, 20 * MS);
            for (int i = 1; i <= c.cluster().f() + 1; i++) {
                Faults.crashReplica(c, i, at);
            }
            return plan(at);
        });

    /**
     * Scenarios that find known, open bugs: not in {@link #ALL} (so that {@code ubft sim} and the default tests stay
     * green), run by name: the Twins ones (the open liveness runs of the sweeps are listed in docs/byzantine.md, "Known open
     * liveness bugs"). Were known bugs: {@link #LEADER_CRASH_DEPLOYED_WINDOW} (a resource finding) until CERTIFYs
     * answered on request shared the seal's allowance; {@code lagging-follower-partner-crash-cpu} until certify-on-endorse (see
     * {@link #LAGGING_FOLLOWER_PARTNER_CRASH_CPU}); {@code restart-then-leader-crash} until the own-stream log and the requests for lasting FIFO holes; the signature flood until checks were deduplicated and
     * budgeted per sender; {@code restart-then-leader-crash-cpu}, {@code twins-e-0993} and {@code twins-e-1001} until
     * the fixes listed in docs/byzantine.md, "Liveness bugs the adversary found".
     */
    public static final List<Scenario> KNOWN_BUGS = TwinsScenarios.KNOWN_BUGS;

    /**
     * The scenario called {@code name} (of {@link #ALL}, {@link #KNOWN_BUGS}, {@link #TOO_MANY_CRASHES}, or
     * {@code twins-e-NNNN} of the Twins enumeration), or null.
     */
    public static Scenario byName(String name) {
        for (List<Scenario> list : List.of(ALL, KNOWN_BUGS, List.of(TOO_MANY_CRASHES))) {
            for (Scenario s : list) {
                if (s.name().equals(name)) {
                    return s;
                }
            }
        }
        return TwinsScenarios.byName(name);
    }

    /**
     * The scenarios {@code ubft sim --scenario NAME} runs: {@code all} ({@link #ALL}), a family ({@code twins-e}:
     * the whole Twins enumeration, {@link TwinsScenarios#enumeration()}), or the one called {@code name}
     * ({@link #byName}); empty if none.
     */
    public static List<Scenario> named(String name) {
        if ("all".equals(name)) {
            return ALL;
        }
        if (TwinsScenarios.ENUMERATED.equals(name)) {
            return TwinsScenarios.enumeration();
        }
        Scenario s = byName(name);
        return s == null ? List.of() : List.of(s);
    }
}
