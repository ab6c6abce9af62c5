package org.ubft.sim;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Seeds of correct-replica fault scenarios, with signatures and executions costing virtual CPU time, that lost
 * liveness (they were {@code Scenarios.KNOWN_BUGS}): {@code lagging-follower-partner-crash-cpu} 5 and
 * {@code restart-then-leader-crash-cpu} 10 failed on 5fa2022 and pass since the liveness fixes of
 * {@code AdversaryRegressionTest} (which of them serves each was not isolated); {@code lagging-follower-partner-crash-cpu}
 * 44, 62, 64 and 90 failed on 83fe5fe and pass since a replica certifies a slot on endorsing it when a peer's CERTIFY
 * came first ({@code Agreement.acceptPrepare}); {@code byz-forged-then-genuine} 9 (a correct run with forgery: the leader
 * crashed on the slow path with 31 slots decided since the checkpoint, and every later view timed out re-committing
 * them before it reached a new slot) fails without {@code Agreement.recommitted}. {@code twins-random} 57, 2301, 2415
 * and 3891 (a Byzantine twin decided slots with one correct replica while its stream was dead at the other; the first
 * had nothing pending and never complained, so no client gathered f+1 replies) fail without {@code ViewChange.askedAgain}
 * (57, 2301 and 3891 also without the client's retransmissions to every replica); {@code adversary-random} 32070 (a
 * follower sealing view 2 waited for good for the leader's CERTIFY share of it: the leader had sealed on certifying,
 * before its own share came back over the loopback, so it never held it to answer CERTIFICATE_REQUEST) fails unless
 * {@code SlowPath.certify} holds its own share at once; {@code twins-random} 3713 (a replica cut off until GST followed
 * the others' views one timeout at a time while they waited for it to lead the later view, and the timeouts doubled
 * before GST kept the correct replicas apart for 160 ms) fails without {@code LeaderSuspicion.leaderLeft}; {@code
 * adversary-mixed} 2236 and 1832 (a follower paused across the views a forging leader sealed early stays sealing view
 * 0, short of the other correct replica's share of a slot it promised: that replica holds it only as a displaced share)
 * fail, with {@code LeaderSuspicion.leaderLeft}, unless {@code GapRecovery.onCertificateRequest} answers with its displaced own
 * share besides the others it holds (2236) and {@code DisplacedOwnShares} keeps the oldest displaced share (1832);
 * {@code twins-random} 299 and 2301 (the correct replicas waited out a doubled view-change timeout in the view of a
 * twin whose stream they had proven equivocating, 80 ms after GST; both passed by a narrow margin of timing before the
 * tail channels' restart fillers, which moved it) fail without the complaint about a leader proven Byzantine ({@code
 * LeaderSuspicion}, {@code PeerState.equivocated}); {@code twins-random} 22199 and {@code twins-e-1385} 1 (a correct
 * replica cut off from the start executed nothing before GST; a request timeout that stayed long until its first
 * execution, or one that followed the long waits before GST, made its complaint too late to replace a Byzantine twin's
 * view) fail unless the cold-start grace of {@code RequestTimeout} ends a few timeouts after the first request arrived;
 * {@code adversary-refusing} 95101 (a follower mute toward one correct replica and complaining: each view ended on its
 * complaint and one correct replica's request timeout while the leader re-committed the window on the slow path, views 2
 * to 9) fails without {@code ViewChange.recommitting}.
 */
class LivenessRegressionTest {
    @ParameterizedTest(name = "{0} seed {1}")
    @CsvSource({
        "lagging-follower-partner-crash-cpu, 5",
        "lagging-follower-partner-crash-cpu, 44",
        "lagging-follower-partner-crash-cpu, 62",
        "lagging-follower-partner-crash-cpu, 64",
        "lagging-follower-partner-crash-cpu, 90",
        "restart-then-leader-crash-cpu, 10",
        "byz-forged-then-genuine, 9",
        "twins-random, 57",
        "twins-random, 299",
        "twins-random, 2301",
        "twins-random, 2415",
        "twins-random, 3891",
        "adversary-random, 32070",
        "twins-random, 3713",
        "adversary-mixed, 2236",
        "adversary-mixed, 1832",
        "twins-random, 22199",
        "twins-e-1385, 1",
        "adversary-refusing, 95101",
    })
    void aSeedThatOnceLostLivenessIsServed(String name, long seed) {
        RegressionRuns.assertServed(name, seed);
    }
}
