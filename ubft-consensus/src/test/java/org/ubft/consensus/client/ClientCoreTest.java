package org.ubft.consensus.client;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.ubft.common.NodeId;
import org.ubft.common.crypto.PublicKeys;
import org.ubft.common.crypto.SigningKey;
import org.ubft.consensus.wire.ClientWire;
import org.ubft.consensus.wire.RequestNumbers;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link ClientCore} with a recording port and a manual clock. */
class ClientCoreTest {
    static final int CLIENT = 5;
    static final long INITIAL = 1_000;
    static final long MAX = 5_000;

    /** A message the core sent. */
    record Sent(int replica, long at, byte[] bytes) {
        long number() {
            return ClientWire.number(new UnsafeBuffer(bytes), 0);
        }

        boolean signed() {
            return ClientWire.signed(new UnsafeBuffer(bytes), 0);
        }
    }

    record Done(long number, byte[] reply) {
    }

    long now;
    final List<Sent> sent = new ArrayList<>();
    final List<Done> done = new ArrayList<>();

    ClientCore core(int servers, int quorum, int maxInFlight, ClientCore.Signer signer) {
        return new ClientCore(new ClientCore.Config(CLIENT, servers, quorum, 256, 256, maxInFlight, INITIAL, MAX),
            () -> now, () -> 0, (r, b, off, len) -> { // session 0: numbers 1, 2, 3, ..
                byte[] copy = new byte[len];
                b.getBytes(off, copy);
                sent.add(new Sent(r, now, copy));
            }, signer, (n, b, off, len) -> {
                byte[] copy = new byte[len];
                b.getBytes(off, copy);
                done.add(new Done(n, copy));
            });
    }

    static UnsafeBuffer reply(int replica, int client, long number, String body) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        UnsafeBuffer b = new UnsafeBuffer(new byte[ClientWire.HEADER_BYTES + bytes.length]);
        ClientWire.putReply(b, 0, replica, client, number, new UnsafeBuffer(bytes), 0, bytes.length);
        return b;
    }

    static void deliver(ClientCore core, int link, DirectBuffer b) {
        core.onReply(link, b, 0, b.capacity());
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void sendsUnsignedRequestToEveryServerAndAcceptsOnQuorumOfIdenticalReplies() {
        ClientCore core = core(3, 2, 4, null);
        long n = core.submit(bytes("hello"));
        assertEquals(1, n);
        assertEquals(3, sent.size());
        for (int r = 0; r < 3; r++) {
            Sent s = sent.get(r);
            assertEquals(r, s.replica());
            UnsafeBuffer b = new UnsafeBuffer(s.bytes());
            assertEquals(s.bytes().length, ClientWire.requestLength(b, 0, s.bytes().length, 256));
            assertFalse(ClientWire.signed(b, 0));
            assertEquals(CLIENT, ClientWire.client(b, 0));
            assertEquals(1, ClientWire.number(b, 0));
            byte[] payload = new byte[ClientWire.bodyLength(b, 0)];
            b.getBytes(ClientWire.HEADER_BYTES, payload);
            assertArrayEquals(bytes("hello"), payload);
        }
        deliver(core, 0, reply(0, CLIENT, 1, "olleh"));
        assertTrue(done.isEmpty(), "one reply is not a quorum of 2");
        deliver(core, 1, reply(1, CLIENT, 1, "olleh"));
        assertEquals(1, done.size());
        assertEquals(1, done.get(0).number());
        assertArrayEquals(bytes("olleh"), done.get(0).reply());
        assertEquals(0, core.inFlight());
        deliver(core, 2, reply(2, CLIENT, 1, "olleh"));
        assertEquals(1, done.size());
        assertEquals(1, core.counters().droppedLate());
        assertEquals(2, core.submit(bytes("next")), "numbers increase from 1");
    }

    @Test
    void byzantineDifferentReplyDoesNotCount() {
        ClientCore core = core(3, 2, 4, null);
        core.submit(bytes("x"));
        deliver(core, 0, reply(0, CLIENT, 1, "evil"));
        deliver(core, 1, reply(1, CLIENT, 1, "good"));
        assertTrue(done.isEmpty(), "two different replies are no quorum");
        // the Byzantine replica changes its mind: it counts once, with its first reply
        deliver(core, 0, reply(0, CLIENT, 1, "good"));
        assertTrue(done.isEmpty());
        assertEquals(1, core.counters().droppedConflicting());
        deliver(core, 1, reply(1, CLIENT, 1, "good"));
        assertEquals(1, core.counters().droppedDuplicate());
        assertTrue(done.isEmpty());
        deliver(core, 2, reply(2, CLIENT, 1, "good"));
        assertEquals(1, done.size());
        assertArrayEquals(bytes("good"), done.get(0).reply());
    }

    @Test
    void dropsAndCountsBadReplies() {
        ClientCore core = core(3, 2, 4, null);
        core.submit(bytes("x"));
        // replica field 1 arriving on replica 0's link
        deliver(core, 0, reply(1, CLIENT, 1, "r"));
        deliver(core, 1, reply(1, CLIENT, 1, "r"));
        assertTrue(done.isEmpty(), "the forged reply must not count for replica 1's quorum");
        assertEquals(1, core.counters().droppedWrongReplica());
        // a link outside the servers
        deliver(core, 7, reply(7, CLIENT, 1, "r"));
        assertEquals(2, core.counters().droppedWrongReplica());
        deliver(core, 0, reply(0, CLIENT + 1, 1, "r"));
        assertEquals(1, core.counters().droppedWrongClient());
        deliver(core, 0, reply(0, CLIENT, 2, "r"));
        assertEquals(1, core.counters().droppedUnknownNumber());
        UnsafeBuffer good = reply(0, CLIENT, 1, "r");
        deliver(core, 0, new UnsafeBuffer(good, 0, good.capacity() - 1)); // truncated
        UnsafeBuffer longer = new UnsafeBuffer(new byte[good.capacity() + 3]);
        longer.putBytes(0, good, 0, good.capacity());
        deliver(core, 0, longer); // trailing bytes
        UnsafeBuffer request = new UnsafeBuffer(new byte[64]);
        int len = ClientWire.putRequest(request, 0, CLIENT, 1, new UnsafeBuffer(new byte[1]), 0, 1);
        core.onReply(0, request, 0, len); // not a REPLY
        core.onReply(0, good, 0, 3); // shorter than a header
        UnsafeBuffer huge = reply(0, CLIENT, 1, "r");
        huge.putInt(ClientWire.LENGTH_OFFSET, 1 << 20, ClientWire.ORDER);
        deliver(core, 0, huge);
        assertEquals(5, core.counters().droppedMalformed());
        assertTrue(done.isEmpty());
        assertEquals(1, core.counters().repliesAccepted(), "only replica 1's own reply");
        deliver(core, 0, good);
        assertEquals(1, done.size());
        assertEquals(11, core.counters().repliesReceived());
    }

    @Test
    void retransmitsWithExponentialBackoffFirstToServersThatDidNotAnswerThenToAll() {
        ClientCore core = core(3, 2, 4, null);
        core.submit(bytes("x"));
        deliver(core, 2, reply(2, CLIENT, 1, "y"));
        sent.clear();
        now = INITIAL - 1;
        assertEquals(0, core.doWork());
        assertTrue(sent.isEmpty());
        long[] expected = {INITIAL, 3 * INITIAL, 7 * INITIAL, 7 * INITIAL + MAX, 7 * INITIAL + 2 * MAX};
        List<Long> times = new ArrayList<>();
        for (now = INITIAL; now <= 7 * INITIAL + 2 * MAX; now += 100) {
            if (core.doWork() > 0) {
                times.add(now);
            }
        }
        assertEquals(List.of(expected[0], expected[1], expected[2], expected[3], expected[4]), times);
        assertEquals(2 + 4 * 3, sent.size(), "the first retransmission to replicas 0 and 1, the others to all three");
        for (int i = 0; i < sent.size(); i++) {
            Sent s = sent.get(i);
            if (i < 2) {
                assertTrue(s.replica() == 0 || s.replica() == 1, "replica 2 answered already");
                assertEquals(INITIAL, s.at());
            } else {
                assertEquals((i - 2) % 3, s.replica(), "later retransmissions go to every replica: the one that"
                    + " answered learns its reply did not make the quorum (ViewChange.askedAgain)");
            }
            assertFalse(s.signed(), "no signer: unsigned retransmissions");
            assertEquals(1, s.number());
        }
        assertEquals(5, core.counters().retransmissions());
        assertEquals(MAX, core.timeoutNanos(1));
        deliver(core, 0, reply(0, CLIENT, 1, "y"));
        assertEquals(1, done.size());
        sent.clear();
        now += 10 * MAX;
        assertEquals(0, core.doWork(), "a completed request is not retransmitted");
        assertTrue(sent.isEmpty());
    }

    @Test
    void retransmissionsAreSignedWithTheClientsKey() {
        SigningKey key = SigningKey.generate(NodeId.client(CLIENT), new SecureRandom());
        PublicKeys keys = PublicKeys.builder().add(NodeId.client(CLIENT), key.publicKey()).build();
        ClientCore core = core(3, 2, 4, key::sign);
        core.submit(bytes("sign me"));
        for (int i = 0; i < 3; i++) {
            assertFalse(sent.get(i).signed(), "first transmission is the unsigned fast path");
        }
        byte[] unsigned = sent.get(0).bytes();
        sent.clear();
        now = INITIAL;
        assertEquals(1, core.doWork());
        now = 3 * INITIAL;
        assertEquals(1, core.doWork());
        assertEquals(6, sent.size());
        for (Sent s : sent) {
            byte[] m = s.bytes();
            UnsafeBuffer b = new UnsafeBuffer(m);
            assertTrue(s.signed());
            assertEquals(m.length, ClientWire.requestLength(b, 0, m.length, 256));
            assertEquals(unsigned.length + ClientWire.SIGNATURE_BYTES, m.length);
            int payload = ClientWire.bodyLength(b, 0);
            assertTrue(keys.verify(NodeId.client(CLIENT), m, ClientWire.IDENTITY_OFFSET,
                ClientWire.identityLength(payload), m, ClientWire.HEADER_BYTES + payload, ClientWire.SIGNATURE_BYTES));
            // same identity as the unsigned copy
            for (int i = ClientWire.IDENTITY_OFFSET; i < unsigned.length; i++) {
                assertEquals(unsigned[i], m[i]);
            }
            m[ClientWire.HEADER_BYTES] ^= 1;
            assertFalse(keys.verify(NodeId.client(CLIENT), m, ClientWire.IDENTITY_OFFSET,
                ClientWire.identityLength(payload), m, ClientWire.HEADER_BYTES + payload, ClientWire.SIGNATURE_BYTES), "the signature covers the payload");
        }
        assertEquals(2, core.counters().signedRetransmissions());
    }

    @Test
    void boundsRequestsInFlight() {
        ClientCore core = core(3, 2, 2, null);
        assertEquals(1, core.submit(bytes("a")));
        assertEquals(2, core.submit(bytes("b")));
        assertFalse(core.hasRoom());
        sent.clear();
        assertEquals(-1, core.submit(bytes("c")));
        assertTrue(sent.isEmpty(), "a refused request sends nothing");
        assertEquals(1, core.counters().requestsRefused());
        deliver(core, 0, reply(0, CLIENT, 2, "B"));
        deliver(core, 1, reply(1, CLIENT, 2, "B"));
        assertEquals(3, core.submit(bytes("c")), "a completion frees a slot; numbers do not skip");
        assertTrue(core.cancel(1));
        assertFalse(core.cancel(1));
        assertEquals(4, core.submit(bytes("d")));
        deliver(core, 0, reply(0, CLIENT, 1, "A"));
        deliver(core, 1, reply(1, CLIENT, 1, "A"));
        assertEquals(2, core.counters().droppedLate(), "replies to a cancelled request are late");
        assertEquals(1, done.size());
        assertThrows(IllegalArgumentException.class, () -> core.submit(new byte[257]));
    }

    /**
     * While request 1 waits, later ones complete: the client goes at most {@link ClientWire#MAX_IN_FLIGHT} - 1 numbers
     * past it, so request 1's reply is still in the replicas' reply cache (the last MAX_IN_FLIGHT executed) when it asks
     * again (Twins schedule twins-e-1001: a request waited while 16 later ones executed, and was never answered).
     */
    @Test
    void aWaitingRequestKeepsTheNextOnesWithinTheRepliesCache() {
        ClientCore core = core(3, 2, 4, null);
        assertEquals(1, core.submit(bytes("old")));
        long n = 1;
        for (int i = 0; i < 4 * ClientWire.MAX_IN_FLIGHT && core.hasRoom(); i++) {
            n = core.submit(bytes("x"));
            assertTrue(n > 0);
            deliver(core, 0, reply(0, CLIENT, n, "X"));
            deliver(core, 1, reply(1, CLIENT, n, "X"));
        }
        assertEquals(ClientWire.MAX_IN_FLIGHT, n, "numbers 2 .. MAX_IN_FLIGHT went while 1 waited");
        assertEquals(1, core.inFlight());
        assertEquals(-1, core.submit(bytes("too far")));
        deliver(core, 0, reply(0, CLIENT, 1, "OLD"));
        deliver(core, 1, reply(1, CLIENT, 1, "OLD"));
        assertTrue(core.hasRoom(), "the oldest answered: the span moves on");
        assertEquals(ClientWire.MAX_IN_FLIGHT + 1, core.submit(bytes("next")));
    }

    @Test
    void unreplicatedQuorumOfOne() {
        ClientCore core = core(1, 1, 4, null);
        core.submit(bytes("solo"));
        assertEquals(1, sent.size());
        assertEquals(0, sent.get(0).replica());
        deliver(core, 1, reply(1, CLIENT, 1, "x"));
        assertTrue(done.isEmpty(), "replica 1 is not a server");
        deliver(core, 0, reply(0, CLIENT, 1, "olos"));
        assertEquals(1, done.size());
        assertArrayEquals(bytes("olos"), done.get(0).reply());
        assertThrows(IllegalArgumentException.class,
            () -> new ClientCore.Config(0, 1, 2, 1, 1, 1, 1, 1), "quorum above servers");
    }

    @Test
    void theFirstRetransmissionTimeoutFollowsTheMeasuredRoundTripsWithinItsBounds() {
        ClientCore core = core(3, 2, 4, null);
        assertEquals(INITIAL, core.retransmissionTimeoutNanos(), "no reply yet: the initial timeout");
        // replies take 1.5 initial timeouts, after one retransmission: Karn, no sample
        long first = core.submit(bytes("a"));
        now += INITIAL;
        core.doWork();
        now += INITIAL / 2;
        deliver(core, 0, reply(0, CLIENT, first, "a"));
        deliver(core, 1, reply(1, CLIENT, first, "a"));
        assertEquals(INITIAL, core.retransmissionTimeoutNanos(), "a retransmitted request gives no sample");
        // answered without retransmission in 0.8 of the initial timeout, then slower, 3 initial timeouts
        for (long rtt : new long[] {INITIAL * 8 / 10, 3 * INITIAL, 3 * INITIAL, 3 * INITIAL}) {
            long n = core.submit(bytes("b"));
            long timeout = core.timeoutNanos(n);
            now += Math.min(rtt, timeout - 1); // (delivered before its timeout; checked below)
            int before = sent.size();
            core.doWork();
            assertEquals(before, sent.size(), "not retransmitted before its timeout");
            deliver(core, 0, reply(0, CLIENT, n, "b"));
            deliver(core, 1, reply(1, CLIENT, n, "b"));
        }
        long rto = core.retransmissionTimeoutNanos();
        assertTrue(rto > INITIAL && rto <= MAX, "adapted to slower replies, within the bounds: " + rto);
        long n = core.submit(bytes("c"));
        assertEquals(rto, core.timeoutNanos(n), "a new request starts with the adaptive timeout");
        for (int i = 0; i < 20; i++) { // much slower replies still never push it past the bound
            now += 10 * MAX;
            deliver(core, 0, reply(0, CLIENT, n, "c"));
            deliver(core, 1, reply(1, CLIENT, n, "c"));
            n = core.submit(bytes("c"));
        }
        assertEquals(MAX, core.retransmissionTimeoutNanos());
    }

    @Test
    void aSessionWhoseSequencesRanOutWaitsForEveryRequestInFlightThenStartsALaterSession() {
        long[] clock = {700}; // the session the wall clock gives; it does not move here
        ClientCore core = new ClientCore(new ClientCore.Config(CLIENT, 3, 2, 256, 256, 4, INITIAL, MAX), () -> now,
            () -> clock[0], 3, (r, b, off, len) -> {
                byte[] copy = new byte[len];
                b.getBytes(off, copy);
                sent.add(new Sent(r, now, copy));
            }, null, (n, b, off, len) -> done.add(new Done(n, new byte[0])));
        assertEquals(700, core.session());
        long[] n = new long[3];
        for (int i = 0; i < 3; i++) {
            n[i] = core.submit(bytes("s" + i));
            assertEquals(RequestNumbers.number(700, i + 1), n[i]);
        }
        assertFalse(core.hasRoom(), "the session's last sequence is used: no room although a slot is free");
        int before = sent.size();
        assertEquals(-1, core.submit(bytes("x")));
        assertEquals(before, sent.size(), "a refused request sends nothing");
        for (int i = 0; i < 2; i++) {
            deliver(core, 0, reply(0, CLIENT, n[i], "r"));
            deliver(core, 1, reply(1, CLIENT, n[i], "r"));
            assertFalse(core.hasRoom(), "still in flight: " + (2 - i));
            assertEquals(-1, core.submit(bytes("x")));
        }
        assertEquals(3, core.counters().requestsRefused());
        deliver(core, 0, reply(0, CLIENT, n[2], "r"));
        deliver(core, 1, reply(1, CLIENT, n[2], "r"));
        assertEquals(3, done.size());
        assertTrue(core.hasRoom());
        long next = core.submit(bytes("y"));
        assertEquals(701, core.session(), "the clock gave the old session again: the next one");
        assertEquals(RequestNumbers.first(701), next);
        assertTrue(next > n[2], "numbers keep growing");
        assertEquals(2, core.counters().sessions());
        assertEquals(next, ClientWire.number(new UnsafeBuffer(sent.get(sent.size() - 1).bytes()), 0));
        deliver(core, 0, reply(0, CLIENT, next, "r"));
        deliver(core, 1, reply(1, CLIENT, next, "r"));
        assertEquals(4, done.size());
        clock[0] = 5_000;
        core.submit(bytes("z"));
        core.submit(bytes("z"));
        long third = core.submit(bytes("z"));
        assertEquals(-1, third, "701's three sequences used, two in flight");
        for (Done d : List.copyOf(done)) {
            assertTrue(RequestNumbers.session(d.number()) <= 701);
        }
        core.cancel(RequestNumbers.number(701, 2));
        core.cancel(RequestNumbers.number(701, 3));
        assertEquals(RequestNumbers.first(5_000), core.submit(bytes("z")), "a later wall clock: its session");
    }

    @Test
    void wallClockSessionsCountMillisecondsSince2025AndNeverRepeatForAClientInOneProcess() {
        long at = RequestNumbers.EPOCH_MILLIS + 1_000_000_000_000L; // far above any real session: exact values
        ClientCore.Sessions s = ClientCore.wallClockSessions(CLIENT + 1000, () -> at);
        assertEquals(1_000_000_000_000L, s.next());
        assertEquals(1_000_000_000_001L, s.next(), "the same millisecond: the next session");
        assertEquals(1_000_000_000_000L, ClientCore.wallClockSessions(CLIENT + 1001, () -> at).next(),
            "another client has its own sessions");
        assertEquals(1, RequestNumbers.sessionAt(0), "a clock before 2025: session 1");
        // the default: the system's wall clock
        long nowSession = System.currentTimeMillis() - RequestNumbers.EPOCH_MILLIS;
        ClientCore a = core(3, 2, 4, null);
        ClientCore b = new ClientCore(a.config(), () -> now, (r, buf, off, len) -> { }, null, (n, buf, off, len) -> { });
        ClientCore c = new ClientCore(a.config(), () -> now, (r, buf, off, len) -> { }, null, (n, buf, off, len) -> { });
        assertTrue(b.session() >= nowSession && b.session() < nowSession + 60_000, b.session() + " vs " + nowSession);
        assertTrue(c.session() > b.session(), "a second core of the same client in this process: a later session");
        assertEquals(RequestNumbers.first(c.session()), c.submit(bytes("x")));
    }
}
