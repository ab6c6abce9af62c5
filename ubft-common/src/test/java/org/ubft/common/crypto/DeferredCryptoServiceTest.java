package org.ubft.common.crypto;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.ubft.common.NodeId;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link CryptoPool#deferred}: a worker that runs only at the owner's polls, its queue overflowing as a pool's does. */
class DeferredCryptoServiceTest {
    private static final int R0 = NodeId.replica(0);
    private static final int R1 = NodeId.replica(1);

    private final SigningKey key1 = TestKeys.key(R1);
    private final PublicKeys keys = PublicKeys.builder().add(R0, TestKeys.key(R0).publicKey())
        .add(R1, key1.publicKey()).build();
    private final UnsafeBuffer m = new UnsafeBuffer(new byte[8]);
    private final UnsafeBuffer sig = new UnsafeBuffer(new byte[64]);

    @Test
    void tasksWaitForThePollAndABurstPastTheQueueDropsTheOldest() {
        CryptoService service = CryptoPool.deferred(null, keys, 4, 64);
        key1.newSigner().sign(m, 0, 8, sig, 0);
        for (long id = 0; id < 6; id++) {
            assertTrue(service.submitVerify(id, id == 5 ? R0 : R1, m, 0, 8, sig, 0, 64));
        }
        assertEquals(2, service.droppedTasks(), "six submissions, room for four: the two oldest dropped");
        ResultLog log = new ResultLog();
        assertEquals(6, service.poll(log, 64));
        assertEquals(List.of("D 0", "D 1", "V 2 true", "V 3 true", "V 4 true", "V 5 false"), log.lines);
        assertEquals(0, service.poll(log, 64), "nothing waits any more");
    }

    @Test
    void aTaskSubmittedByAHandlerWaitsForTheNextPoll() {
        CryptoService service = CryptoPool.deferred(null, keys, 4, 64);
        key1.newSigner().sign(m, 0, 8, sig, 0);
        service.submitVerify(1, R1, m, 0, 8, sig, 0, 64);
        ResultLog log = new ResultLog() {
            @Override
            public void onVerified(long correlationId, boolean valid) {
                super.onVerified(correlationId, valid);
                if (correlationId == 1) {
                    service.submitVerify(2, R1, m, 0, 8, sig, 0, 64);
                }
            }
        };
        assertEquals(1, service.poll(log, 64));
        assertEquals(List.of("V 1 true"), log.lines);
        assertEquals(1, service.poll(log, 64));
        assertEquals(List.of("V 1 true", "V 2 true"), log.lines);
    }

    @Test
    void aPollDeliversAtMostItsLimitAndTheRestWaits() {
        CryptoService service = CryptoPool.deferred(null, keys, 4, 64);
        key1.newSigner().sign(m, 0, 8, sig, 0);
        for (long id = 0; id < 3; id++) {
            service.submitVerify(id, R1, m, 0, 8, sig, 0, 64);
        }
        ResultLog log = new ResultLog();
        assertEquals(2, service.poll(log, 2));
        assertEquals(1, service.poll(log, 2));
        assertEquals(List.of("V 0 true", "V 1 true", "V 2 true"), log.lines);
    }
}
