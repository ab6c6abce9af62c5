package org.ubft.sim.check;

import org.junit.jupiter.api.Test;
import org.ubft.sim.Payloads;
import org.ubft.sim.Probe;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The checkers on hand-made events: each passes a correct history and reports the broken one. */
class CheckersTest {
    private static final byte[] A = Payloads.request(0, 1, new byte[] {1});
    private static final byte[] B = Payloads.request(1, 1, new byte[] {2});

    @Test
    void agreementComparesPositionsAcrossCorrectReplicasAndAcceptedReplies() {
        Violations v = new Violations();
        AgreementChecker c = new AgreementChecker(v, i -> i != 2);
        c.executed(1, 0, 0, A);
        c.executed(2, 1, 0, A);
        c.executed(3, 2, 0, B); // not correct: ignored
        c.accepted(4, 0, 1, 10, Payloads.reply(0, new Payloads.RequestId(0, 1)));
        assertTrue(v.isEmpty(), v.kept().toString());
        c.executed(5, 1, 1, B);
        c.executed(6, 0, 1, A);
        c.accepted(7, 1, 1, 11, Payloads.reply(0, new Payloads.RequestId(1, 1)));
        assertEquals(2, v.counts().get(AgreementChecker.NAME), v.kept().toString());
        assertTrue(v.kept().get(0).message().startsWith("replica-0 executed c0#1"), v.kept().toString());
    }

    @Test
    void validityNeedsTheSubmittedBytesAndTheRightReply() {
        Violations v = new Violations();
        ValidityChecker c = new ValidityChecker(v, i -> true);
        c.submitted(1, 0, 1, 10, A);
        c.executed(2, 0, 0, A);
        c.accepted(3, 0, 1, 10, Payloads.reply(0, new Payloads.RequestId(0, 1)));
        assertTrue(v.isEmpty(), v.kept().toString());
        c.executed(4, 1, 1, B); // never submitted
        byte[] changed = A.clone();
        changed[changed.length - 1] = 9;
        c.executed(5, 1, 2, changed); // submitted id, other bytes
        c.executed(6, 1, 3, new byte[] {7}); // not a workload request
        c.accepted(7, 0, 1, 10, Payloads.reply(0, new Payloads.RequestId(0, 2)));
        assertEquals(4, v.total(), v.kept().toString());
    }

    @Test
    void noDuplicateAllowsReexecutingAPositionAfterARestartButNotAnotherPosition() {
        Violations v = new Violations();
        NoDuplicateChecker c = new NoDuplicateChecker(v, i -> true);
        c.executed(1, 0, 0, A);
        c.executed(2, 0, 1, B);
        c.restored(3, 0, 1); // restarted from a snapshot after A
        c.executed(4, 0, 1, B); // B again at its position: fine
        assertTrue(v.isEmpty(), v.kept().toString());
        c.executed(5, 0, 2, A); // A again at another position
        assertEquals(1, v.total(), v.kept().toString());
        c.restored(6, 1, 2); // replica 1's state holds A (position 0) and B
        c.executed(7, 1, 2, A);
        assertEquals(2, v.total(), v.kept().toString());
    }

    @Test
    void boundedMemoryReportsEachProbeOnceWithItsValue() {
        Violations v = new Violations();
        AtomicLong size = new AtomicLong(3);
        BoundedMemoryChecker c = new BoundedMemoryChecker(v, List.of(new Probe("ring", size::get, 4)));
        c.tick(1);
        size.set(5);
        c.tick(2);
        size.set(9);
        c.finish(3);
        assertEquals(1, v.total());
        assertEquals("ring = 5, over its bound 4", v.kept().get(0).message());
        assertEquals(9, c.max("ring"));
    }

    @Test
    void livenessCountsFromTheLaterOfSubmissionAndGst() {
        Violations v = new Violations();
        LivenessChecker c = new LivenessChecker(v, 100, 50, () -> "COUNTERS");
        c.submitted(10, 0, 1, 1, A); // before GST: deadline 150
        c.submitted(120, 1, 1, 2, B); // deadline 170
        c.tick(150);
        assertTrue(v.isEmpty());
        c.accepted(160, 1, 1, 2, new byte[0]);
        c.tick(165);
        assertEquals(1, v.total());
        assertTrue(v.kept().get(0).message().startsWith("request c0#1 submitted at 10 ns not accepted by 150 ns"));
        assertTrue(v.kept().get(0).message().endsWith("\nCOUNTERS"));
        c.finish(1_000);
        assertEquals(1, v.total(), "each late request once");
        assertFalse(v.has(AgreementChecker.NAME));
    }

    @Test
    void validityAcceptsWhatAByzantineClientReallySentToSomeReplicaOnly() {
        Violations v = new Violations();
        ValidityChecker c = new ValidityChecker(v, i -> true);
        byte[] variant = Payloads.request(0, 1, new byte[] {9, 9});
        byte[] other = Payloads.request(0, 1, new byte[] {7});
        c.submitted(1, 0, 1, 10, A);
        c.sent(2, 0, 1, 10, 2, variant);
        c.sent(3, 1, 1, 10, 2, other); // client 1 cannot send client 0's request: not recorded
        c.executed(4, 0, 0, A);
        c.executed(5, 1, 0, variant);
        assertTrue(v.isEmpty(), v.kept().toString());
        c.executed(6, 2, 0, other);
        assertEquals(1, v.total(), v.kept().toString());
    }

    @Test
    void livenessIgnoresTheRequestsOfAByzantineClient() {
        Violations v = new Violations();
        LivenessChecker c = new LivenessChecker(v, 100, 50, () -> "COUNTERS", client -> client != 0);
        c.submitted(10, 0, 1, 1, A);
        c.submitted(10, 1, 1, 2, B);
        c.finish(1_000);
        assertEquals(1, v.total(), v.kept().toString());
        assertTrue(v.kept().get(0).message().startsWith("request c1#1"), v.kept().toString());
    }

    @Test
    void violationsKeepTheFirstFewOfEachChecker() {
        Violations v = new Violations();
        for (int i = 0; i < 20; i++) {
            v.report("x", i, "m" + i);
        }
        v.report("y", 0, "y");
        assertEquals(Violations.KEEP_PER_CHECKER + 1, v.kept().size());
        assertEquals(21, v.total());
        assertEquals(20L, v.counts().get("x"));
    }
}
