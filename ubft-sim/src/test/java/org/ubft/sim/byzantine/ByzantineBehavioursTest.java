package org.ubft.sim.byzantine;

import org.junit.jupiter.api.Test;
import org.ubft.sim.scenario.ByzantineScenarios;
import org.ubft.sim.scenario.Scenario;

import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Each {@code byz-*} scenario over {@link #SEEDS} seeds (others than {@code ScenarioBudgetTest}'s): no violation among
 * the correct replicas (agreement, validity, no duplicate, bounded memory, liveness after GST), every request accepted,
 * and evidence that the attack happened: the behaviour acted, and the correct replicas saw it (view changes, drops by
 * the right reason, slow paths, duplicates skipped). A behaviour that silently does nothing fails here.
 */
class ByzantineBehavioursTest {
    private static final long[] SEEDS = {3, 4};

    /** Runs {@code scenario} over the seeds; each run must be clean and satisfy {@code evidence}. */
    private static void attackFailsSafely(Scenario scenario, Predicate<ByzProbe> evidence) {
        for (long seed : SEEDS) {
            ByzProbe p = new ByzProbe(scenario, seed);
            String where = p.result.replayCommand(scenario.name() + "-" + seed + ".trace") + "\n" + p;
            assertTrue(p.result.ok(), where);
            assertTrue(p.result.accepted() > 50 && p.result.accepted() == p.result.submitted(), where);
            assertTrue(p.behaviour().actions() > 0, "the behaviour never acted: " + where);
            assertTrue(evidence.test(p), "no evidence of the attack at the correct replicas: " + where);
        }
    }

    private static boolean viewChanged(ByzProbe p, int... correct) {
        for (int i : correct) {
            if (p.counter(i, "view_changes") == 0) {
                return false;
            }
        }
        return true;
    }

    @Test
    void aSilentLeaderIsReplaced() {
        attackFailsSafely(ByzantineScenarios.SILENT_LEADER, p -> viewChanged(p, 1, 2));
    }

    /**
     * A Byzantine leader of view 1 never sends its re-proposals of the slots it executed (the rule that lets a correct
     * leader send new proposals first, {@code Proposer}, gives it nothing it could not do before): a follower that
     * missed those slots still decides them (their COMMITs in its peers' streams), and the clients are served.
     */
    @Test
    void aLeaderThatWithholdsItsReproposalsStopsNothing() {
        attackFailsSafely(ByzantineScenarios.WITHHOLDS_REPROPOSALS, p -> viewChanged(p, 0, 2));
    }

    @Test
    void aSilentFollowerLeavesTheSlowPathToDecide() {
        attackFailsSafely(ByzantineScenarios.SILENT_FOLLOWER,
            p -> p.counter(0, "slow_path") > 0 && p.counter(1, "slow_path") > 0);
    }

    @Test
    void aLeaderThatStopsAfterWillCommitIsReplacedAndWhatItDecidedStays() {
        attackFailsSafely(ByzantineScenarios.STOP_AFTER_WILL_COMMIT,
            p -> ((StopAfterWillCommit) p.behaviour()).stopped() && viewChanged(p, 1, 2));
    }

    @Test
    void fastPathEquivocationStallsTheLeaderAndTheViewChanges() {
        attackFailsSafely(ByzantineScenarios.EQUIVOCATE_FAST, p -> viewChanged(p, 1, 2));
    }

    @Test
    void slowPathEquivocationStallsTheLeaderAndTheViewChanges() {
        attackFailsSafely(ByzantineScenarios.EQUIVOCATE_SLOW, p -> viewChanged(p, 1, 2));
    }

    /** The conflicting SIGNED reaches its target after the fast path delivered the real PREPARE: stale, ignored. */
    @Test
    void crossPathEquivocationIsIgnoredAsStale() {
        attackFailsSafely(ByzantineScenarios.EQUIVOCATE_CROSS,
            p -> p.counter(1, "staleSigned") + p.counter(2, "staleSigned") > 0);
    }

    @Test
    void aSecondPrepareForTheSameSlotIsDropped() {
        attackFailsSafely(ByzantineScenarios.CONFLICTING_PREPARES,
            p -> p.counter(1, "INVALID_PREPARE") > 0 && p.counter(2, "INVALID_PREPARE") > 0);
    }

    @Test
    void aRequestProposedInTwoSlotsExecutesOnce() {
        attackFailsSafely(ByzantineScenarios.DUPLICATE_PROPOSAL,
            p -> p.counter(1, "duplicates") > 0 && p.counter(2, "duplicates") > 0);
    }

    @Test
    void aCensoringLeaderIsSuspectedAndReplaced() {
        // complaints of any replica: with CPU costs (seed 3) the censor's own replica may complain first
        attackFailsSafely(ByzantineScenarios.CENSOR_CLIENT, p -> viewChanged(p, 1, 2)
            && p.counter(0, "complaints") + p.counter(1, "complaints") + p.counter(2, "complaints") > 0);
    }

    @Test
    void forgedMessagesOfAFollowerAreDropped() {
        attackFailsSafely(ByzantineScenarios.FORGER, p -> {
            Forger f = (Forger) p.behaviour();
            for (Forger.Kind k : Forger.Kind.values()) {
                if (f.sent(k) == 0) {
                    return false;
                }
            }
            for (int i : new int[] {0, 2}) {
                for (String drop : new String[] {"INVALID_COMMIT", "INVALID_SEAL_VIEW", "INVALID_NEW_VIEW",
                    "OUT_OF_WINDOW"}) {
                    if (p.counter(i, drop) == 0) {
                        return false;
                    }
                }
            }
            return true;
        });
    }

    @Test
    void forgedMessagesOfTheLeaderAreDropped() {
        // its COMMITs with short certificates (INVALID_COMMIT) or forged shares (BAD_CERTIFICATE), whichever it drew
        attackFailsSafely(ByzantineScenarios.FORGING_LEADER,
            p -> p.counter(1, "INVALID_COMMIT") + p.counter(1, "BAD_CERTIFICATE") > 0
                && p.counter(2, "INVALID_COMMIT") + p.counter(2, "BAD_CERTIFICATE") > 0);
    }

    /**
     * The leader's forged copy before each COMMIT, CHECKPOINT and NEW_VIEW is dropped by follower 1, which delivers
     * every message of the stream, while follower 2 skips part of the stream with a summary (it paused past its tail);
     * both take the genuine messages alike, and after the leader's crash they change view and agree on what they
     * decided (the run is clean: agreement, validity, no duplicate, liveness).
     */
    @Test
    void aForgedCopyBeforeEachCertifiedMessageChangesNothingForAReceiverThatSkippedIt() {
        attackFailsSafely(ByzantineScenarios.FORGED_THEN_GENUINE,
            p -> p.counter(1, "BAD_CERTIFICATE") > 0 && p.counter(2, "summaries_applied") > 0
                && viewChanged(p, 1, 2));
    }

    /**
     * Wrongly framed COMMITS messages before each of a follower's COMMITs: both correct replicas drop them whole
     * (MALFORMED), one of them after skipping part of the stream by a summary, and check one forged certificate of a
     * COMMITS message of sixteen (AFTER_BAD_CERTIFICATE for the rest); the views change and the seal sends
     * COMMITs several to a message (COMMITS); agreement and liveness hold.
     */
    @Test
    void misframedCommitsMessagesAreDroppedWholeAlikeAndTheSealBundlesItsCommits() {
        attackFailsSafely(ByzantineScenarios.MISFRAMED_COMMITS,
            p -> p.counter(0, "MALFORMED") > 0 && p.counter(1, "MALFORMED") > 0 && viewChanged(p, 0, 1)
                && p.counter(0, "AFTER_BAD_CERTIFICATE") > 0 && p.counter(1, "AFTER_BAD_CERTIFICATE") > 0
                && p.counter(0, "commits_messages") + p.counter(1, "commits_messages") > 0);
    }

    /**
     * A follower's false answers to a new leader's re-proposals (WILL_CERTIFY for slots it has not delivered): the
     * leader's pacing is timing only, so the replica that needs the re-proposals gets them, the views change, and
     * the correct replicas agree and are served.
     */
    @Test
    void falseAnswersToReproposalsChangeOnlyTheirPace() {
        attackFailsSafely(ByzantineScenarios.ANSWERS_REPROPOSALS_EARLY, p -> viewChanged(p, 0, 1));
    }

    /**
     * Seed 94 of the same scenario, where replica 0 resumes from a 15 ms pause into the seal of view 1 and finds its
     * peers' COMMITS messages (the seal's COMMITs several to a CTBcast identifier) waiting, their certificates holding
     * shares it never heard: it once checked them all in one duty cycle (138 signature operations, over the resource
     * checker's 128), first on its agent thread (a COMMITS message's COMMITs could not park), then in its checking
     * services (the simulator's answered a check submitted from a verdict's handler in the same poll). Each COMMIT now
     * parks in turn (StreamChecks) and a verdict comes at the next poll, as a worker's does.
     */
    @Test
    void aPausedReplicaChecksTheSealsCommitsMessagesOneCommitAtATime() {
        org.ubft.sim.RegressionRuns.assertServed("byz-answers-reproposals-early", 94);
    }

    /**
     * twins-random seed 106131: replica 0's room for a peer's stream filled while a COMMITS message was parked, and the
     * message was forced part by part, each later part's checks submitted and then done on the agent thread at once
     * (146 signature operations in one duty cycle). A forced COMMITS message is now handled whole, its later parts not
     * parked (StreamChecks).
     */
    @Test
    void aForcedCommitsMessageSubmitsNoChecksForNothing() {
        org.ubft.sim.RegressionRuns.assertServed("twins-random", 106131);
    }

    /**
     * The writer withholds its LOCKED echoes, so the correct replicas take CTBcast's slow path and read its registers:
     * their register readers find the bogus sub-registers and ignore them.
     */
    @Test
    void bogusRegisterChecksumsAreIgnoredByTheReaders() {
        attackFailsSafely(ByzantineScenarios.REGISTER_WRITER,
            p -> p.counter(0, "register_invalid_subregisters") > 0 && p.counter(1, "register_invalid_subregisters") > 0);
    }

    /** Both sub-registers written at once (equal timestamps): the readers take the answer as a Byzantine writer's. */
    @Test
    void bothSubRegistersWrittenWithinTheCooldownAreTakenAsByzantine() {
        attackFailsSafely(ByzantineScenarios.REGISTER_WRITER_NO_COOLDOWN,
            p -> p.counter(0, "register_byzantine_answers") > 0 && p.counter(1, "register_byzantine_answers") > 0);
    }
}
