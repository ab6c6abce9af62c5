package org.ubft.common.crypto;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.ubft.common.NodeId;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link PerSignerCryptoService}: the owner signs inline, each replica's signatures are checked in that replica's own
 * queue of a pool, so one replica's flood of checks fills only its own queue.
 */
@Timeout(60) // a hang guard, not a speed check
class PerSignerCryptoServiceTest {
    private static final int R0 = NodeId.replica(0);
    private static final int R1 = NodeId.replica(1);
    private static final int R2 = NodeId.replica(2);

    private final SigningKey[] keys = TestKeys.keys(R0, R1, R2);
    private final PublicKeys publicKeys = TestKeys.publicKeys(keys);

    private static UnsafeBuffer bytes(int seed, int length) {
        byte[] m = new byte[length];
        for (int i = 0; i < length; i++) {
            m[i] = (byte) (seed * 31 + i);
        }
        return new UnsafeBuffer(m);
    }

    private UnsafeBuffer signature(int replica, UnsafeBuffer message) {
        byte[] sig = new byte[64];
        keys[replica].sign(message.byteArray(), 0, message.capacity(), sig, 0);
        return new UnsafeBuffer(sig);
    }

    @Test
    void signsInlineAndChecksEachReplicaInItsOwnQueue() {
        try (CryptoPool pool = new CryptoPool(1)) {
            CryptoService inline = CryptoPool.synchronous(keys[0], publicKeys, 8, 128);
            CryptoService[] perPeer = {null, pool.newOwner(null, publicKeys, 4, 128),
                pool.newOwner(null, publicKeys, 4, 128)};
            PerSignerCryptoService service = new PerSignerCryptoService(inline, perPeer);
            assertEquals(inline, service.serviceOf(R0), "no queue of its own: the inline service");
            assertEquals(perPeer[1], service.serviceOf(R1));
            assertEquals(inline, service.serviceOf(NodeId.client(1)), "not a replica: the inline service");
            assertEquals(inline, service.serviceOf(NodeId.replica(7)), "no such replica: the inline service");
            assertEquals(inline, service.serviceOf(-1), "garbage off the wire: the inline service");

            UnsafeBuffer good = bytes(2, 40);
            assertTrue(service.submitVerify(100, R2, good, 0, 40, signature(2, good), 0, 64));
            int floodAccepted = 0;
            for (int i = 0; i < 40; i++) { // replica 1 floods checks of forged signatures; nobody polls meanwhile
                UnsafeBuffer m = bytes(1000 + i, 40);
                if (service.submitVerify(i, R1, m, 0, 40, bytes(i, 64), 0, 64)) {
                    floodAccepted++;
                }
            }
            assertTrue(floodAccepted > 4 && floodAccepted < 40,
                "its own queue: 4 waiting, some more dropping the oldest, the rest refused: " + floodAccepted);
            int drops = floodAccepted - 4;
            UnsafeBuffer mine = bytes(3, 40);
            assertTrue(service.submitSign(200, mine, 0, 40));
            assertTrue(service.submitVerify(300, NodeId.client(0), mine, 0, 40, bytes(9, 64), 0, 64));
            assertEquals(floodAccepted + 1, service.routedVerifications(), "replica 2's check and replica 1's accepted ones");

            // the pool has not started: only the inline results and replica 1's drop reports come back
            ResultLog log = new ResultLog();
            service.poll(log, 100);
            assertTrue(log.lines.contains(ResultLog.signed(200, signature(0, mine).byteArray())), log.lines.toString());
            assertTrue(log.lines.contains("V 300 false"), log.lines.toString());
            assertEquals(drops, log.lines.stream().filter(l -> l.startsWith("D ")).count(), log.lines.toString());
            assertFalse(log.lines.stream().anyMatch(l -> l.startsWith("V 100")), "replica 2's check still waits");
            assertEquals(drops, service.droppedTasks());
            assertEquals(40 - floodAccepted, service.refusedSubmissions());

            pool.start();
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (log.lines.size() < 2 + floodAccepted + 1 && System.nanoTime() < deadline) {
                service.poll(log, 100);
                Thread.onSpinWait();
            }
            assertTrue(log.lines.contains("V 100 true"), "replica 1's flood did not push out replica 2's check: "
                + log.lines);
            List<String> flood = new ArrayList<>();
            for (String l : log.lines) {
                if (l.startsWith("V ") && !l.startsWith("V 100") && !l.startsWith("V 300")) {
                    flood.add(l);
                }
            }
            assertEquals(4, flood.size(), log.lines.toString());
            assertTrue(flood.stream().allMatch(l -> l.endsWith(" false")), flood.toString());
            assertEquals(2 + floodAccepted + 1, log.lines.size(), "exactly one callback per accepted submission: " + log.lines);
        }
    }
}
