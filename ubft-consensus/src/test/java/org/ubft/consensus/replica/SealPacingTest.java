package org.ubft.consensus.replica;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.ubft.consensus.wire.ConsensusWire;
import org.ubft.consensus.wire.Writer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Algorithm 3, lines 4-6 with a wide window: the seal promised a CERTIFY for every slot decided on the fast path since
 * the checkpoint (W = 256 deployed). It signs at most {@link SlowPath#BULK_CERTIFIES_PER_CYCLE} of them per duty
 * cycle, so that the loop serves its peers in between (signed all at once: up to about 250 signatures in one cycle,
 * over the simulator's bound, leader-crash-w256), and seals only once every one is signed. The answers to a peer's
 * CERTIFICATE_REQUESTs share that allowance: a sealing peer asks for every promised slot at once.
 */
class SealPacingTest {
    @Test
    void theSealSignsItsPromisedCertifiesAFewPerDutyCycle() {
        ReplicaConfig config = ReplicaConfig.defaults(3, 4).withWindow(256).withTimeouts(500_000, 20_000_000, 20_000_000);
        ModelCluster c = new ModelCluster(config, 7);
        assertTrue(c.runUntilDone(60, 5_000_000_000L), "fast path");
        long since = c.replicas[1].executedUpTo() - c.replicas[1].checkpointSeq();
        assertTrue(since > 2 * SlowPath.BULK_CERTIFIES_PER_CYCLE, "slots decided since the checkpoint: " + since);
        c.crashed[0] = true; // the leader: the followers complain (request timeout) and seal view 0
        long worst = 0;
        for (int step = 0; step < 200_000 && c.replicas[1].view() == 0; step++) {
            long before = TestCrypto.SIGNATURES.get();
            c.run(1_000); // one duty cycle of each live replica
            worst = Math.max(worst, TestCrypto.SIGNATURES.get() - before);
        }
        assertEquals(1, c.replicas[1].view(), "the followers sealed view 0");
        // two replicas, each at most BULK_CERTIFIES_PER_CYCLE CERTIFYs and a few CTBcast signatures per cycle
        assertTrue(worst <= 2L * (SlowPath.BULK_CERTIFIES_PER_CYCLE + 8), "signatures in one duty cycle: " + worst
            + " for " + since + " promised slots");
        assertTrue(c.runUntilDone(80, 10_000_000_000L), "view 1 serves the clients");
    }

    @Test
    void answersToCertificateRequestsAreSignedAFewPerDutyCycle() {
        ReplicaConfig config = ReplicaConfig.defaults(3, 4).withWindow(256).withTimeouts(20_000_000, 500_000_000,
            500_000_000);
        ModelCluster c = new ModelCluster(config, 11);
        assertTrue(c.runUntilDone(60, 5_000_000_000L), "fast path");
        c.run(2_000_000);
        long from = c.replicas[2].checkpointSeq();
        long to = c.replicas[2].executedUpTo();
        assertTrue(to - from > 2 * SlowPath.BULK_CERTIFIES_PER_CYCLE, "slots decided since the checkpoint: " + (to - from));
        // replica 1 asks replica 2 for the shares of every slot of view 0 at once, as a sealing peer does
        UnsafeBuffer m = new UnsafeBuffer(new byte[64]);
        Writer w = new Writer();
        for (long s = from; s < to; s++) {
            w.wrap(m, 0).u8(ConsensusWire.CERTIFICATE_REQUEST).i64(0).i64(s).bytes(new byte[32], 0, 32);
            c.sendAs(1, 2, m, 0, w.length());
        }
        long worst = 0;
        long total = 0;
        for (int step = 0; step < 2_000; step++) {
            long before = c.cryptos[2].signatures;
            c.run(1_000); // one duty cycle of each replica
            long signed = c.cryptos[2].signatures - before;
            worst = Math.max(worst, signed);
            total += signed;
        }
        assertTrue(total >= SlowPath.BULK_CERTIFIES_PER_CYCLE, "the requests were answered with CERTIFYs: " + total);
        assertTrue(worst <= SlowPath.BULK_CERTIFIES_PER_CYCLE + 4, "replica 2's signatures in one duty cycle: " + worst
            + " for " + (to - from) + " requests");
    }
}
