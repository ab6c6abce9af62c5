package org.ubft.ctbcast.node;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.ubft.common.NodeId;
import org.ubft.common.crypto.CryptoPool;
import org.ubft.common.crypto.CryptoService;
import org.ubft.common.crypto.PublicKeys;
import org.ubft.common.crypto.SigningKey;
import org.ubft.ctbcast.core.SignatureListener;

import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CryptoSignaturePortTest {
    private static final SigningKey KEY0 = SigningKey.fromSeed(NodeId.replica(0), seed(1));
    private static final SigningKey KEY1 = SigningKey.fromSeed(NodeId.replica(1), seed(2));
    private static final PublicKeys KEYS = PublicKeys.builder()
        .add(NodeId.replica(0), KEY0.publicKey()).add(NodeId.replica(1), KEY1.publicKey()).build();

    private static byte[] seed(int b) {
        byte[] s = new byte[SigningKey.SEED_BYTES];
        java.util.Arrays.fill(s, (byte) b);
        return s;
    }

    /** Records results by token. */
    static final class Results implements SignatureListener {
        final Map<Long, byte[]> signed = new HashMap<>();
        final Map<Long, Boolean> verified = new HashMap<>();

        @Override
        public void onSigned(long token, DirectBuffer signature, int offset) {
            byte[] s = new byte[64];
            signature.getBytes(offset, s);
            assertTrue(signed.put(token, s) == null, "token " + token + " signed twice");
        }

        @Override
        public void onVerified(long token, boolean valid) {
            assertTrue(verified.put(token, valid) == null, "token " + token + " verified twice");
        }

        int count() {
            return signed.size() + verified.size();
        }
    }

    private static UnsafeBuffer data(int i) {
        byte[] b = new byte[72];
        for (int j = 0; j < b.length; j++) {
            b[j] = (byte) (i * 13 + j);
        }
        return new UnsafeBuffer(b);
    }

    private static void awaitResults(CryptoSignaturePort port, Results results, int expected) {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (results.count() < expected) {
            port.doWork();
            assertTrue(System.nanoTime() < deadline, "results did not come: " + results.count() + "/" + expected);
            Thread.onSpinWait();
        }
    }

    /** Signs, then verifies good and bad signatures, through the port; results carry the core's tokens. */
    private static void signAndVerify(CryptoService service) {
        CryptoSignaturePort port = new CryptoSignaturePort(service, 8);
        Results results = new Results();
        port.bind(results);
        assertTrue(port.requestSign(0xABCDL, data(1), 0, 72));
        assertTrue(port.requestSign(0xABCEL, data(2), 0, 72));
        assertEquals(0, results.count(), "a result inside the request");
        awaitResults(port, results, 2);
        byte[] sig1 = results.signed.get(0xABCDL);
        assertNotNull(sig1);
        assertTrue(KEYS.verify(NodeId.replica(0), data(1).byteArray(), 0, 72, sig1, 0, 64));

        UnsafeBuffer sig = new UnsafeBuffer(sig1);
        assertTrue(port.requestVerify(1, 0, data(1), 0, 72, sig, 0));  // good
        assertTrue(port.requestVerify(2, 1, data(1), 0, 72, sig, 0));  // wrong signer
        assertTrue(port.requestVerify(3, 0, data(2), 0, 72, sig, 0));  // other data
        assertTrue(port.requestVerify(4, 7, data(1), 0, 72, sig, 0));  // unknown signer
        assertTrue(port.requestVerify(5, 0, new UnsafeBuffer(data(1).byteArray()), 0, 72,
            new UnsafeBuffer(results.signed.get(0xABCEL)), 0)); // signature of other data
        awaitResults(port, results, 7);
        assertEquals(Boolean.TRUE, results.verified.get(1L));
        assertEquals(Boolean.FALSE, results.verified.get(2L));
        assertEquals(Boolean.FALSE, results.verified.get(3L));
        assertEquals(Boolean.FALSE, results.verified.get(4L));
        assertEquals(Boolean.FALSE, results.verified.get(5L));
        assertEquals(0, port.outstanding());
    }

    @Test
    void synchronousService() {
        signAndVerify(CryptoPool.synchronous(KEY0, KEYS, 16, 256));
    }

    @Test
    void oneThreadPool() {
        try (CryptoPool pool = new CryptoPool(1)) {
            CryptoService owner = pool.newOwner(KEY0, KEYS, 16, 256);
            pool.start();
            signAndVerify(owner);
        }
    }

    @Test
    void refusesWhenAllSlotsAreTaken() {
        CryptoSignaturePort port = new CryptoSignaturePort(CryptoPool.synchronous(KEY0, KEYS, 16, 256), 2);
        Results results = new Results();
        port.bind(results);
        assertTrue(port.requestSign(1, data(1), 0, 72));
        assertTrue(port.requestSign(2, data(2), 0, 72));
        assertFalse(port.requestSign(3, data(3), 0, 72));
        awaitResults(port, results, 2);
        assertTrue(port.requestSign(3, data(3), 0, 72));
        awaitResults(port, results, 3);
    }

    /** Tasks the pool drops (its queue of 1 overflows) are submitted again: every request gets its result. */
    @Test
    void droppedTasksAreResubmitted() {
        try (CryptoPool pool = new CryptoPool(1)) {
            CryptoService owner = pool.newOwner(KEY0, KEYS, 1, 256);
            CryptoSignaturePort port = new CryptoSignaturePort(owner, 8);
            Results results = new Results();
            port.bind(results);
            for (int i = 0; i < 3; i++) { // 2 task objects and 2 drop reports: the 3rd drops the 2nd
                assertTrue(port.requestSign(100 + i, data(i), 0, 72));
            }
            assertFalse(port.requestSign(103, data(3), 0, 72), "the service refuses: no free task");
            port.doWork(); // collects the drop reports
            assertTrue(port.requestSign(103, data(3), 0, 72));
            for (int i = 0; i < 4; i++) {
                port.doWork(); // no workers yet: the queue of 1 keeps dropping the oldest
            }
            assertTrue(port.droppedCount() > 0, "nothing was dropped");
            pool.start();
            awaitResults(port, results, 4);
            for (int i = 0; i < 4; i++) {
                byte[] s = results.signed.get(100L + i);
                assertNotNull(s, "no signature for request " + i);
                assertTrue(KEYS.verify(NodeId.replica(0), data(i).byteArray(), 0, 72, s, 0, 64));
            }
            assertEquals(0, port.outstanding());
        }
    }
}
