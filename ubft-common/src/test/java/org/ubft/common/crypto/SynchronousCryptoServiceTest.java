package org.ubft.common.crypto;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.ubft.common.NodeId;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SynchronousCryptoServiceTest {
    private static final int R0 = NodeId.replica(0);
    private static final int R1 = NodeId.replica(1);

    private final SigningKey key0 = TestKeys.key(R0);
    private final SigningKey key1 = TestKeys.key(R1);
    private final PublicKeys keys = PublicKeys.builder().add(R0, key0.publicKey()).add(R1, key1.publicKey()).build();

    /** The same seeded workload gives the same callbacks, in submission order, at the polls after the submits. */
    @Test
    void deterministicInSubmissionOrder() {
        List<String> first = run(42);
        assertEquals(first, run(42));
        assertTrue(first.size() > 100, first.toString());
    }

    private List<String> run(long seed) {
        CryptoService service = CryptoPool.synchronous(key0, keys, 8, 64);
        Random random = new Random(seed);
        ResultLog log = new ResultLog();
        List<String> expected = new ArrayList<>();
        UnsafeBuffer m = new UnsafeBuffer(new byte[64]);
        UnsafeBuffer sig = new UnsafeBuffer(new byte[64]);
        long id = 0;
        for (int round = 0; round < 40; round++) {
            int burst = 1 + random.nextInt(16);
            for (int i = 0; i < burst; i++, id++) {
                int length = random.nextInt(65);
                byte[] bytes = new byte[length];
                random.nextBytes(bytes);
                m.putBytes(0, bytes);
                switch (random.nextInt(3)) {
                    case 0:
                        assertTrue(service.submitSign(id, m, 0, length));
                        byte[] s = new byte[64];
                        key0.sign(bytes, 0, length, s, 0);
                        expected.add(ResultLog.signed(id, s));
                        break;
                    case 1:
                        key1.newSigner().sign(m, 0, length, sig, 0);
                        assertTrue(service.submitVerify(id, R1, m, 0, length, sig, 0, 64));
                        expected.add("V " + id + " true");
                        break;
                    default:
                        key1.newSigner().sign(m, 0, length, sig, 0);
                        assertTrue(service.submitVerify(id, R0, m, 0, length, sig, 0, 64));
                        expected.add("V " + id + " false");
                        break;
                }
            }
            List<String> got = new ArrayList<>();
            ResultLog roundLog = new ResultLog();
            while (service.poll(roundLog, 1 + random.nextInt(5)) > 0) {
                got.addAll(roundLog.lines);
                roundLog.lines.clear();
            }
            assertEquals(expected.subList(expected.size() - burst, expected.size()), got, "round " + round);
            log.lines.addAll(got);
        }
        assertEquals(0, service.droppedTasks());
        assertEquals(0, service.refusedSubmissions());
        return log.lines;
    }

    @Test
    void refusesWhenTwiceTheCapacityOfResultsWaits() {
        CryptoService service = CryptoPool.synchronous(null, keys, 2, 16);
        UnsafeBuffer m = new UnsafeBuffer(new byte[16]);
        for (long id = 0; id < 4; id++) {
            assertTrue(service.submitVerify(id, R0, m, 0, 16, m, 0, 16));
        }
        assertFalse(service.submitVerify(4, R0, m, 0, 16, m, 0, 16));
        assertEquals(1, service.refusedSubmissions());
        ResultLog log = new ResultLog();
        assertEquals(4, service.poll(log, 10));
        assertEquals(List.of("V 0 false", "V 1 false", "V 2 false", "V 3 false"), log.lines);
        assertTrue(service.submitVerify(5, R0, m, 0, 16, m, 0, 16));
    }
}
