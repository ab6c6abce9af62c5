package org.ubft.consensus.replica;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.ubft.consensus.app.RequestContext;
import org.ubft.consensus.wire.ClientWire;
import org.ubft.consensus.wire.ConsensusWire;
import org.ubft.consensus.wire.Writer;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 22, replicated time (docs/design.md, "Replicated time"): the leader stamps each batch, followers refuse a new
 * proposal whose time goes back or runs ahead of their clock by more than the bound (counted, never thrown), the
 * application receives each request's client, number and the batch's time, the same at every replica and never going
 * back, and the time is part of the checkpointed state.
 */
class ReplicatedTimeTest {
    private static final long BOUND = 1_000;

    // ------------------------------------------------------------------------------------------------ the rule

    @Test
    void aFollowerRefusesTimesThatGoBackOrRunAheadAndAcceptsEqualOnes() {
        long[] clock = {10_000};
        BatchTime t = new BatchTime();
        t.configure(() -> clock[0], BOUND);
        assertFalse(t.acceptNew(0, 1, 4_999, 5_000), "below the time executed");
        assertFalse(t.acceptNew(0, 1, 11_001, 5_000), "more than the bound ahead of the follower's clock");
        assertFalse(t.acceptNew(0, 1, Long.MAX_VALUE, 5_000), "Long.MAX_VALUE");
        assertTrue(t.acceptNew(0, 1, 11_000, 5_000), "exactly the bound ahead");
        assertFalse(t.acceptNew(0, 2, 10_999, 5_000), "below the leader's earlier new proposal of the view");
        assertTrue(t.acceptNew(0, 2, 11_000, 5_000), "equal to the last: time stands still, allowed");
        assertTrue(t.acceptNew(1, 3, 6_000, 5_000), "a new view: its leader's own stamps, above the time executed");
        clock[0] = 20_000;
        assertTrue(t.acceptNew(1, 4, 21_000, 5_000), "the follower's clock moved on");
    }

    /**
     * A follower that skipped part of the leader's stream by a summary fetches the earlier slots' batches after it
     * endorsed later ones (GapRecovery): an earlier slot's time is checked against the later slot's as a ceiling,
     * not as a floor. Before, every such batch of a correct leader was refused (BAD_TIME): in the simulator's
     * lagging-follower scenarios up to 535 a run, and in the throughput benchmark's overload both followers refused
     * one slot, which stalled the pipeline until the request timeout changed the view.
     */
    @Test
    void anEarlierSlotFetchedAfterALaterOneKeepsTheStampsOrder() {
        BatchTime t = new BatchTime();
        t.configure(() -> 100_000, BOUND);
        assertTrue(t.acceptNew(0, 10, 50_000, 0));
        assertTrue(t.acceptNew(0, 40, 60_000, 0), "a later slot, after a gap");
        assertTrue(t.acceptNew(0, 25, 55_000, 0), "an earlier slot fetched afterwards, its time between");
        assertTrue(t.acceptNew(0, 26, 60_000, 0), "up to the later slot's time");
        assertFalse(t.acceptNew(0, 27, 60_001, 0), "an earlier slot stamped after a later one: out of order");
        assertFalse(t.acceptNew(0, 28, 49_000, 50_000), "below the time executed");
        assertFalse(t.acceptNew(0, 41, 59_999, 0), "a later slot below the latest one's time");
        assertTrue(t.acceptNew(0, 41, 61_000, 0));
        assertTrue(t.acceptNew(0, 30, 60_500, 0), "only the highest slot's time is kept as the ceiling (slot 40's is"
            + " not): accepted, and execution takes the larger of a batch's time and the time executed before");
    }

    @Test
    void onlyNewProposalsAreChecked() {
        BatchTime t = new BatchTime();
        t.configure(() -> 10_000, BOUND);
        long bad = Long.MAX_VALUE;
        assertTrue(t.refuses(0, 1, PeerState.NONE, false, false, bad, 0), "view 0: every proposal is new");
        assertTrue(t.refuses(1, 1, PeerState.NONE, false, false, bad, 0), "MustPropose Any: a new proposal");
        assertFalse(t.refuses(1, 1, PeerState.COMMITTED, false, false, bad, 0), "a re-proposal keeps its time");
        assertFalse(t.refuses(1, 1, PeerState.BOTTOM, false, true, 0, 5_000), "⊥ carries no time");
        assertFalse(t.refuses(1, 1, PeerState.NONE, true, false, 1, 5_000), "decided here: its value, its time");
        assertFalse(t.refuses(0, 1, PeerState.NONE, false, true, 0, 5_000), "an empty batch");
        assertFalse(t.refuses(1, 1, PeerState.NONE, false, false, 10_500, 5_000));
    }

    @Test
    void theLeaderNeverStampsBelowWhatItExecutedOrProposed() {
        long[] clock = {10_000};
        BatchTime t = new BatchTime();
        t.configure(() -> clock[0], BOUND);
        assertEquals(10_000, t.stamp(0));
        assertEquals(12_000, t.stamp(12_000), "its clock behind the time executed: the time executed");
        t.reproposed(15_000); // a batch of an earlier view, re-proposed with its own time
        assertEquals(15_000, t.stamp(0), "not below a re-proposed batch");
        clock[0] = 9_000; // its clock stepped back
        assertEquals(15_000, t.stamp(0));
        clock[0] = 16_000;
        assertEquals(16_000, t.stamp(0));
    }

    @Test
    void theEmptyBatchCarriesNoTimeAndATimeIsNotBeforeTheEpoch() {
        ReplicaConfig config = ReplicaConfig.defaults(3, 2);
        assertTrue(BatchFormat.valid(config, new UnsafeBuffer(new byte[BatchFormat.HEADER]), 0, BatchFormat.HEADER));
        UnsafeBuffer timedEmpty = new UnsafeBuffer(new byte[BatchFormat.HEADER]);
        timedEmpty.putLong(BatchFormat.TIME_OFFSET, 5, ClientWire.ORDER);
        assertFalse(BatchFormat.valid(config, timedEmpty, 0, BatchFormat.HEADER), "⊥ is canonical");
        byte[] negative = batch(0, 1, "x", -1);
        assertFalse(BatchFormat.valid(config, new UnsafeBuffer(negative), 0, negative.length));
        byte[] ok = batch(0, 1, "x", 0);
        assertTrue(BatchFormat.valid(config, new UnsafeBuffer(ok), 0, ok.length));
        assertFalse(BatchFormat.valid(config, new UnsafeBuffer(ok), 0, 2), "the old framing (count only)");
    }

    // ------------------------------------------------------------------------------------------------ a follower

    @Test
    void aByzantineLeadersTimesAreRefusedCountedAndNeverEndorsedWhileItsCorrectOnesAre() {
        ModelCluster c = new ModelCluster(ReplicaConfig.defaults(3, 8), 3);
        int[] willCertify = new int[1];
        c.filter = (kind, from, to, b, o, l) -> {
            if (kind == ModelCluster.Kind.TBCAST && from == 1 && to == 0 && b.getByte(o) == ConsensusWire.WILL_CERTIFY) {
                willCertify[0]++;
            }
            return true;
        };
        Replica follower = c.replicas[1];
        long now = c.wallClockMillis(1);
        long[] times = {now + BOUND + 1, Long.MAX_VALUE, now, now - 1, now, now + BOUND, now + BOUND - 1};
        boolean[] endorsed = {false, false, true, false, true, true, false};
        for (int s = 0; s < times.length; s++) {
            String body = "request-" + s;
            byte[] request = request(s, 1, body);
            follower.onClientRequest(s, new UnsafeBuffer(request), 0, request.length); // held: endorsable
            byte[] b = batch(s, 1, body, times[s]);
            long slot = s;
            byte[] prepare = message(w -> w.u8(ConsensusWire.PREPARE).i64(0).i64(slot).i32(b.length)
                .bytes(b, 0, b.length));
            int before = willCertify[0];
            long refused = follower.counters().dropped(ReplicaCounters.Drop.BAD_TIME);
            follower.onCtbcastDeliver(0, s + 1, new UnsafeBuffer(prepare), 0, prepare.length);
            assertEquals(endorsed[s] ? before + 1 : before, willCertify[0], "slot " + s + " at " + (times[s] - now));
            assertEquals(endorsed[s] ? refused : refused + 1, follower.counters().dropped(ReplicaCounters.Drop.BAD_TIME),
                "slot " + s + " counted");
        }
        // ⊥ with a time is malformed, not a crash
        byte[] timedEmpty = new byte[BatchFormat.HEADER];
        new UnsafeBuffer(timedEmpty).putLong(BatchFormat.TIME_OFFSET, now, ClientWire.ORDER);
        byte[] prepare = message(w -> w.u8(ConsensusWire.PREPARE).i64(0).i64(times.length).i32(timedEmpty.length)
            .bytes(timedEmpty, 0, timedEmpty.length));
        long malformed = follower.counters().dropped(ReplicaCounters.Drop.MALFORMED);
        follower.onCtbcastDeliver(0, times.length + 1, new UnsafeBuffer(prepare), 0, prepare.length);
        assertEquals(malformed + 1, follower.counters().dropped(ReplicaCounters.Drop.MALFORMED));
    }

    // ------------------------------------------------------------------------------------------------ the cluster

    @Test
    void everyReplicaGivesTheApplicationTheSameContextsWithTimeNeverGoingBack() {
        ModelCluster c = new ModelCluster(ReplicaConfig.defaults(3, 2), 11);
        c.skewMillis[0] = 450; // the leader's clock ahead, a follower's behind: 900 ms apart, within the bound
        c.skewMillis[2] = -450;
        for (ReverseApp app : c.apps) {
            app.keepContexts = true;
        }
        for (ModelCluster.TestClient client : c.clientList) {
            client.target = 40;
        }
        c.jitterNanos = 20_000;
        long start = ModelCluster.EPOCH_MILLIS;
        assertTrue(c.runUntilDone(40, 5_000_000_000L));
        c.run(20_000_000);
        List<RequestContext> first = c.apps[0].contexts;
        assertEquals(80, first.size(), "every request's context reached the application");
        for (int r = 1; r < c.n; r++) {
            assertEquals(first, c.apps[r].contexts, "replica " + r + ": the same client, number and time");
        }
        long[] next = new long[2];
        long last = 0;
        for (RequestContext x : first) {
            assertEquals(++next[x.client()], org.ubft.consensus.wire.RequestNumbers.sequence(x.number()),
                "client " + x.client() + "'s requests in order, each with its number");
            assertTrue(x.timeMillis() >= last, "time never goes back: " + x);
            assertTrue(x.timeMillis() >= start + 450, "the leader's clock: " + x);
            assertTrue(x.timeMillis() <= c.wallClockMillis(0), "not past the leader's clock: " + x);
            last = x.timeMillis();
        }
        assertTrue(last > first.get(0).timeMillis(), "time moved on: " + first.get(0) + " .. " + last);
        assertEquals(last, c.replicas[1].executedTime());
        for (Replica r : c.replicas) {
            assertEquals(0, r.counters().dropped(ReplicaCounters.Drop.BAD_TIME), "a correct leader's times accepted");
        }
    }

    @Test
    void theTimeIsPartOfTheCheckpointedStateAndComesBackWithIt() {
        ReplicaConfig config = ReplicaConfig.defaults(3, 2);
        Executor a = executor(config);
        UnsafeBuffer time = new UnsafeBuffer(new byte[8]);
        time.putLong(0, 1_767_225_600_123L, ClientWire.ORDER);
        byte[] state = a.encodeState();
        assertEquals(0, state.length >= 8 ? new UnsafeBuffer(state).getLong(0, ClientWire.ORDER) : -1);
        // a certified state whose time is t: the executor restored from it executes from t on, and encodes it again
        byte[] withTime = state.clone();
        System.arraycopy(time.byteArray(), 0, withTime, 0, 8);
        Executor b = executor(config);
        assertTrue(b.restoreState(withTime));
        assertEquals(1_767_225_600_123L, b.time(), "the time floor came with the state");
        assertArrayEquals(withTime, b.encodeState(), "and goes with the next checkpoint");
        Executor d = executor(config);
        byte[] negative = state.clone();
        Arrays.fill(negative, 0, 8, (byte) 0xFF);
        assertFalse(d.restoreState(negative), "a time before the epoch is not a state");
    }

    // ------------------------------------------------------------------------------------------------ helpers

    private static Executor executor(ReplicaConfig config) {
        ReplicaOutput none = new ReplicaOutput() {
            @Override
            public long ctbcast(DirectBuffer buffer, int offset, int length) {
                return 0;
            }

            @Override
            public void tbcast(DirectBuffer buffer, int offset, int length) {
            }

            @Override
            public void send(int replica, DirectBuffer buffer, int offset, int length) {
            }

            @Override
            public void reply(int client, DirectBuffer buffer, int offset, int length) {
            }
        };
        ModelCluster.Clock clock = new ModelCluster.Clock();
        return new Executor(config, 0, new ReverseApp(), none, new ReplicaCounters(), clock,
            new VerificationBudget(config.n(), config.clients(), config.f(), config.window(), config.tail(), 0),
            new StageLatencies());
    }

    private static byte[] request(int client, long number, String body) {
        byte[] payload = body.getBytes(StandardCharsets.US_ASCII);
        UnsafeBuffer b = new UnsafeBuffer(new byte[ClientWire.HEADER_BYTES + payload.length]);
        ClientWire.putRequest(b, 0, client, number, new UnsafeBuffer(payload), 0, payload.length);
        return b.byteArray();
    }

    /** A batch of one unsigned request at {@code time}. */
    private static byte[] batch(int client, long number, String body, long time) {
        byte[] r = request(client, number, body);
        UnsafeBuffer b = new UnsafeBuffer(new byte[BatchFormat.HEADER + r.length]);
        b.putShort(0, (short) 1, ClientWire.ORDER);
        b.putLong(BatchFormat.TIME_OFFSET, time, ClientWire.ORDER);
        b.putBytes(BatchFormat.HEADER, r);
        return b.byteArray();
    }

    private static byte[] message(java.util.function.Consumer<Writer> body) {
        UnsafeBuffer b = new UnsafeBuffer(new byte[1 << 12]);
        Writer w = new Writer().wrap(b, 0);
        body.accept(w);
        return Arrays.copyOf(b.byteArray(), w.length());
    }
}
