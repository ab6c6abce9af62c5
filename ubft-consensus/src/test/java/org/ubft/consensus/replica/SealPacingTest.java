package org.ubft.consensus.replica;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Algorithm 3, lines 4-6 with a wide window: the seal promised a CERTIFY for every slot decided on the fast path since
 * the checkpoint (W = 256 deployed). It signs at most {@link ViewChange#SEAL_CERTIFIES_PER_CALL} of them per duty
 * cycle, so that the loop serves its peers in between (signed all at once: up to about 250 signatures in one cycle,
 * over the simulator's bound, leader-crash-w256), and seals only once every one is signed.
 */
class SealPacingTest {
    @Test
    void theSealSignsItsPromisedCertifiesAFewPerDutyCycle() {
        ReplicaConfig config = ReplicaConfig.defaults(3, 4).withWindow(256).withTimeouts(500_000, 20_000_000, 20_000_000);
        ModelCluster c = new ModelCluster(config, 7);
        assertTrue(c.runUntilDone(60, 5_000_000_000L), "fast path");
        long since = c.replicas[1].executedUpTo() - c.replicas[1].checkpointSeq();
        assertTrue(since > 2 * ViewChange.SEAL_CERTIFIES_PER_CALL, "slots decided since the checkpoint: " + since);
        c.crashed[0] = true; // the leader: the followers complain (request timeout) and seal view 0
        long worst = 0;
        for (int step = 0; step < 200_000 && c.replicas[1].view() == 0; step++) {
            long before = TestCrypto.SIGNATURES.get();
            c.run(1_000); // one duty cycle of each live replica
            worst = Math.max(worst, TestCrypto.SIGNATURES.get() - before);
        }
        assertEquals(1, c.replicas[1].view(), "the followers sealed view 0");
        // two replicas, each at most SEAL_CERTIFIES_PER_CALL CERTIFYs and a few CTBcast signatures per cycle
        assertTrue(worst <= 2L * (ViewChange.SEAL_CERTIFIES_PER_CALL + 8), "signatures in one duty cycle: " + worst
            + " for " + since + " promised slots");
        assertTrue(c.runUntilDone(80, 10_000_000_000L), "view 1 serves the clients");
    }
}
