package org.ubft.consensus.replica;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.ubft.consensus.wire.ClientWire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PendingRequestsTest {
    private static final int CLIENT = 1;

    private static UnsafeBuffer request(long number) {
        UnsafeBuffer b = new UnsafeBuffer(new byte[64]);
        ClientWire.putRequest(b, 0, CLIENT, number, new UnsafeBuffer(new byte[4]), 0, 4);
        return b;
    }

    private static void put(PendingRequests p, long number) {
        UnsafeBuffer b = request(number);
        assertTrue(p.put(CLIENT, number, b, 0, ClientWire.HEADER_BYTES + 4, 0));
    }

    /**
     * A follower's Echo Req may reach the leader before the client's own copy of the request: the echo still counts
     * once the request arrives (it was dropped, and the leader waited a slow-path timeout for it, request after
     * request, whenever it was the last replica the client sent to).
     */
    @Test
    void anEchoThatOvertakesTheRequestCounts() {
        PendingRequests p = new PendingRequests(2, 16, 64);
        p.echo(CLIENT, 5, 1);
        p.echo(CLIENT, 5, 2);
        put(p, 5);
        assertEquals(0b110, p.echoes(CLIENT, 5));
    }

    @Test
    void echoesOfAnotherNumberDoNotCountForTheHeldOne() {
        PendingRequests p = new PendingRequests(2, 16, 64);
        put(p, 5);
        p.echo(CLIENT, 5, 1);
        p.echo(CLIENT, 21, 2); // the same entry, a newer number: it takes the entry
        assertEquals(0, p.echoes(CLIENT, 5));
        assertEquals(0b100, p.echoes(CLIENT, 21));
        p.echo(CLIENT, 5, 1); // an older number than the entry's: ignored
        assertEquals(0b100, p.echoes(CLIENT, 21));
        put(p, 21);
        assertEquals(0b100, p.echoes(CLIENT, 21), "the request joins the echoes that came first");
    }
}
