package org.ubft.sim.byzantine;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.common.crypto.SigningKey;
import org.ubft.consensus.wire.ClientWire;
import org.ubft.sim.Payloads;

import java.util.SplittableRandom;

/**
 * Reads and forges the REQUESTs ({@link ClientWire}) a Byzantine client sends: the payload of one, a workload payload
 * for the same request with other fill bytes ({@link #variant}), and a REQUEST for any number and payload, signed with
 * the client's own key or not ({@link #request}).
 */
final class ClientRequests {
    /** Fill bytes of a variant: 1 .. this (a workload payload fits: the simulator's fill is at most 32 bytes). */
    static final int MAX_VARIANT_FILL = 16;

    private ClientRequests() {
    }

    static byte[] payload(DirectBuffer b, int off) {
        byte[] payload = new byte[ClientWire.bodyLength(b, off)];
        b.getBytes(off + ClientWire.HEADER_BYTES, payload);
        return payload;
    }

    /** A workload payload of {@code client}'s request {@code seq} with random fill, different from {@code not}. */
    static byte[] variant(int client, long seq, byte[] not, SplittableRandom random) {
        byte[] fill = new byte[1 + random.nextInt(MAX_VARIANT_FILL)];
        random.nextBytes(fill);
        byte[] v = Payloads.request(client, seq, fill);
        if (java.util.Arrays.equals(v, not)) {
            v[v.length - 1] ^= 1;
        }
        return v;
    }

    /** A REQUEST of {@code client} for {@code number} carrying {@code payload}, signed with {@code key} if given. */
    static UnsafeBuffer request(int client, long number, byte[] payload, SigningKey key) {
        UnsafeBuffer m = new UnsafeBuffer(new byte[ClientWire.HEADER_BYTES + payload.length
            + (key == null ? 0 : ClientWire.SIGNATURE_BYTES)]);
        int len = ClientWire.putRequest(m, 0, client, number, new UnsafeBuffer(payload), 0, payload.length);
        if (key != null) {
            m.putByte(ClientWire.FLAGS_OFFSET, (byte) ClientWire.FLAG_SIGNED);
            key.sign(m.byteArray(), ClientWire.IDENTITY_OFFSET, ClientWire.identityLength(payload.length),
                m.byteArray(), len);
        }
        return m;
    }
}
