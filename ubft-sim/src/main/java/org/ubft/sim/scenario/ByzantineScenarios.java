package org.ubft.sim.scenario;

import org.ubft.consensus.replica.ReplicaConfig;
import org.ubft.sim.ClientBehaviour;
import org.ubft.sim.ReplicaBehaviour;
import org.ubft.sim.SimCluster;
import org.ubft.sim.SimOptions;
import org.ubft.sim.WideCtbcastChannel;
import org.ubft.sim.cpu.CpuCosts;
import org.ubft.sim.byzantine.AlwaysComplain;
import org.ubft.sim.byzantine.WithholdingComplainer;
import org.ubft.sim.byzantine.Amnesiac;
import org.ubft.sim.byzantine.AnswersReproposalsEarly;
import org.ubft.sim.byzantine.CensorClient;
import org.ubft.sim.byzantine.ConflictingPrepares;
import org.ubft.sim.byzantine.DuplicateProposal;
import org.ubft.sim.byzantine.EquivocatingClient;
import org.ubft.sim.byzantine.EquivocatingLeader;
import org.ubft.sim.byzantine.FieldMutator;
import org.ubft.sim.byzantine.ForgedThenGenuine;
import org.ubft.sim.byzantine.MisframedCommits;
import org.ubft.sim.byzantine.Garbler;
import org.ubft.sim.byzantine.GapClient;
import org.ubft.sim.byzantine.ReaskingClient;
import org.ubft.sim.byzantine.Moment;
import org.ubft.sim.byzantine.OversizedMessages;
import org.ubft.sim.byzantine.RequestFlood;
import org.ubft.sim.byzantine.SignatureFlood;
import org.ubft.sim.byzantine.SilentAtMoment;
import org.ubft.sim.byzantine.Forger;
import org.ubft.sim.byzantine.ForgedRequestLeader;
import org.ubft.sim.byzantine.ForgingClient;
import org.ubft.sim.byzantine.LeaderOnlyClient;
import org.ubft.sim.byzantine.RegisterWriter;
import org.ubft.sim.byzantine.ReplayingClient;
import org.ubft.sim.byzantine.SignEverything;
import org.ubft.sim.byzantine.RefusesConnections;
import org.ubft.sim.byzantine.WithholdsReproposals;
import org.ubft.sim.byzantine.Silent;
import org.ubft.sim.byzantine.StopAfterWillCommit;

import java.util.List;
import java.util.function.Supplier;

import static org.ubft.sim.scenario.Scenarios.AFTER_GST;
import static org.ubft.sim.scenario.Scenarios.LIVENESS_BOUND;
import static org.ubft.sim.scenario.Scenarios.MS;

/**
 * The {@code byz-*} scenarios: one Byzantine replica (f = 1) running a behaviour of {@code org.ubft.sim.byzantine}
 * from {@value #ATTACK_MS} ms of virtual time on, on bounded-latency links. Safety is checked among the two correct
 * replicas, and liveness from the attack on (GST): a Byzantine leader may force view changes, but afterwards every
 * correct client's request must be answered. The {@code byz-client-*} scenarios make client 0 Byzantine instead
 * ({@link ClientBehaviour}): every replica is correct, client 1's requests must be answered, client 0's need not.
 */
public final class ByzantineScenarios {
    /** When the attacks start (virtual ms). */
    public static final long ATTACK_MS = 5;
    /**
     * The censoring leader's liveness bound: a follower suspects a leader that keeps proposing others' requests only
     * after 8 request timeouts (Replica's CENSORSHIP_FACTOR, 80 ms here), then the view changes.
     */
    public static final long CENSORSHIP_BOUND = 200 * MS;

    private ByzantineScenarios() {
    }

    private static Scenario byz(String name, String description, int slot, Supplier<ReplicaBehaviour> behaviour,
                                long bound) {
        return Scenario.of(name, description, synchronousAttack(bound)).withBehaviours(() -> {
            ReplicaBehaviour[] b = new ReplicaBehaviour[slot + 1];
            b[slot] = behaviour.get();
            return b;
        });
    }

    private static Scenario byz(String name, String description, int slot, Supplier<ReplicaBehaviour> behaviour) {
        return byz(name, description, slot, behaviour, LIVENESS_BOUND);
    }

    private static final long FROM = ATTACK_MS * MS;

    public static final Scenario SILENT_LEADER = byz("byz-silent-leader",
        "the leader of view 0 sends no consensus message and no reply from 5 ms on: the followers change view", 0,
        () -> new Silent(FROM));

    public static final Scenario SILENT_FOLLOWER = byz("byz-silent-follower",
        "a follower sends no consensus message and no reply from 5 ms on: the slow path decides", 2,
        () -> new Silent(FROM));

    public static final Scenario STOP_AFTER_WILL_COMMIT = byz("byz-stop-after-will-commit",
        "the leader of view 0 sends one more WILL_COMMIT after 5 ms, then nothing: the followers change view and keep"
            + " what it decided", 0, () -> new StopAfterWillCommit(FROM));

    public static final Scenario EQUIVOCATE_FAST = byz("byz-equivocate-fast",
        "the leader sends different LOCKs (PREPARE vs an empty PREPARE for the same slot) to the two followers, no"
            + " SIGNED, from 5 ms on", 0, () -> new EquivocatingLeader(EquivocatingLeader.Mode.FAST, FROM));

    public static final Scenario EQUIVOCATE_SLOW = byz("byz-equivocate-slow",
        "the leader sends no LOCK and different validly signed SIGNEDs (PREPARE vs an empty PREPARE) to the two"
            + " followers, from 5 ms on", 0, () -> new EquivocatingLeader(EquivocatingLeader.Mode.SLOW, FROM));

    public static final Scenario EQUIVOCATE_CROSS = byz("byz-equivocate-cross",
        "the leader sends the real LOCK to both followers and a validly signed SIGNED of an empty PREPARE for the same"
            + " slot to one, from 5 ms on", 0, () -> new EquivocatingLeader(EquivocatingLeader.Mode.CROSS, FROM));

    public static final Scenario CONFLICTING_PREPARES = byz("byz-conflicting-prepares",
        "the leader follows each PREPARE with a conflicting one for the same slot under the next CTBcast identifier,"
            + " from 5 ms on", 0, () -> new ConflictingPrepares(FROM));

    public static final Scenario DUPLICATE_PROPOSAL = byz("byz-duplicate-proposal",
        "the leader proposes each batch's requests again in the next slot, from 5 ms on: each executes once", 0,
        () -> new DuplicateProposal(FROM));

    public static final Scenario CENSOR_CLIENT = byz("byz-censor-client",
        "the leader leaves client 0's requests out of its PREPAREs from 5 ms on: the followers suspect it and change"
            + " view (liveness bound 200 ms)", 0, () -> new CensorClient(0, FROM), CENSORSHIP_BOUND);

    public static final Scenario FORGER = byz("byz-forger",
        "a follower also sends, every 200 us from 5 ms on, a forged message: COMMITs with short or forged"
            + " certificates, bogus WILL_CERTIFY/WILL_COMMIT, forged CERTIFY, SEAL_VIEW floods, NEW_VIEW with a bad"
            + " certificate, replays of its old messages", 1, () -> new Forger(FROM, 200_000));

    public static final Scenario FORGING_LEADER = byz("byz-forging-leader",
        "the leader of view 0 forges as byz-forger does", 0, () -> new Forger(FROM, 200_000));

    public static final Scenario FORGED_REQUEST_LEADER = byz("byz-forged-request-leader",
        "the leader of view 0 puts a request with a forged client signature, numbered in a later session, into every"
            + " batch from 5 ms on: no follower endorses one, each checks the forged signature a bounded number of times,"
            + " the view changes", 0, () -> new ForgedRequestLeader(FROM));

    public static final Scenario SIGN_EVERYTHING = byz("byz-sign-everything",
        "a follower signs every message of its CTBcast stream with its LOCK and adds 4 junk messages to its stream with"
            + " each action from 5 ms on: the correct replicas' signature checks per executed request stay bounded", 2,
        () -> new SignEverything(FROM, false));

    public static final Scenario SIGN_EVERYTHING_NO_LOCKS = byz("byz-sign-everything-no-locks",
        "as byz-sign-everything, and the follower withholds the LOCKs of its stream from 5 ms on, so that its messages"
            + " (the junk too) are delivered only by their SIGNED: each costs a receiver a signature check", 2,
        () -> new SignEverything(FROM, true));

    public static final Scenario REGISTER_WRITER = byz("byz-register-writer",
        "a follower corrupts the checksum of every register sub-register it writes from 5 ms on; replicas run on the"
            + " slow path, which reads the registers", 2, () -> new RegisterWriter(RegisterWriter.Mode.BOGUS_CHECKSUM, FROM))
        .withOptions(r -> SimOptions.defaults().withPath(ReplicaConfig.Path.SLOW));

    public static final Scenario REGISTER_WRITER_NO_COOLDOWN = byz("byz-register-writer-no-cooldown",
        "a follower writes each register sub-register's bytes to the other sub-register too, at once (no cooldown,"
            + " equal timestamps), from 5 ms on; replicas run on the slow path", 2,
        () -> new RegisterWriter(RegisterWriter.Mode.NO_COOLDOWN, FROM))
        .withOptions(r -> SimOptions.defaults().withPath(ReplicaConfig.Path.SLOW));

    /**
     * Issue "Byzantine hardening", attack 1 (the stream-identity fork), as a schedule: the leader of view 0 runs with
     * follower 1 alone while follower 2 is cut off from both (asynchrony: clients reach everyone), so the two decide
     * slots on the slow path; the leader then crashes and restarts with its stream log {@code disk} (wiped, or rolled
     * back to a backup taken halfway) and reaches only follower 2, which never heard from it; it proposes again every
     * slot it proposed before, its requests in another order ({@link Amnesiac.Mode#FORKS}). Before the fix the
     * restarted leader began a new CTBcast stream at a fresh epoch, which follower 2 took as the start of its stream
     * (no gap, so no summary), and the two decided other requests in the slots follower 1 had decided.
     * Now a stream has one start: follower 2 cannot deliver identifiers whose slots follower 1's registers and locks
     * hold, nor skip the gap without a summary. After GST (every link healed) the correct followers serve the
     * clients in a view of their own.
     */
    private static Scenario amnesiacLeaderFork(String name, SimCluster.Disk disk) {
        return Scenario.of(name, "the leader of view 0 decides with follower 1 while follower 2 hears no replica"
            + " (0-20 ms), then crashes and restarts with its stream log " + disk.name().toLowerCase()
            + (disk == SimCluster.Disk.ROLLED_BACK ? " to its state at 10 ms" : "") + " (21 ms), reaching only"
            + " follower 2 until GST (40 ms), and proposes its earlier slots again, reordered: follower 2 must not take"
            + " the restarted leader's stream as a new one",
            (c, r) -> {
                Faults.synchronous(c, r);
                Faults.replicaPartition(c, 0, new int[][] {{0, 1}, {2}});
                Faults.snapshotDisk(c, 0, 10 * MS);
                Faults.crashReplica(c, 0, 20 * MS);
                Faults.replicaPartition(c, 20 * MS + 1, new int[][] {{0, 2}, {1}});
                Faults.restartReplica(c, 0, 21 * MS, disk);
                long gst = 40 * MS;
                Faults.healAll(c, gst);
                return new Plan(gst, gst + AFTER_GST + LIVENESS_BOUND, LIVENESS_BOUND);
            }).withBehaviours(() -> new ReplicaBehaviour[] {new Amnesiac(disk, Amnesiac.Mode.FORKS)});
    }

    public static final Scenario AMNESIAC_LEADER_FORK = amnesiacLeaderFork("byz-amnesiac-leader-fork",
        SimCluster.Disk.WIPED);

    public static final Scenario ROLLED_BACK_LEADER_FORK = amnesiacLeaderFork("byz-rolled-back-leader-fork",
        SimCluster.Disk.ROLLED_BACK);

    /**
     * A scenario whose client 0 runs {@code behaviour} (client 1 and every replica are correct); clients submit for
     * {@code submitting} after the attack starts.
     */
    private static Scenario byzClient(String name, String description, long submitting,
                                      Supplier<ClientBehaviour> behaviour) {
        return Scenario.of(name, description, (c, r) -> {
            Faults.synchronous(c, r);
            long gst = ATTACK_MS * MS;
            return new Plan(gst, gst + submitting + LIVENESS_BOUND, LIVENESS_BOUND);
        }).withClientBehaviours(() -> new ClientBehaviour[] {behaviour.get()});
    }

    public static final Scenario CLIENT_LEADER_ONLY = byzClient("byz-client-leader-only",
        "client 0 sends its requests (and signed retransmissions) only to the leader of view 0 from 5 ms on; client 1"
            + " must stay live", AFTER_GST, () -> new LeaderOnlyClient(0, FROM));

    public static final Scenario CLIENT_EQUIVOCATE = byzClient("byz-client-equivocate",
        "client 0 sends a different request under the same request number to each replica from 5 ms on (re-signed"
            + " when signed): one request per number executes, the same everywhere; the echoes name other requests"
            + " than the leader's, so it waits for the signed retransmission (clients submit for 100 ms)", 5 * AFTER_GST,
        () -> new EquivocatingClient(FROM));

    public static final Scenario CLIENT_REPLAY = byzClient("byz-client-replay",
        "client 0 also sends, after each new request from 5 ms on, one of its last 32 request numbers again with a new"
            + " payload (signed or not): no number executes twice", AFTER_GST, () -> new ReplayingClient(FROM));

    public static final Scenario CLIENT_SWAP = byzClient("byz-client-swap",
        "client 0 also sends, after each new request from 5 ms on, the number it sent just before again with another"
            + " payload, signed: a replica keeps the request it holds under a number (EQUIVOCATED_REQUEST), no slot"
            + " waits for a view change", AFTER_GST, () -> ReplayingClient.swapping(FROM));

    public static final Scenario CLIENT_FORGE = byzClient("byz-client-forge",
        "client 0 also sends, after each new request from 5 ms on, 8 signed requests with forged signatures, each in a"
            + " later session and twice: each checked once, off the agent thread within the client's room, none taken;"
            + " client 1 must stay live", AFTER_GST, () -> new ForgingClient(FROM));

    /**
     * A synchronous network from the start (GST at {@link #ATTACK_MS}, when the attack begins) and the usual liveness
     * bound after it: the plan of the view-churn attacks below, whose faults are all their behaviours'.
     */
    private static final Scenario.Planner SYNCHRONOUS_ATTACK = synchronousAttack(LIVENESS_BOUND);

    /** A synchronous network from the start, GST when the attack begins, and liveness within {@code bound} after it. */
    private static Scenario.Planner synchronousAttack(long bound) {
        return (c, r) -> {
            Faults.synchronous(c, r);
            long gst = ATTACK_MS * MS;
            return new Plan(gst, gst + AFTER_GST + bound, bound);
        };
    }

    /**
     * A view-churn attack by a Byzantine client and a Byzantine replica together: client 0 leaves a hole in its request
     * numbers ({@link GapClient}), so every replica holds its later requests ahead of the next one for good, and
     * follower 2 complains about every view every millisecond ({@link AlwaysComplain}), which is f of the f+1
     * complaints a view change needs. Client 1 must stay live: a correct replica's complaint must come from a request
     * that waits on the leader, not from one that a client never made executable.
     */
    public static final Scenario GAP_CLIENT_COMPLAINER = Scenario.of("byz-gap-client-complainer",
        "client 0 skips a request number from 5 ms on (its later requests wait at every replica for good) while follower"
            + " 2 complains about every view every 1 ms: client 1 must stay live, with no view change forced",
        SYNCHRONOUS_ATTACK).withBehaviours(() -> new ReplicaBehaviour[] {null, null, new AlwaysComplain(FROM, MS)})
        .withClientBehaviours(() -> new ClientBehaviour[] {new GapClient(FROM)});

    /**
     * A view-churn attack on the adaptive request timeout ({@code RequestTimeout}): follower 2 complains about every
     * view every millisecond and withholds its votes for 1.5 ms of every 5 ({@link WithholdingComplainer}), so that a
     * request now and then waits for the slow path, longer than the fast-path waits the correct replicas measured. Both
     * clients must stay live, and the correct leader must not be replaced each time (checked by the liveness bound and
     * {@code AdaptiveRequestTimeoutTest}'s count of views).
     */
    public static final Scenario WITHHOLDING_COMPLAINER = Scenario.of("byz-withholding-complainer",
        "follower 2 complains about every view every 1 ms and withholds its votes 1.5 ms of every 5 from 5 ms on: both"
            + " clients must stay live",
        SYNCHRONOUS_ATTACK).withBehaviours(() -> new ReplicaBehaviour[] {null, null, new WithholdingComplainer(FROM, 5 * MS, 3 * MS / 2)});

    /**
     * A view-churn attack on the rule that a replica which executed a request complains when its client asks for it
     * again and f others complained ({@code ViewChange.askedAgain}): client 0 stops sending new requests and asks every
     * replica for its last executed one again at every chance ({@link ReaskingClient}), while follower 2 complains
     * about every view every millisecond ({@link AlwaysComplain}). Client 1 must stay live: each view a correct
     * replica complains about this way has stood a request timeout.
     */
    public static final Scenario REASKING_CLIENT_COMPLAINER = Scenario.of("byz-reasking-client-complainer",
        "client 0 asks every replica again for its last executed request from 5 ms on, sending nothing new, while"
            + " follower 2 complains about every view every 1 ms: client 1 must stay live",
        SYNCHRONOUS_ATTACK).withBehaviours(() -> new ReplicaBehaviour[] {null, null, new AlwaysComplain(FROM, MS)})
        .withClientBehaviours(() -> new ClientBehaviour[] {new ReaskingClient(FROM)});

    /**
     * The pattern of adversary-random seed 7378's agreement violation, as a schedule: the leader of view 0 precedes
     * each COMMIT, CHECKPOINT and NEW_VIEW it CTBcasts with a forged copy ({@link ForgedThenGenuine}); replicas run on
     * the slow path (COMMITs every slot); follower 2 pauses past its CTBcast tail, so it skips part of the leader's
     * stream with a SUMMARY while follower 1 delivers every message; then the leader crashes and the followers change
     * view from what they hold of its stream. Their state[leader] must be the same, forged copies or not.
     */
    public static final Scenario FORGED_THEN_GENUINE = Scenario.of("byz-forged-then-genuine",
        "the leader of view 0 CTBcasts a forged copy before each COMMIT, CHECKPOINT and NEW_VIEW from 5 ms on (slow"
            + " path); follower 2 pauses for 8-20 ms at 6-10 ms (it skips part of the stream by a summary); the leader"
            + " crashes at 30-40 ms: the followers' view change must agree with what they decided",
        (c, r) -> {
            Faults.synchronous(c, r);
            long pause = Faults.between(r, 6 * MS, 10 * MS);
            Faults.pauseReplica(c, 2, pause, Faults.between(r, 8 * MS, 20 * MS));
            long crash = Faults.between(r, 30 * MS, 40 * MS);
            Faults.crashReplica(c, 0, crash);
            return new Plan(crash, crash + AFTER_GST + LIVENESS_BOUND, LIVENESS_BOUND);
        }).withOptions(r -> SimOptions.defaults().withPath(ReplicaConfig.Path.SLOW))
        .withBehaviours(() -> new ReplicaBehaviour[] {new ForgedThenGenuine(FROM)});

    public static final Scenario MUTATOR_LEADER = byz("byz-mutator-leader",
        "the leader of view 0 rewrites fields of one in 8 of its consensus messages from 5 ms on (boundary and"
            + " adversarial values, re-signed where its own signature; CTBcast to some receivers only) and sends a"
            + " mutated copy besides one in 8 more", 0, () -> new FieldMutator(FROM, 8));

    public static final Scenario MUTATOR_FOLLOWER = byz("byz-mutator-follower",
        "a follower mutates its consensus messages as byz-mutator-leader does", 1, () -> new FieldMutator(FROM, 8));

    public static final Scenario GARBLER_LEADER = byz("byz-garbler-leader",
        "the leader of view 0 sends, besides one in 4 of its messages from 5 ms on, a copy garbled at the byte level"
            + " (bits, boundary values, type, truncation, extension, splices; CTBcast under the next identifier,"
            + " point to point garbled per receiver)", 0, () -> new Garbler(FROM, 4));

    public static final Scenario GARBLER_FOLLOWER = byz("byz-garbler-follower",
        "a follower garbles copies of its messages as byz-garbler-leader does", 2, () -> new Garbler(FROM, 4));

    /**
     * An omniscient next leader: replica 1 (the leader of view 1) follows the protocol until a correct replica starts
     * changing view (it sealed view 0 and waits for a NEW_VIEW), and from that moment sends nothing. The view change
     * is forced by pausing the correct leader of view 0 (asynchrony: GST when it resumes); the correct replicas must
     * time view 1 out and go on in view 2.
     */
    public static final Scenario SILENT_AT_VIEW_CHANGE = Scenario.of("byz-silent-at-view-change",
        "the leader of view 0 pauses for 25-40 ms at 5-10 ms; replica 1 (leader of view 1) goes silent the moment a"
            + " correct replica starts changing view (omniscient timing); GST when the leader resumes",
        (c, r) -> {
            Faults.synchronous(c, r);
            long at = Faults.between(r, 5 * MS, 10 * MS);
            long duration = Faults.between(r, 25 * MS, 40 * MS);
            Faults.pauseReplica(c, 0, at, duration);
            long gst = at + duration;
            return new Plan(gst, gst + AFTER_GST + LIVENESS_BOUND, LIVENESS_BOUND);
        }).withBehaviours(() -> new ReplicaBehaviour[] {null, new SilentAtMoment("silent-at-view-change",
            Moment.correctReplicaChangesView(), FROM, Long.MAX_VALUE)});

    /** How often the signature flood sends a burst (virtual time): once per driver tick. */
    public static final long FLOOD_PERIOD = 10_000;

    /** The signature flood's schedule, flooding or not (the same run without the flood, for comparison). */
    public static Scenario signatureFlood(boolean flooding) {
        return byz(flooding ? "byz-signature-flood" : "byz-signature-flood-off", (flooding ? "" : "(without the"
            + " flood) ") + "a follower also sends, every 10 us from 5 ms on, a CERTIFY and a CERTIFY_CHECKPOINT"
            + " (TBcast) and a CRTFY_VC to the leader with garbage signatures, and every 100 us a COMMIT with garbage"
            + " shares: each correct replica verifies each one before dropping it", 2,
            () -> new SignatureFlood(FROM, FLOOD_PERIOD, flooding));
    }

    /**
     * The flood, at the default CPU costs (in {@link #ALL}): each correct replica checks each forged signature at most
     * once per (sender, kind, view, slot or sequence number), within the flooder's budget (consensus's
     * VerificationBudget), a few checks per executed request; the flooder's own votes drown in its own traffic, so
     * slots take the slow path, as they do when a Byzantine follower just withholds its votes
     * ({@link #SILENT_FOLLOWER}: the floor of what one Byzantine follower can do to the fast path).
     */
    public static final Scenario SIGNATURE_FLOOD = signatureFlood(true);

    /**
     * The flood in bursts: every millisecond a CERTIFY with a garbage signature for every slot of the window (W = 32)
     * at once, besides a CERTIFY_CHECKPOINT and a CRTFY_VC, so that a burst would overflow the receivers' queue of 16
     * checks for the flooder (what does not fit is checked on their agent thread with the token its first pass took,
     * Preverifier's CHECK_HERE). What bounds it first: each correct replica checks a sender's share for a (view, slot)
     * once, so after the first burst of a view every CERTIFY is dropped as a repeat before any check (seeds 1-10: about
     * 100 checks and 3,000 repeats per correct replica, at most 19 signature operations in one duty cycle); the TBcast
     * delivery spreads a burst over several duty cycles here, so the queue did not overflow in those seeds.
     */
    public static final Scenario SIGNATURE_BURST = byz("byz-signature-burst", "a follower sends, every 1 ms from 5 ms"
        + " on, a CERTIFY with a garbage signature for every slot of the window at once, a CERTIFY_CHECKPOINT and a"
        + " CRTFY_VC: each forged share is checked once per view, its repeats dropped before any check", 2,
        () -> new SignatureFlood(FROM, 1_000_000, true, 32));

    /**
     * {@link #SIGNATURE_BURST} with late checking workers ({@link SimOptions#withLateCheckers}): a burst past a peer's
     * checking queue within one duty cycle overflows it, and the overflow is checked on the agent thread
     * ({@code Verdict.CHECK_HERE}), within the flooder's budget, never dropped unchecked.
     */
    public static final Scenario SIGNATURE_BURST_LATE_CHECKERS = byz("byz-signature-burst-late-checkers", "a follower"
        + " sends, every 1 ms from 5 ms on, a CERTIFY with a garbage signature for each of 96 slots at once (W = 256,"
        + " t = 128), the peers' checking workers running only between duty cycles: a burst overflows their queues",
        2, () -> new SignatureFlood(FROM, 1_000_000, true, 96))
        .withOptions(r -> SimOptions.defaults().withWindowAndTail(256, 128).withLateCheckers());

    /**
     * {@link #SIGNATURE_BURST_LATE_CHECKERS} whose CERTIFYs, CERTIFY_CHECKPOINTs and CRTFY_VCs carry valid signatures
     * of the flooder's own over garbage digests: no check fails, so nothing proves it faulty by its signatures.
     */
    public static final Scenario SIGNED_GARBAGE_BURST = byz("byz-signed-garbage-burst", "a follower sends, every 1 ms"
        + " from 5 ms on, a CERTIFY for each of 96 slots at once with a garbage digest under a valid signature of its"
        + " own (W = 256, t = 128), the peers' checking workers running only between duty cycles",
        2, () -> new SignatureFlood(FROM, 1_000_000, true, 96, true))
        .withOptions(r -> SimOptions.defaults().withWindowAndTail(256, 128).withLateCheckers());

    /**
     * {@link #SIGNED_GARBAGE_BURST} aimed where a receiver still checks a CERTIFY before its PREPARE: each burst's 16
     * CERTIFYs (valid signatures of the flooder's own over garbage digests) for slots from the correct replicas'
     * furthest execution on, within the leader's pipeline; beyond it they would wait unchecked ({@code ParkedShares}).
     */
    public static final Scenario SIGNED_GARBAGE_AHEAD = byz("byz-signed-garbage-ahead", "a follower sends, every 1 ms"
        + " from 5 ms on, a CERTIFY for each of 16 slots just ahead of the correct replicas' execution (within the"
        + " pipeline) with a garbage digest under a valid signature of its own (W = 256, t = 128), the peers' checking"
        + " workers running only between duty cycles",
        2, () -> new SignatureFlood(FROM, 1_000_000, true, 16, true, true))
        .withOptions(r -> SimOptions.defaults().withWindowAndTail(256, 128).withLateCheckers());

    /**
     * The flood without CPU costs ({@link CpuCosts#FREE}): the checks per executed request show what the protocol
     * does, not what the CPU lets through (before the fix: 150-245 per request at each correct replica).
     */
    public static final Scenario SIGNATURE_FLOOD_FREE = signatureFlood(true).named("byz-signature-flood-free")
        .withOptions(r -> SimOptions.defaults().withCpu(CpuCosts.FREE));

    /** {@link #SIGNATURE_FLOOD}'s schedule without the flood. */
    public static final Scenario SIGNATURE_FLOOD_OFF = signatureFlood(false);

    /**
     * A follower that refuses the correct replicas' connections (their fabrics report it lost) and floods them as
     * {@link #SIGNATURE_FLOOD} does: it keeps sending, so consensus's Absence never holds it absent and the correct
     * replicas keep the fast path's waits (signing every slot eagerly under the flood is what it would want), though
     * its flood is dropped before consensus sees it (the runtime reports any valid link envelope of a lost peer).
     */
    public static final Scenario REFUSING_FLOODER = byz("byz-refusing-flooder", "a follower refuses the other"
        + " replicas' connections (their fabrics report it lost) from 5 ms on and floods them as byz-signature-flood"
        + " does: it is heard, so never held absent", 2,
        () -> new RefusesConnections(new SignatureFlood(FROM, FLOOD_PERIOD, true), FROM, 0b011, false));

    /**
     * A follower that refuses the correct replicas' connections and cuts its links to them (mute, as a crashed process
     * is): it is absent, and the correct replicas skip the waits that serve only the fast path (proposal on f echoes,
     * CERTIFY at endorsement, CTBcast SIGNED with LOCK), which its votes would never end.
     */
    public static final Scenario REFUSING_MUTE_FOLLOWER = byz("byz-refusing-mute-follower", "a follower refuses"
        + " the other replicas' connections and cuts its links to them from 5 ms on: held absent, the others skip the"
        + " fast path's waits", 2, () -> new RefusesConnections(new Silent(FROM), FROM, 0b011, true));

    /**
     * A flood of the requests replicas answer from what they hold (batches, shares), by the leader of view 0: each
     * correct replica answers it a window's worth per interval at most. The flooder's own traffic crowds its own links,
     * so its slots go slower (a leader may be slow: the request timeout bounds what that costs); the correct replicas'
     * links to each other carry none of it.
     */
    public static final Scenario REQUEST_FLOOD = byz("byz-request-flood", "the leader of view 0 also sends each other"
        + " replica, every 10 us from 5 ms on, a BATCH_REQUEST and a CERTIFICATE_REQUEST for each of 16 slots of the"
        + " window in turn (digests of its own batches, or random; the current view or an earlier one): each correct"
        + " replica answers a requester a window's worth per interval at most", 0,
        () -> new RequestFlood(FROM, FLOOD_PERIOD));

    /** How often the oversized-message behaviour sends a salvo (virtual time). */
    public static final long OVERSIZED_PERIOD = 500_000;

    /** How much wider than the consensus maximum {@link #OVERSIZED_WIDE}'s CTBcast channel is. */
    public static final int WIDE_CHANNEL_EXTRA_BYTES = 8192;

    /**
     * A follower CTBcasts, every 500 us from 5 ms on, a COMMIT with random shares (the receivers park its stream while
     * they check them off the agent thread) followed by messages at and past the largest valid CTBcast message M
     * ({@link OversizedMessages}). On the default channel nothing longer than M reaches the consensus layer: CTBcast
     * carries up to M, and a LOCK naming more (up to M + 64, what the links carry) is refused by the receivers'
     * CTBcast ({@code tooLong}); the messages of exactly M bytes wait in the room ({@code StreamChecks}) and are
     * dropped.
     */
    public static final Scenario OVERSIZED = byz("byz-oversized",
        "a follower CTBcasts, every 500 us from 5 ms on, a COMMIT with random shares (its stream parks at the receivers)"
            + " then messages of exactly the largest valid length M and LOCKs naming M + 1 and M + 64 bytes: the"
            + " receivers' CTBcast refuses the LOCKs, the rest is dropped", 2,
        () -> new OversizedMessages(FROM, OVERSIZED_PERIOD, 0));

    /**
     * {@link #OVERSIZED} on a CTBcast channel 8 KiB wider than the largest consensus message (every replica's,
     * {@link WideCtbcastChannel}): the messages of M + 1 and of the channel's maximum C are delivered to the consensus
     * layer while the follower's stream is parked, too long for a slot of the room: what waits is handled first, in
     * order, then they are (StreamChecks' {@code too_long_flushes}); LOCKs naming C + 1 and C + 64 bytes are refused
     * by CTBcast.
     */
    public static final Scenario OVERSIZED_WIDE = byz("byz-oversized-wide",
        "as byz-oversized on a CTBcast channel 8 KiB wider than the largest consensus message M (a deployment may size"
            + " it so): messages of M + 1 and of the channel's maximum C reach the receivers' consensus layer while the"
            + " follower's stream is parked (too long for its waiting room), LOCKs naming C + 1 and C + 64 bytes do not",
        2, () -> new OversizedMessages(FROM, OVERSIZED_PERIOD, WIDE_CHANNEL_EXTRA_BYTES))
        .withBehaviours(() -> new ReplicaBehaviour[] {new WideCtbcastChannel(WIDE_CHANNEL_EXTRA_BYTES),
            new WideCtbcastChannel(WIDE_CHANNEL_EXTRA_BYTES),
            new OversizedMessages(FROM, OVERSIZED_PERIOD, WIDE_CHANNEL_EXTRA_BYTES)});

    /** When {@link #REFUSING_COMPLAINER}'s leader pauses, and for how long (virtual time). */
    public static final long COMPLAINER_PAUSE_AT = 12 * MS;
    public static final long COMPLAINER_PAUSE = 15 * MS;

    /**
     * The pattern of adversary-refusing seed 95101's liveness loss, as a schedule: follower 1 cuts its links to
     * replica 2 and refuses its connections from 5 ms on (so replica 2 decides on the slow path only, and holds 1
     * absent) and complains about every view every millisecond ({@link AlwaysComplain}); the leader of view 0 pauses
     * (asynchrony before GST), so the view changes with the slots decided since the last checkpoint to re-propose,
     * each on the slow path; W = 64, so that re-committing them takes several request timeouts. A view whose leader
     * re-commits them must not end on the Byzantine complaint and one correct replica's request timeout ({@code
     * LeaderSuspicion}), nor on a client asking a correct replica again for a request that only it executed ({@code
     * ViewChange.askedAgain}): every seed of 1-20 lost liveness with neither rule, seed 17 without the second.
     */
    public static final Scenario REFUSING_COMPLAINER = Scenario.of("byz-refusing-complainer", "follower 1 cuts its"
        + " links to replica 2 and refuses its connections from 5 ms on and complains about every view every 1 ms; the"
        + " leader of view 0 pauses at 12 ms for 15 ms; W = 64: the views that re-commit the window on the slow path"
        + " must not end before they reach a new request",
        (c, r) -> {
            Faults.synchronous(c, r);
            Faults.pauseReplica(c, 0, COMPLAINER_PAUSE_AT, COMPLAINER_PAUSE);
            long gst = COMPLAINER_PAUSE_AT + COMPLAINER_PAUSE;
            return new Plan(gst, gst + AFTER_GST + LIVENESS_BOUND, LIVENESS_BOUND);
        }).withBehaviours(() -> new ReplicaBehaviour[] {null,
            new RefusesConnections(new AlwaysComplain(FROM, MS), FROM, 0b100, true)})
        .withOptions(r -> SimOptions.defaults().withWindowAndTail(64, 16));

    /**
     * Replica {@code missing} pauses at 8 ms for 10 ms (it misses slots the others decide), then the leader of view 0 at
     * 20 ms for 15 ms, so view 1 begins, led by replica 1, which re-proposes slots it executed; GST at 35 ms.
     */
    private static Scenario.Planner missesSlotsThenViewOne(int missing) {
        return (c, r) -> {
            Faults.synchronous(c, r);
            Faults.pauseReplica(c, missing, 8 * MS, 10 * MS);
            Faults.pauseReplica(c, 0, 20 * MS, 15 * MS);
            long gst = 35 * MS;
            return new Plan(gst, gst + AFTER_GST + LIVENESS_BOUND, LIVENESS_BOUND);
        };
    }

    /**
     * A Byzantine leader of view 1 that never sends its re-proposals of slots it executed ({@link
     * WithholdsReproposals}), with a follower that needs them: replica 2 pauses at 8 ms for 10 ms (it misses slots
     * replicas 0 and 1 decide), then the leader of view 0 pauses at 20 ms for 15 ms, so view 1 begins. The correct
     * replicas must agree, and client requests be served after GST.
     */
    public static final Scenario WITHHOLDS_REPROPOSALS = Scenario.of("byz-withholds-reproposals", "replica 1, leader"
        + " of view 1, never sends its re-proposals of slots it executed; replica 2 pauses at 8 ms for 10 ms, the leader"
        + " of view 0 at 20 ms for 15 ms: the correct replicas agree and are served after GST",
        missesSlotsThenViewOne(2)).withBehaviours(() -> new ReplicaBehaviour[] {null, new WithholdsReproposals(FROM)});

    /**
     * A follower that precedes each of its COMMITs (alone or in a COMMITS message) with a wrongly framed COMMITS message
     * around it ({@link MisframedCommits}), on the slow path (a COMMIT every slot); replica 1 pauses past its tail (it
     * skips part of replica 2's stream by a summary), then the leader of view 0 pauses, so that views change and the
     * seal sends its COMMITs several to a message. Every correct replica must drop each misframed message whole, alike.
     */
    public static final Scenario MISFRAMED_COMMITS = Scenario.of("byz-misframed-commits", "replica 2 CTBcasts a"
        + " wrongly framed COMMITS message (too many COMMITs, nested, a count or length that lies, a SEAL_VIEW inside, a"
        + " byte too many) before each of its COMMITs from 5 ms on (slow path); replica 1 pauses for 8-20 ms at 6-10 ms,"
        + " the leader of view 0 for 15 ms at 25-30 ms: the correct replicas agree and are served after GST",
        (c, r) -> {
            Faults.synchronous(c, r);
            Faults.pauseReplica(c, 1, Faults.between(r, 6 * MS, 10 * MS), Faults.between(r, 8 * MS, 20 * MS));
            long at = Faults.between(r, 25 * MS, 30 * MS);
            Faults.pauseReplica(c, 0, at, 15 * MS);
            long gst = at + 15 * MS;
            return new Plan(gst, gst + AFTER_GST + LIVENESS_BOUND, LIVENESS_BOUND);
        }).withOptions(r -> SimOptions.defaults().withPath(ReplicaConfig.Path.SLOW))
        .withBehaviours(() -> new ReplicaBehaviour[] {null, null, new MisframedCommits(FROM)});

    /**
     * A follower that answers PREPAREs of later views before it delivers them ({@link AnswersReproposalsEarly}), so that a
     * new leader's paced re-proposals all go at once: replica 0 pauses at 8 ms for 10 ms (it misses slots replicas 1
     * and 2 decide) and again at 20 ms for 15 ms, so view 1 begins, led by replica 1, which executed every slot it
     * re-proposes; replica 0 needs them. The correct replicas must agree, and client requests be served after GST.
     */
    public static final Scenario ANSWERS_REPROPOSALS_EARLY = Scenario.of("byz-answers-reproposals-early", "replica 2"
        + " TBcasts WILL_CERTIFY for the next 64 slots with each of its own in views after the first; replica 0 (leader"
        + " of view 0) pauses at 8 ms for 10 ms and at 20 ms for 15 ms: the correct replicas agree and are served after"
        + " GST",
        missesSlotsThenViewOne(0)).withBehaviours(() -> new ReplicaBehaviour[] {null, null, new AnswersReproposalsEarly(FROM)});

    /** Every {@code byz-*} scenario (all in {@code ubft sim --scenario all}). */
    public static final List<Scenario> ALL = List.of(SILENT_LEADER, SILENT_FOLLOWER, STOP_AFTER_WILL_COMMIT,
        EQUIVOCATE_FAST, EQUIVOCATE_SLOW, EQUIVOCATE_CROSS, CONFLICTING_PREPARES, DUPLICATE_PROPOSAL, CENSOR_CLIENT,
        FORGER, FORGING_LEADER, FORGED_REQUEST_LEADER, SIGN_EVERYTHING, SIGN_EVERYTHING_NO_LOCKS, CLIENT_LEADER_ONLY, CLIENT_EQUIVOCATE, CLIENT_REPLAY, CLIENT_SWAP, CLIENT_FORGE,
        REGISTER_WRITER, REGISTER_WRITER_NO_COOLDOWN, AMNESIAC_LEADER_FORK, ROLLED_BACK_LEADER_FORK, MUTATOR_LEADER,
        MUTATOR_FOLLOWER, SILENT_AT_VIEW_CHANGE, SIGNATURE_FLOOD, SIGNATURE_BURST, SIGNATURE_BURST_LATE_CHECKERS, SIGNED_GARBAGE_BURST,
        SIGNED_GARBAGE_AHEAD,
        SIGNATURE_FLOOD_FREE, GAP_CLIENT_COMPLAINER, WITHHOLDING_COMPLAINER,
        FORGED_THEN_GENUINE, REASKING_CLIENT_COMPLAINER, REQUEST_FLOOD, OVERSIZED, OVERSIZED_WIDE, GARBLER_LEADER,
        GARBLER_FOLLOWER, REFUSING_FLOODER, REFUSING_MUTE_FOLLOWER, REFUSING_COMPLAINER,
        WITHHOLDS_REPROPOSALS, MISFRAMED_COMMITS, ANSWERS_REPROPOSALS_EARLY);
}
