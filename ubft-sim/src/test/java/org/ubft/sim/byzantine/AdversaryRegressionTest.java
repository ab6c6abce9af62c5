package org.ubft.sim.byzantine;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.ubft.sim.scenario.AdversaryScenarios;
import org.ubft.sim.scenario.RunResult;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Seeds of {@link AdversaryScenarios#RANDOM} that found a liveness bug in the long sweep, kept as regression runs
 * (each failed before its fix and fails again when the fix is reverted; a run replays its seed exactly):
 * <ul>
 *   <li>5860 ({@code STOP_AFTER_WILL_COMMIT}, replica 1 paused until GST): the paused replica's state transfer lost its
 *       first chunk on a tail channel it lagged behind, waited 50 ms and then asked the silent Byzantine replica, and
 *       being behind it did not complain. Either fix below serves it now: the re-ask of the same source after 2 ms
 *       ({@code StateTransfer}, {@code TransferConfig#reaskNanos}; shown alone by {@code StateTransferTest}) or the
 *       far-ahead suspicion of seed 4992 (the run fails with both reverted).</li>
 *   <li>4992 ({@code AMNESIAC_FORGETS}: the leader restarts with its stream log wiped; replica 1 paused): replica 1
 *       was behind and held only requests ahead of its next one (the clients had their earlier replies), so it never
 *       complained and the other replica's complaint stayed alone. Fixed: a held request ahead of the next one counts
 *       as evidence of being behind ({@code Replica}'s far-ahead suspicion).</li>
 *   <li>3957 ({@code AMNESIAC_FORGETS}, rolled back; the leader of view 0 paused across the change to view 1): the
 *       leader's WILL_COMMIT promises waited for CERTIFY shares its peers had replaced by view 1's; it never sealed.
 *       Fixed: a replica keeps its own displaced share and answers CERTIFICATE_REQUEST with it
 *       ({@code DisplacedOwnShares}).</li>
 *   <li>7086 ({@code MUTATOR} in replica 2, replica 0 cut off until GST): the leader of view 0 caught up for 13 ms
 *       after GST before it complained, and the view change the other correct replica had started timed out; then the
 *       mutator's own view. Fixed: a replica whose request waited a whole timeout complains once f others did, even
 *       while it executes ({@code Replica}'s timers, {@code Complaints#aboutByOthers}). The certify-on-endorse fix of
 *       {@code LivenessRegressionTest} serves it too: it fails with both reverted.</li>
 *   <li>20400 and 21010 ({@code AMNESIAC_FORKS}, a follower paused past the leader's crash): the paused follower
 *       held only requests ahead of its next one and no gap of the amnesiac leader's dead stream, so the far-ahead
 *       rule, once it asked for such a gap (to close the view churn of {@code byz-gap-client-complainer}), never
 *       fired. Fixed: a peer's COMMIT for a slot from the next one on, which this replica has not decided, is
 *       evidence of being behind too ({@code LeaderSuspicion.behind}).</li>
 * </ul>
 */
class AdversaryRegressionTest {
    @ParameterizedTest(name = "adversary-random seed {0} ({1})")
    @CsvSource({
        "5860, STOP_AFTER_WILL_COMMIT",
        "4992, AMNESIAC_FORGETS",
        "3957, AMNESIAC_FORGETS",
        "7086, MUTATOR",
        "20400, AMNESIAC_FORKS",
        "21010, AMNESIAC_FORKS",
    })
    void aSeedThatOnceLostLivenessIsServed(long seed, RandomAdversary.Kind kind) {
        ByzProbe p = new ByzProbe(AdversaryScenarios.RANDOM, seed);
        RunResult r = p.result;
        assertEquals(kind, p.adversary().kind(), "the seed no longer draws the attack it found: pick it anew");
        assertTrue(r.ok(), () -> r.replayCommand("adversary-random-" + seed + ".trace") + ": " + r.violations().kept()
            + "\n" + r.countersLines());
        assertEquals(r.submitted(), r.accepted(), "seed " + seed);
    }
}
