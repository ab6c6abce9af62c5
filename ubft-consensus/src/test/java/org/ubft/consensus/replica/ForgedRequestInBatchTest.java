package org.ubft.consensus.replica;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.ubft.consensus.wire.ClientWire;
import org.ubft.consensus.wire.ConsensusWire;
import org.ubft.consensus.wire.Writer;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Issue "Byzantine hardening", resources: a Byzantine leader's PREPARE whose batch holds a request with a forged client
 * signature (§5.4: a follower endorses a request it holds or one its client signed) is never endorsed on that
 * signature, and its signature is checked once in the PREPARE's view, not again at every client request that arrives
 * while the PREPARE waits (each arrival makes the follower try the waiting PREPAREs again). The client's own request
 * still endorses it.
 */
class ForgedRequestInBatchTest {
    @Test
    void aForgedSignatureInABatchIsCheckedOnceAndTheClientsOwnRequestStillEndorsesIt() {
        ModelCluster c = new ModelCluster(ReplicaConfig.defaults(3, 2), 7);
        int[] willCertify = new int[1];
        c.filter = (kind, from, to, b, o, l) -> {
            if (kind == ModelCluster.Kind.TBCAST && from == 1 && to == 0 && b.getByte(o) == ConsensusWire.WILL_CERTIFY) {
                willCertify[0]++;
            }
            return true;
        };
        Replica follower = c.replicas[1];
        byte[] payload = "the real payload".getBytes(StandardCharsets.US_ASCII);
        byte[] forged = ClientPreverifierTest.request(0, 1, "the real payload", true);
        byte[] batch = new byte[BatchFormat.HEADER + forged.length];
        new UnsafeBuffer(batch).putShort(0, (short) 1, ClientWire.ORDER);
        new UnsafeBuffer(batch).putLong(BatchFormat.TIME_OFFSET, c.wallClockMillis(1), ClientWire.ORDER);
        System.arraycopy(forged, 0, batch, BatchFormat.HEADER, forged.length);
        long s = follower.executedUpTo();
        byte[] prepare = message(w -> w.u8(ConsensusWire.PREPARE).i64(0).i64(s).i32(batch.length)
            .bytes(batch, 0, batch.length));
        TestCrypto.CLIENT_VERIFICATIONS.set(0);
        follower.onCtbcastDeliver(0, 1, new UnsafeBuffer(prepare), 0, prepare.length);
        assertEquals(1, TestCrypto.CLIENT_VERIFICATIONS.get(), "the forged signature checked once");
        for (long k = 1; k <= 10; k++) { // another client's requests arrive: each makes the follower try again
            byte[] other = unsigned(1, k, ("other-" + k).getBytes(StandardCharsets.US_ASCII));
            follower.onClientRequest(1, new UnsafeBuffer(other), 0, other.length);
        }
        assertEquals(1, TestCrypto.CLIENT_VERIFICATIONS.get(), "not checked again in the PREPARE's view");
        assertEquals(0, willCertify[0], "never endorsed on a forged signature");
        byte[] own = unsigned(0, 1, payload); // the client's own request, as the batch carries it
        follower.onClientRequest(0, new UnsafeBuffer(own), 0, own.length);
        assertEquals(1, willCertify[0], "endorsed once the follower holds the client's request");
    }

    private static byte[] unsigned(int client, long number, byte[] payload) {
        UnsafeBuffer b = new UnsafeBuffer(new byte[ClientWire.HEADER_BYTES + payload.length]);
        ClientWire.putRequest(b, 0, client, number, new UnsafeBuffer(payload), 0, payload.length);
        return b.byteArray();
    }

    private static byte[] message(java.util.function.Consumer<Writer> body) {
        UnsafeBuffer b = new UnsafeBuffer(new byte[1 << 12]);
        Writer w = new Writer().wrap(b, 0);
        body.accept(w);
        return Arrays.copyOf(b.byteArray(), w.length());
    }
}
