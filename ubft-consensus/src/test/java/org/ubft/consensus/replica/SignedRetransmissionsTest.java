package org.ubft.consensus.replica;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.ubft.consensus.wire.ClientWire;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A client retransmits a request it has no reply to, signed, every timeout: a replica verifies the signature once,
 * when the signed copy replaces the unsigned one it holds, not on every retransmission (on a loaded machine the
 * retransmissions' verifications took a third of a replica's CPU). A forged signature is still caught the first time.
 */
class SignedRetransmissionsTest {
    @Test
    void aSignedRetransmissionOfARequestHeldSignedIsNotVerifiedAgain() {
        ModelCluster c = new ModelCluster(ReplicaConfig.defaults(3, 1), 1);
        c.crashed[0] = true; // no leader: the request stays pending at the followers
        Replica r = c.replicas[1];
        byte[] unsigned = request(1, "hello", false, false);
        byte[] signed = request(1, "hello", true, false);
        TestCrypto.CLIENT_VERIFICATIONS.set(0);
        r.onClientRequest(0, new UnsafeBuffer(unsigned), 0, unsigned.length);
        for (int i = 0; i < 5; i++) {
            r.onClientRequest(0, new UnsafeBuffer(signed), 0, signed.length);
        }
        assertEquals(1, TestCrypto.CLIENT_VERIFICATIONS.get(), "verified once, when the signed copy came");
        assertEquals(0, r.counters().dropped(ReplicaCounters.Drop.BAD_SIGNATURE));
    }

    @Test
    void aForgedSignatureIsDroppedAndTheRealOneStillAccepted() {
        ModelCluster c = new ModelCluster(ReplicaConfig.defaults(3, 1), 1);
        c.crashed[0] = true;
        Replica r = c.replicas[1];
        byte[] forged = request(1, "hello", true, true);
        byte[] signed = request(1, "hello", true, false);
        TestCrypto.CLIENT_VERIFICATIONS.set(0);
        r.onClientRequest(0, new UnsafeBuffer(forged), 0, forged.length);
        r.onClientRequest(0, new UnsafeBuffer(forged), 0, forged.length);
        assertEquals(2, r.counters().dropped(ReplicaCounters.Drop.BAD_SIGNATURE), "a forged copy never held");
        r.onClientRequest(0, new UnsafeBuffer(signed), 0, signed.length);
        r.onClientRequest(0, new UnsafeBuffer(forged), 0, forged.length); // held signed: ignored, as a retransmission
        assertEquals(3, TestCrypto.CLIENT_VERIFICATIONS.get());
        assertEquals(2, r.counters().dropped(ReplicaCounters.Drop.BAD_SIGNATURE));
        assertTrue(r.counters().toString().contains("dropped={BAD_SIGNATURE=2}"), r.counters().toString());
    }

    /**
     * A validly signed request with another payload under a number held here (a client equivocating) is dropped
     * before its signature is checked and does not replace the held request: taking it took from under the leader a
     * request it had proposed, which then no replica endorsed until a view change (adversary-mixed seed 1).
     */
    @Test
    void aSignedRequestWithAnotherPayloadUnderAHeldNumberIsDroppedUnchecked() {
        ModelCluster c = new ModelCluster(ReplicaConfig.defaults(3, 1), 1);
        c.crashed[0] = true;
        Replica r = c.replicas[1];
        byte[] unsigned = request(1, "hello", false, false);
        byte[] other = request(1, "other", true, false);
        TestCrypto.CLIENT_VERIFICATIONS.set(0);
        r.onClientRequest(0, new UnsafeBuffer(unsigned), 0, unsigned.length);
        r.onClientRequest(0, new UnsafeBuffer(other), 0, other.length);
        r.onClientRequest(0, new UnsafeBuffer(other), 0, other.length);
        assertEquals(0, TestCrypto.CLIENT_VERIFICATIONS.get(), "no signature checked for another request");
        assertEquals(2, r.counters().dropped(ReplicaCounters.Drop.EQUIVOCATED_REQUEST));
        byte[] signed = request(1, "hello", true, false);
        r.onClientRequest(0, new UnsafeBuffer(signed), 0, signed.length);
        assertEquals(1, TestCrypto.CLIENT_VERIFICATIONS.get(), "the held request's signed copy is checked and taken");
        assertEquals(2, r.counters().dropped(ReplicaCounters.Drop.EQUIVOCATED_REQUEST));
    }

    private static byte[] request(long number, String body, boolean sign, boolean forge) {
        byte[] payload = body.getBytes(StandardCharsets.US_ASCII);
        UnsafeBuffer b = new UnsafeBuffer(new byte[ClientWire.HEADER_BYTES + payload.length + ClientWire.SIGNATURE_BYTES]);
        int len = ClientWire.putRequest(b, 0, 0, number, new UnsafeBuffer(payload), 0, payload.length);
        if (!sign) {
            return java.util.Arrays.copyOf(b.byteArray(), len);
        }
        b.putByte(ClientWire.FLAGS_OFFSET, (byte) ClientWire.FLAG_SIGNED);
        TestCrypto.clientKey(0).sign(b.byteArray(), ClientWire.IDENTITY_OFFSET, ClientWire.identityLength(payload.length),
            b.byteArray(), len);
        if (forge) {
            b.putByte(len + 3, (byte) (b.getByte(len + 3) ^ 1));
        }
        return java.util.Arrays.copyOf(b.byteArray(), len + ClientWire.SIGNATURE_BYTES);
    }
}
