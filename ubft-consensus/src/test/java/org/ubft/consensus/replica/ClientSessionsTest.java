package org.ubft.consensus.replica;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.ubft.consensus.replica.ReplicaCounters.Drop;
import org.ubft.consensus.wire.ClientWire;
import org.ubft.consensus.wire.Reader;
import org.ubft.consensus.wire.RequestNumbers;
import org.ubft.consensus.wire.Writer;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ubft.consensus.wire.RequestNumbers.number;

/**
 * Client sessions ({@link RequestNumbers}): a client started again with the same index numbers its requests from 1 in
 * a later session, and the replicas serve it; its earlier session's requests are stale from then on.
 */
class ClientSessionsTest {
    private static final long OLD = 1_000;
    private static final long NEW = 5_000;

    private static ReplicaConfig config() {
        return ReplicaConfig.defaults(3, 2).withWindow(16).withTimeouts(500_000, 20_000_000, 20_000_000);
    }

    private static byte[] request(long number, String body) {
        byte[] payload = body.getBytes();
        UnsafeBuffer b = new UnsafeBuffer(new byte[ClientWire.HEADER_BYTES + payload.length]);
        ClientWire.putRequest(b, 0, 0, number, new UnsafeBuffer(payload), 0, payload.length);
        return b.byteArray();
    }

    private static void send(ModelCluster c, int replica, byte[] m) {
        c.replicas[replica].onClientRequest(0, new UnsafeBuffer(m), 0, m.length);
    }

    private static void sendToAll(ModelCluster c, byte[] m) {
        for (int r = 0; r < c.n; r++) {
            send(c, r, m);
        }
    }

    private static boolean runUntil(ModelCluster c, BooleanSupplier done, long maxNanos) {
        long end = c.clock.now + maxNanos;
        while (c.clock.now < end && !done.getAsBoolean()) {
            c.run(100_000);
        }
        return done.getAsBoolean();
    }

    private static String state(ModelCluster c) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < c.n; i++) {
            sb.append("\nreplica ").append(i).append(c.crashed[i] ? " (crashed)" : "").append(": view ")
                .append(c.replicas[i].view()).append(", client 0 last ")
                .append(c.replicas[i].clientTable().lastExecuted(0)).append(", ").append(c.replicas[i].counters());
        }
        return sb.toString();
    }

    @Test
    void aRestartedClientIsServedAndItsOldSessionCannotDisturbTheNewOne() {
        ModelCluster c = new ModelCluster(config(), 21);
        c.clientList[1].target = 0;
        ModelCluster.TestClient first = c.restartClient(0, OLD);
        first.target = 20;
        assertTrue(runUntil(c, () -> first.accepted == 20, 1_000_000_000L), state(c));
        // the old process dies while sending its 21st request: only the leader got it, no follower echoes it, so it is
        // never ready to propose; it must not hold up the new session
        byte[] lost = request(number(OLD, 21), "lost");
        send(c, 0, lost);
        c.run(2_000_000);
        ModelCluster.TestClient second = c.restartClient(0, NEW); // a new process, numbering from 1 again
        second.target = 20;
        assertTrue(runUntil(c, () -> second.accepted == 20, 1_000_000_000L), state(c));
        assertEquals(List.of(), second.mismatches);
        c.run(5_000_000);
        for (Replica r : c.replicas) {
            assertEquals(number(NEW, 20), r.clientTable().lastExecuted(0), state(c));
            assertEquals(40, r.counters().executedRequests(), "each request executed once: " + state(c));
            assertEquals(0, r.view(), state(c));
            assertEquals(0, r.counters().dropped(Drop.STALE_SESSION));
        }
        // late retransmissions of the old session: stale, counted, not executed and not answered
        List<Long> answered = new ArrayList<>();
        c.filter = (kind, from, to, b, o, l) -> {
            if (kind == ModelCluster.Kind.REPLY) {
                answered.add(ClientWire.number(b, o));
            }
            return true;
        };
        sendToAll(c, request(number(OLD, 5), "req-0-5"));
        sendToAll(c, lost);
        c.run(20_000_000);
        assertEquals(List.of(), answered);
        for (Replica r : c.replicas) {
            assertEquals(2, r.counters().dropped(Drop.STALE_SESSION), state(c));
            assertEquals(40, r.counters().executedRequests(), state(c));
            assertEquals(number(NEW, 20), r.clientTable().lastExecuted(0));
        }
        // and the new session goes on
        second.target = 30;
        assertTrue(runUntil(c, () -> second.accepted == 30, 1_000_000_000L), state(c));
        assertEquals(List.of(), second.mismatches);
    }

    @Test
    void aNewSessionsFirstRequestsMayArriveInAnyOrderButAJumpBeyondTheWindowIsNotKept() {
        ModelCluster c = new ModelCluster(config(), 22);
        c.clientList[0].target = 0;
        c.clientList[1].target = 0;
        List<long[]> replies = new ArrayList<>(); // {replica, number}
        List<byte[]> bodies = new ArrayList<>();
        c.filter = (kind, from, to, b, o, l) -> {
            if (kind == ModelCluster.Kind.REPLY) {
                replies.add(new long[] {from, ClientWire.number(b, o)});
                byte[] body = new byte[l - ClientWire.HEADER_BYTES];
                b.getBytes(o + ClientWire.HEADER_BYTES, body);
                bodies.add(body);
            }
            return true;
        };
        sendToAll(c, request(number(OLD, 3), "c"));
        sendToAll(c, request(number(OLD, 2), "b"));
        c.run(5_000_000);
        for (Replica r : c.replicas) {
            assertEquals(0, r.clientTable().lastExecuted(0), "request 1 of the session first: " + state(c));
        }
        sendToAll(c, request(number(OLD, 1), "a"));
        c.run(5_000_000);
        for (Replica r : c.replicas) {
            assertEquals(number(OLD, 3), r.clientTable().lastExecuted(0), state(c));
            assertEquals(3, r.counters().executedRequests(), state(c));
        }
        assertEquals(9, replies.size());
        for (int i = 0; i < replies.size(); i++) {
            long sequence = RequestNumbers.sequence(replies.get(i)[1]);
            assertEquals(OLD, RequestNumbers.session(replies.get(i)[1]));
            assertArrayEquals(new byte[] {(byte) ('a' + sequence - 1)}, bodies.get(i));
        }
        // a later session's request 17 before its 1 .. 16 were executed: beyond the window, not kept
        byte[] jump = request(number(NEW, 17), "q");
        sendToAll(c, jump);
        for (Replica r : c.replicas) {
            assertEquals(1, r.counters().dropped(Drop.BAD_CLIENT_REQUEST), state(c));
        }
        for (long k = 1; k <= 16; k++) {
            sendToAll(c, request(number(NEW, k), "n" + k));
        }
        c.run(10_000_000);
        for (Replica r : c.replicas) {
            assertEquals(number(NEW, 16), r.clientTable().lastExecuted(0), "17 was not kept: " + state(c));
            assertEquals(19, r.counters().executedRequests(), state(c));
        }
        sendToAll(c, jump); // the client's retransmission, now in the window
        c.run(5_000_000);
        for (Replica r : c.replicas) {
            assertEquals(number(NEW, 17), r.clientTable().lastExecuted(0), state(c));
            assertEquals(20, r.counters().executedRequests(), state(c));
        }
    }

    @Test
    void aRestartedClientIsServedAfterTheLeaderCrashedInTheNextView() {
        ModelCluster c = new ModelCluster(config(), 23);
        c.clientList[1].target = 0;
        ModelCluster.TestClient first = c.restartClient(0, OLD);
        first.target = 10;
        assertTrue(runUntil(c, () -> first.accepted == 10, 1_000_000_000L), state(c));
        c.crashed[0] = true;
        // the followers hold the new session's first request and nothing of the old session: they must suspect the
        // leader for it, and echo it to the next one
        ModelCluster.TestClient second = c.restartClient(0, NEW);
        second.target = 10;
        assertTrue(runUntil(c, () -> second.accepted == 10, 5_000_000_000L), state(c));
        assertEquals(List.of(), second.mismatches);
        for (int i = 1; i < c.n; i++) {
            assertTrue(c.replicas[i].view() >= 1, state(c));
            assertEquals(20, c.replicas[i].counters().executedRequests(), state(c));
        }
    }

    @Test
    void theReplyCacheTellsSessionsApartAndItsEncodingRestores() {
        ClientTable t = new ClientTable(1, 4, 8);
        for (long k = 1; k <= 3; k++) {
            t.record(0, number(OLD, k), ("o" + k).getBytes());
        }
        t.record(0, number(NEW, 1), "n1".getBytes());
        assertEquals(number(NEW, 1), t.lastExecuted(0));
        assertEquals(-1, t.cached(0, number(OLD, 1)), "the new session's request 1 took its entry");
        assertEquals(-1, t.cached(0, number(NEW, 2)), "the entry holds the old session's 2, not this one");
        int e = t.cached(0, number(NEW, 1));
        assertArrayEquals("n1".getBytes(), Arrays.copyOfRange(t.replies(), t.replyOffset(e),
            t.replyOffset(e) + t.replyLength(e)));
        UnsafeBuffer b = new UnsafeBuffer(new byte[t.maxEncodedBytes()]);
        Writer w = new Writer().wrap(b, 0);
        t.encode(w);
        ClientTable copy = new ClientTable(1, 4, 8);
        assertTrue(copy.restore(b, 0, w.length(), new Reader()), "a table across two sessions is a valid state");
        assertEquals(number(NEW, 1), copy.lastExecuted(0));
        assertEquals(-1, copy.cached(0, number(NEW, 2)));
        assertTrue(copy.cached(0, number(NEW, 1)) >= 0);
    }
}
