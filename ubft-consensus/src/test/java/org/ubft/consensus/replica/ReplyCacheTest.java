package org.ubft.consensus.replica;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.ubft.consensus.wire.ClientWire;
import org.ubft.consensus.wire.Reader;
import org.ubft.consensus.wire.Writer;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Replies of a client's requests in flight are cached ({@link ClientTable}): a lost one is sent again, not lost. */
class ReplyCacheTest {
    private static byte[] request(int client, long number, String body) {
        byte[] payload = body.getBytes();
        UnsafeBuffer b = new UnsafeBuffer(new byte[ClientWire.HEADER_BYTES + payload.length]);
        ClientWire.putRequest(b, 0, client, number, new UnsafeBuffer(payload), 0, payload.length);
        return b.byteArray();
    }

    private static void sendToAll(ModelCluster c, int client, byte[] m) {
        for (Replica r : c.replicas) {
            r.onClientRequest(client, new UnsafeBuffer(m), 0, m.length);
        }
    }

    @Test
    void theReplyOfAnEarlierRequestInFlightIsSentAgainAfterLaterOnesExecuted() {
        ModelCluster c = new ModelCluster(ReplicaConfig.defaults(3, 2).withWindow(16), 9);
        c.clientList[0].target = 0;
        c.clientList[1].target = 0; // client 1 is driven by hand, client 0 idle
        List<long[]> replies = new ArrayList<>(); // {replica, number}
        List<byte[]> bodies = new ArrayList<>();
        boolean[] loseFirst = {true};
        c.filter = (kind, from, to, b, o, l) -> {
            if (kind != ModelCluster.Kind.REPLY || to != 1) {
                return true;
            }
            long number = ClientWire.number(b, o);
            if (number == 1 && loseFirst[0]) {
                return false; // every replica's first reply to request 1 is lost
            }
            replies.add(new long[] {from, number});
            byte[] body = new byte[l - ClientWire.HEADER_BYTES];
            b.getBytes(o + ClientWire.HEADER_BYTES, body);
            bodies.add(body);
            return true;
        };
        for (long k = 1; k <= ClientWire.MAX_IN_FLIGHT; k++) { // the most a client may have in flight
            sendToAll(c, 1, request(1, k, "r" + k));
        }
        c.run(20_000_000);
        for (Replica r : c.replicas) {
            assertEquals(ClientWire.MAX_IN_FLIGHT, r.clientTable().lastExecuted(1), r.counters().toString());
        }
        assertTrue(replies.stream().noneMatch(x -> x[1] == 1));
        loseFirst[0] = false;
        sendToAll(c, 1, request(1, 1, "r1")); // the client's retransmission
        c.run(1_000_000);
        int answered = 0;
        for (int i = 0; i < replies.size(); i++) {
            if (replies.get(i)[1] == 1) {
                answered++;
                assertArrayEquals("1r".getBytes(), bodies.get(i));
            }
        }
        assertEquals(3, answered, "every replica answers request 1 again from its cache");
        for (Replica r : c.replicas) {
            assertEquals(ClientWire.MAX_IN_FLIGHT, r.counters().executedRequests(), "executed once each");
        }
    }

    @Test
    void theCacheKeepsTheLastDepthRepliesPerClientAndSurvivesEncodeAndRestore() {
        ClientTable t = new ClientTable(2, 4, 8);
        for (long k = 1; k <= 6; k++) {
            t.record(1, k, ("re" + k).getBytes());
        }
        assertEquals(6, t.lastExecuted(1));
        assertEquals(-1, t.cached(1, 2), "more than depth ago");
        assertEquals(-1, t.cached(0, 1), "never executed");
        int e = t.cached(1, 3);
        assertTrue(e >= 0);
        assertArrayEquals("re3".getBytes(), Arrays.copyOfRange(t.replies(), t.replyOffset(e), t.replyOffset(e) + t.replyLength(e)));

        UnsafeBuffer b = new UnsafeBuffer(new byte[t.maxEncodedBytes()]);
        Writer w = new Writer().wrap(b, 0);
        t.encode(w);
        ClientTable copy = new ClientTable(2, 4, 8);
        assertTrue(copy.restore(b, 0, w.length(), new Reader()));
        assertEquals(6, copy.lastExecuted(1));
        int ce = copy.cached(1, 5);
        assertArrayEquals("re5".getBytes(), Arrays.copyOfRange(copy.replies(), copy.replyOffset(ce), copy.replyOffset(ce) + copy.replyLength(ce)));
        // an entry in the wrong place, or a number above the client's last, is not a table
        byte[] bad = Arrays.copyOf(b.byteArray(), w.length());
        new UnsafeBuffer(bad).putLong(8 + 2 * 8, 99, ClientWire.ORDER); // client 0's first entry claims number 99
        assertFalse(new ClientTable(2, 4, 8).restore(new UnsafeBuffer(bad), 0, bad.length, new Reader()));
        assertFalse(new ClientTable(2, 5, 8).restore(b, 0, w.length(), new Reader()), "another depth");
    }
}
