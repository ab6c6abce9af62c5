package org.ubft.consensus.replica;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.ubft.consensus.wire.ClientWire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PendingRequestsTest {
    private static final int CLIENT = 1;
    private static final int MEMBERS = 3;

    private static UnsafeBuffer request(long number, byte fill) {
        UnsafeBuffer b = new UnsafeBuffer(new byte[64]);
        byte[] payload = {fill, fill, fill, fill};
        ClientWire.putRequest(b, 0, CLIENT, number, new UnsafeBuffer(payload), 0, 4);
        return b;
    }

    private static void put(PendingRequests p, long number) {
        put(p, number, (byte) 0);
    }

    private static void put(PendingRequests p, long number, byte fill) {
        UnsafeBuffer b = request(number, fill);
        assertTrue(p.put(CLIENT, number, b, 0, ClientWire.HEADER_BYTES + 4, 0));
    }

    /** What a follower holding request {@code number} with payload bytes {@code fill} echoes: its identity digest. */
    private static UnsafeBuffer digestOf(long number, byte fill) {
        PendingRequests follower = new PendingRequests(2, 16, 64, MEMBERS);
        put(follower, number, fill);
        UnsafeBuffer d = new UnsafeBuffer(new byte[32]);
        d.putBytes(0, follower.identityDigest(), follower.identityDigestOffset(CLIENT, number), 32);
        return d;
    }

    private static void echo(PendingRequests p, long number, int replica) {
        p.echo(CLIENT, number, replica, digestOf(number, (byte) 0), 0);
    }

    /**
     * A follower's Echo Req may reach the leader before the client's own copy of the request: the echo still counts
     * once the request arrives (it was dropped, and the leader waited a slow-path timeout for it, request after
     * request, whenever it was the last replica the client sent to).
     */
    @Test
    void anEchoThatOvertakesTheRequestCounts() {
        PendingRequests p = new PendingRequests(2, 16, 64, MEMBERS);
        echo(p, 5, 1);
        echo(p, 5, 2);
        assertEquals(0, p.echoes(CLIENT, 5), "nothing held yet");
        put(p, 5);
        assertEquals(0b110, p.echoes(CLIENT, 5));
    }

    @Test
    void echoesOfAnotherNumberDoNotCountForTheHeldOne() {
        PendingRequests p = new PendingRequests(2, 16, 64, MEMBERS);
        put(p, 5);
        echo(p, 5, 1);
        echo(p, 21, 2); // the same entry, a newer number: it takes the entry
        assertEquals(0, p.echoes(CLIENT, 5));
        echo(p, 5, 1); // an older number than the entry's: ignored
        put(p, 21);
        assertEquals(0b100, p.echoes(CLIENT, 21), "the request joins the echoes that came first");
    }

    /**
     * A client that sends each replica another request under the same number: an echo of another request than the one
     * held here does not count, so the leader does not propose what the followers cannot endorse.
     */
    /** {@code request} with the signed flag set (PendingRequests keeps what the intake verified; no key needed here). */
    private static UnsafeBuffer signed(UnsafeBuffer request) {
        request.putByte(ClientWire.FLAGS_OFFSET, (byte) ClientWire.FLAG_SIGNED);
        return request;
    }

    /**
     * A signed copy replaces the unsigned request it signs, never another payload under the same number: a client that
     * signed another request under a number the leader had proposed unsigned took it from under the leader, and no
     * replica endorsed the slot until a view change (adversary-mixed seed 1).
     */
    @Test
    void aSignedCopyReplacesOnlyTheSameRequest() {
        PendingRequests p = new PendingRequests(2, 16, 64, MEMBERS);
        put(p, 5, (byte) 'A');
        UnsafeBuffer other = signed(request(5, (byte) 'B'));
        assertFalse(p.put(CLIENT, 5, other, 0, ClientWire.HEADER_BYTES + 4, 1));
        assertFalse(p.signed(CLIENT, 5));
        assertTrue(p.matches(CLIENT, 5, request(5, (byte) 'A'), 0, 4), "the request held is still the first one");
        assertFalse(p.matches(CLIENT, 5, other, 0, 4));
        UnsafeBuffer same = signed(request(5, (byte) 'A'));
        assertFalse(p.put(CLIENT, 5, same, 0, ClientWire.HEADER_BYTES + 4, 2)); // not new: the same request, signed
        assertTrue(p.signed(CLIENT, 5), "its signed copy replaces it");
    }

    @Test
    void anEchoOfAnotherRequestUnderTheSameNumberDoesNotCount() {
        PendingRequests p = new PendingRequests(2, 16, 64, MEMBERS);
        put(p, 5, (byte) 'A');
        p.echo(CLIENT, 5, 1, digestOf(5, (byte) 'B'), 0);
        p.echo(CLIENT, 5, 2, digestOf(5, (byte) 'A'), 0);
        assertEquals(0b100, p.echoes(CLIENT, 5));
        p.echo(CLIENT, 5, 1, digestOf(5, (byte) 'A'), 0); // 1 echoes again, now the same request
        assertEquals(0b110, p.echoes(CLIENT, 5));
    }
}
