package org.ubft.consensus.replica;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.ubft.common.crypto.PublicKeys;
import org.ubft.consensus.wire.ClientWire;
import org.ubft.consensus.wire.ConsensusWire;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link ReplicaCore}, the replica as one pure state machine, driven only through {@link ReplicaCore#step}: a cluster
 * whose network, storage and time are this test's (one FIFO queue, lists, a virtual clock), in the style of etcd's
 * raft_paper_test. Each test cites the paper's rule it shows.
 */
class ReplicaCoreTest {
    /** Ticks of virtual time (the replica's timers run every 50 µs). */
    private static final long TICK = 50_000;
    private static final long EPOCH_MILLIS = 1_767_225_600_000L;

    private static ReplicaConfig config() {
        return ReplicaConfig.defaults(3, 2).withWindow(16).withTimeouts(2_000_000, 20_000_000, 20_000_000);
    }

    /** n cores over a perfect network: every output is some core's input, in the order produced. */
    private static final class Cluster {
        final ReplicaConfig config = config();
        final int n = config.n();
        final PublicKeys keys = TestCrypto.publicKeys(n, config.clients());
        final ReplicaCore[] cores = new ReplicaCore[n];
        final ReverseApp[] apps = new ReverseApp[n];
        final boolean[] crashed = new boolean[n];
        final ArrayDeque<Object[]> queue = new ArrayDeque<>();
        /** Everything every core produced, in order (what a trace of the run is). */
        final List<String> trace = new ArrayList<>();
        /** Per core: its outputs as kept by storage and its own stream's log. */
        final List<List<CoreOutput>> kept = new ArrayList<>();
        final List<List<byte[]>> ownStream = new ArrayList<>();
        /** Per replica: the states it offered by checkpoint, and what it asked to fetch. */
        final List<Map<Long, byte[]>> offered = new ArrayList<>();
        final List<List<CoreOutput.FetchState>> fetches = new ArrayList<>();
        /** Per replica: the last CTBcast identifier it used. */
        final long[] lastK = new long[3];
        /** Per client and request number: the replies' bodies by replica. */
        final Map<Long, Map<Integer, byte[]>> replies = new HashMap<>();
        long now = 1_000_000;

        Cluster() {
            for (int i = 0; i < n; i++) {
                offered.add(new HashMap<>());
                fetches.add(new ArrayList<>());
                kept.add(new ArrayList<>());
                ownStream.add(new ArrayList<>());
                start(i);
            }
        }

        void start(int i) {
            apps[i] = new ReverseApp();
            cores[i] = new ReplicaCore(config, i, apps[i], TestCrypto.forReplica(i, keys), tick());
            crashed[i] = false;
        }

        CoreInput.Tick tick() {
            return new CoreInput.Tick(now, EPOCH_MILLIS + now / 1_000_000);
        }

        void route(int from, List<CoreOutput> outputs) {
            for (CoreOutput o : outputs) {
                trace.add(from + " " + describe(o));
                if (o instanceof CoreOutput.OfferState s) {
                    offered.get(from).put(s.seq(), s.state());
                } else if (o instanceof CoreOutput.FetchState f) {
                    fetches.get(from).add(f);
                }
                if (o instanceof CoreOutput.Ctbcast c) {
                    lastK[from] = c.k();
                    ownStream.get(from).add(c.bytes());
                    for (int r = 0; r < n; r++) {
                        queue.add(new Object[] {r, new CoreInput.CtbcastDeliver(from, c.k(), c.bytes())});
                    }
                } else if (o instanceof CoreOutput.Tbcast t) {
                    for (int r = 0; r < n; r++) {
                        queue.add(new Object[] {r, new CoreInput.TbcastDeliver(from, t.bytes())});
                    }
                } else if (o instanceof CoreOutput.Send s) {
                    queue.add(new Object[] {s.to(), new CoreInput.Direct(from, s.bytes())});
                } else if (o instanceof CoreOutput.Reply r) {
                    UnsafeBuffer b = new UnsafeBuffer(r.bytes());
                    long key = ((long) r.client() << 32) | ClientWire.number(b, 0);
                    replies.computeIfAbsent(key, x -> new HashMap<>())
                        .put(ClientWire.replica(b, 0), Arrays.copyOfRange(r.bytes(), ClientWire.HEADER_BYTES,
                            r.bytes().length));
                } else if (o instanceof CoreOutput.KeepBatch || o instanceof CoreOutput.KeepCheckpoint) {
                    kept.get(from).add(o);
                }
            }
        }

        /** An output as text, byte arrays by content. */
        private static String describe(CoreOutput o) {
            StringBuilder b = new StringBuilder(o.getClass().getSimpleName());
            for (var component : o.getClass().getRecordComponents()) {
                try {
                    Object v = component.getAccessor().invoke(o);
                    b.append(' ').append(v instanceof byte[] bytes ? Arrays.toString(bytes) : String.valueOf(v));
                } catch (ReflectiveOperationException e) {
                    throw new AssertionError(e);
                }
            }
            return b.toString();
        }

        void step(int to, CoreInput in) {
            if (!crashed[to]) {
                route(to, cores[to].step(in));
            }
        }

        void deliver() {
            while (!queue.isEmpty()) {
                Object[] e = queue.poll();
                step((Integer) e[0], (CoreInput) e[1]);
            }
        }

        /** Lets {@code nanos} of virtual time pass, tick by tick, delivering everything between ticks. */
        void run(long nanos) {
            long end = now + nanos;
            deliver();
            while (now < end) {
                now += TICK;
                for (int i = 0; i < n; i++) {
                    step(i, tick());
                }
                deliver();
            }
        }

        void request(int client, long number, String payload) {
            for (int r = 0; r < n; r++) {
                queue.add(new Object[] {r, new CoreInput.ClientRequest(client, requestBytes(client, number, payload))});
            }
        }

        /** The replicas that replied to client {@code client}'s request {@code number} with the reversed payload. */
        int correctReplies(int client, long number, String payload) {
            byte[] expected = new StringBuilder(payload).reverse().toString().getBytes();
            int count = 0;
            for (byte[] body : replies.getOrDefault(((long) client << 32) | number, Map.of()).values()) {
                count += Arrays.equals(expected, body) ? 1 : 0;
            }
            return count;
        }
    }

    private static byte[] requestBytes(int client, long number, String payload) {
        byte[] p = payload.getBytes();
        UnsafeBuffer b = new UnsafeBuffer(new byte[ClientWire.HEADER_BYTES + p.length]);
        ClientWire.putRequest(b, 0, client, number, new UnsafeBuffer(p), 0, p.length);
        return b.byteArray();
    }

    @Test
    void theFastPathDecidesInOneRoundOfVotesWithoutTheSlowPath() {
        // Algorithm 2, lines 24-31: every replica's WILL_COMMIT decides a slot; no CERTIFY, no COMMIT
        Cluster c = new Cluster();
        c.request(0, 1, "hello");
        c.run(TICK * 4);
        assertEquals(3, c.correctReplies(0, 1, "hello"));
        for (ReplicaCore core : c.cores) {
            assertEquals(1, core.status().executedUpTo());
            assertEquals(1, core.counters().fastDecisions());
            assertEquals(0, core.counters().slowDecisions());
        }
    }

    @Test
    void timePassesOnlyThroughTicksSoACrashedFollowersSlotWaitsForThem() {
        // Algorithm 2, lines 33-41: without replica 2's votes the slot waits for the slow-path timeout, which is
        // measured on the ticks' clock: delivering every message decides nothing until the ticks reach it
        Cluster c = new Cluster();
        c.crashed[2] = true;
        c.request(0, 1, "slow");
        c.run(c.config.slowPathTimeoutNanos() / 2);
        c.deliver();
        assertEquals(0, c.correctReplies(0, 1, "slow"));
        assertEquals(0, c.cores[0].status().executedUpTo(), "decided with no tick past the slow-path timeout");
        c.run(c.config.slowPathTimeoutNanos() * 10);
        assertEquals(2, c.correctReplies(0, 1, "slow"));
        assertEquals(1, c.cores[0].counters().slowDecisions());
    }

    @Test
    void aCrashedLeaderIsReplacedByTheNextViewsLeader() {
        // Algorithm 3: the followers complain after the request timeout, view 1's leader (replica 1) takes over
        Cluster c = new Cluster();
        c.crashed[0] = true;
        c.request(1, 1, "failover");
        c.run(c.config.requestTimeoutNanos() + c.config.viewChangeTimeoutNanos() + 40 * c.config.slowPathTimeoutNanos());
        assertEquals(2, c.correctReplies(1, 1, "failover"));
        for (int r = 1; r < 3; r++) {
            ReplicaCore.Status s = c.cores[r].status();
            assertEquals(1, s.view());
            assertEquals(1, s.leader());
            assertTrue(!s.changingView());
        }
    }

    @Test
    void aStepsCommitsLeaveWithItsOutputs() {
        // Algorithm 2, lines 34-36: the COMMIT a peer's CERTIFY completes is among the outputs of the step that
        // delivered the CERTIFY (a duty cycle's COMMITs wait to go together, but never past the step: CtbcastOutbox)
        Cluster c = new Cluster();
        c.crashed[2] = true;
        c.request(0, 1, "commit");
        c.deliver();
        int commitsInDeliverySteps = 0;
        for (int i = 0; i < 200 && c.correctReplies(0, 1, "commit") < 2; i++) {
            c.now += TICK;
            for (int r = 0; r < 2; r++) {
                c.step(r, c.tick());
            }
            while (!c.queue.isEmpty()) {
                Object[] e = c.queue.poll();
                int to = (Integer) e[0];
                if (c.crashed[to]) {
                    continue;
                }
                List<CoreOutput> out = c.cores[to].step((CoreInput) e[1]);
                for (CoreOutput o : out) {
                    if (e[1] instanceof CoreInput.TbcastDeliver && o instanceof CoreOutput.Ctbcast ct
                        && ct.bytes()[0] == ConsensusWire.COMMIT) {
                        commitsInDeliverySteps++;
                    }
                }
                c.route(to, out);
            }
        }
        assertEquals(2, c.correctReplies(0, 1, "commit"));
        assertEquals(2, commitsInDeliverySteps, "each live replica's COMMIT left with the CERTIFY that completed it");
    }

    @Test
    void theSameInputsGiveTheSameOutputsByteForByte() {
        String[] traces = new String[2];
        for (int run = 0; run < 2; run++) {
            Cluster c = new Cluster();
            for (long k = 1; k <= 6; k++) {
                c.crashed[2] = k > 3; // the slow path too: certificates, COMMITs, signatures
                int client = (int) (k % 2);
                long number = (k + 1) / 2; // each client's requests are numbered 1, 2, ...
                c.request(client, number, "r" + k);
                c.run(c.config.slowPathTimeoutNanos() * 10);
                assertEquals(k > 3 ? 2 : 3, c.correctReplies(client, number, "r" + k));
            }
            traces[run] = String.join("\n", c.trace);
            assertTrue(c.trace.size() > 50, "a trace of " + c.trace.size() + " outputs");
        }
        assertEquals(traces[0], traces[1]);
    }

    @Test
    void aSlotsBatchIsKeptBeforeItsRepliesLeave() {
        // docs/design.md §13: a KeepBatch output precedes the replies of its slot in the step that executes it
        Cluster c = new Cluster();
        List<CoreOutput> seen = new ArrayList<>();
        c.request(0, 1, "durable");
        c.deliver();
        for (int i = 0; i < 20 && seen.stream().noneMatch(o -> o instanceof CoreOutput.Reply); i++) {
            c.now += TICK;
            for (int r = 0; r < c.n; r++) {
                List<CoreOutput> out = c.cores[r].step(c.tick());
                if (r == 1) {
                    seen.addAll(out);
                }
                c.route(r, out);
            }
            while (!c.queue.isEmpty()) {
                Object[] e = c.queue.poll();
                List<CoreOutput> out = c.cores[(Integer) e[0]].step((CoreInput) e[1]);
                if ((Integer) e[0] == 1) {
                    seen.addAll(out);
                }
                c.route((Integer) e[0], out);
            }
        }
        int keep = -1;
        int reply = -1;
        for (int i = 0; i < seen.size(); i++) {
            if (seen.get(i) instanceof CoreOutput.KeepBatch k && k.slot() == 0 && keep < 0) {
                keep = i;
            }
            if (seen.get(i) instanceof CoreOutput.Reply && reply < 0) {
                reply = i;
            }
        }
        assertTrue(keep >= 0 && reply > keep, "KeepBatch at " + keep + ", the reply at " + reply);
    }

    @Test
    void byzantineBytesAreDroppedAndCountedNeverThrown() {
        // a Byzantine replica 1 sends garbage on every channel; the correct ones drop it, count it and go on serving
        Cluster c = new Cluster();
        long before = c.cores[0].counters().droppedTotal();
        byte[][] garbage = {new byte[0], {(byte) 0xFF}, new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9}, new byte[4096]};
        long k = 0;
        for (byte[] g : garbage) {
            k++;
            for (int r : new int[] {0, 2}) {
                c.step(r, new CoreInput.CtbcastDeliver(1, k, g)); // its own stream: CTBcast delivers what it sent
                c.step(r, new CoreInput.Direct(1, g));
                c.step(r, new CoreInput.TbcastDeliver(1, g));
                c.step(r, new CoreInput.Direct(7, g)); // not a replica
                c.step(r, new CoreInput.ClientRequest(99, g)); // not a client
            }
        }
        assertTrue(c.cores[0].counters().droppedTotal() >= before + 16, c.cores[0].counters().droppedTotal() + "");
        c.request(0, 1, "still");
        c.run(TICK * 4);
        assertEquals(3, c.correctReplies(0, 1, "still"));
    }

    @Test
    void aRestartedCoreGoesOnWithWhatItKeptAndItsOwnStream() {
        // the runtime's restart (docs/design.md §13): the kept batches executed again, the own stream taken back.
        // Replica 1 is down throughout, so each slot is decided on the slow path, with replica 2's COMMITs on CTBcast
        // (Algorithm 2, line 38): the leader needs them after the restart, under identifiers its peers have not seen.
        Cluster c = new Cluster();
        c.crashed[1] = true;
        for (long k = 1; k <= 3; k++) {
            c.request(0, k, "before" + k);
            c.run(c.config.slowPathTimeoutNanos() * 10);
            assertEquals(2, c.correctReplies(0, k, "before" + k));
        }
        assertEquals(3, c.cores[2].status().executedUpTo());
        List<byte[]> batches = new ArrayList<>();
        for (CoreOutput o : c.kept.get(2)) {
            if (o instanceof CoreOutput.KeepBatch b) {
                batches.add(b.batch());
            }
        }
        List<byte[]> stream = new ArrayList<>(c.ownStream.get(2));
        assertTrue(stream.size() >= 3, stream.size() + " messages in replica 2's stream");
        c.start(2); // a new process: an empty core, then what replica 2 kept
        c.step(2, new CoreInput.RecoverDecisions(0, null, null, null, batches));
        c.step(2, new CoreInput.RecoverOwnStream(1, -1, null, stream));
        assertEquals(3, c.cores[2].status().executedUpTo());
        assertEquals(3, c.apps[2].executed);
        c.request(1, 1, "after");
        c.run(c.config.slowPathTimeoutNanos() * 10);
        assertEquals(2, c.correctReplies(1, 1, "after"), "the restarted replica's identifiers go on after its log");
        assertEquals(4, c.cores[2].status().executedUpTo());
        assertEquals(stream.size() + 1, c.trace.stream().filter(l -> l.startsWith("2 Ctbcast "))
            .mapToLong(l -> Long.parseLong(l.split(" ")[2])).skip(stream.size()).findFirst()
            .orElse(-1));
    }

    @Test
    void aReplicaBehindACheckpointFetchesItsStateAndTakesOnlyTheCertifiedOne() {
        // Algorithm 2, lines 57-60 (MaybeCheckpoint, BringUpToSpeed): a replica that joins after the others passed
        // checkpoint W asks for its state (FetchState); the caller's transfer brings peers' bytes, which the core
        // takes only if they match the digest f+1 replicas certified
        Cluster c = new Cluster();
        int w = c.config.window();
        c.crashed[2] = true;
        for (long k = 1; k <= w + 2; k++) {
            c.request(0, k, "r" + k);
            c.run(c.config.slowPathTimeoutNanos() * 10);
        }
        assertEquals(w, c.cores[0].status().checkpointSeq());
        assertTrue(c.offered.get(0).containsKey((long) w), "replica 0 offers the state of checkpoint " + w);
        c.start(2); // joins now: what FIFO delivery reports for the peers' streams it never saw is a gap
        for (int p = 0; p < 2; p++) {
            c.step(2, new CoreInput.CtbcastGap(p, 1, c.lastK[p] + 1));
        }
        for (int i = 0; i < 200 && c.fetches.get(2).isEmpty(); i++) {
            c.run(TICK * 10);
        }
        assertTrue(!c.fetches.get(2).isEmpty(), "no FetchState: " + c.cores[2].status());
        CoreOutput.FetchState fetch = c.fetches.get(2).get(c.fetches.get(2).size() - 1);
        assertEquals(w, fetch.seq());
        long dropped = c.cores[2].counters().dropped(ReplicaCounters.Drop.MALFORMED);
        c.step(2, new CoreInput.StateFetched(w, c.offered.get(0).get(0L))); // another checkpoint's state
        c.step(2, new CoreInput.StateFetched(0, c.offered.get(0).get(0L))); // a checkpoint not asked for
        assertEquals(dropped + 2, c.cores[2].counters().dropped(ReplicaCounters.Drop.MALFORMED));
        assertTrue(c.cores[2].status().fetching());
        c.step(2, new CoreInput.StateFetched(w, c.offered.get(0).get((long) w)));
        assertTrue(!c.cores[2].status().fetching());
        c.request(1, 1, "after");
        c.run(c.config.slowPathTimeoutNanos() * 10);
        assertEquals(3, c.correctReplies(1, 1, "after"), c.cores[2].status().toString());
        assertEquals(c.cores[0].status().executedUpTo(), c.cores[2].status().executedUpTo());
    }

    @Test
    void aTickBackInTimeIsTheCallersErrorAndSaysSo() {
        Cluster c = new Cluster();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> c.cores[0].step(new CoreInput.Tick(c.now - 1, EPOCH_MILLIS)));
        assertTrue(e.getMessage().contains("went back"), e.getMessage());
        assertArrayEquals(new Object[0], c.cores[0].step(new CoreInput.Tick(c.now, EPOCH_MILLIS)).toArray());
    }
}
