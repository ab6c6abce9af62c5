package org.ubft.consensus.replica;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.common.crypto.PublicKeys;
import org.ubft.consensus.wire.ClientWire;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Random;

/**
 * A deterministic in-memory cluster of {@link Replica}s over a perfect model of CTBcast (every correct replica gets
 * broadcaster p's k-th message, the same bytes, in order), TBcast and point-to-point links, on virtual time, plus
 * closed-loop clients. Replicas can be crashed (neither send nor receive), links filtered, and arbitrary messages
 * injected as if a (Byzantine) replica had sent them.
 */
final class ModelCluster {
    enum Kind { CTBCAST, TBCAST, DIRECT, REQUEST, REPLY }

    /** Decides whether a message goes through (true) or is lost. */
    interface Filter {
        boolean pass(Kind kind, int from, int to, DirectBuffer buffer, int offset, int length);
    }

    final int n;
    final int clients;
    final ReplicaConfig config;
    final Clock clock = new Clock();
    final Replica[] replicas;
    /** Each replica's crypto (it counts the verifications it made). */
    final TestCrypto[] cryptos;
    final ReverseApp[] apps;
    final boolean[] crashed;
    final long[] ctbcastK;
    /** Per replica: the highest k it reported every replica delivered ({@link ReplicaOutput#allDelivered}). */
    final long[] allDeliveredK;
    /** Paused replicas neither run nor receive: their inputs wait, CTBcast's beyond the last t lost (a gap). */
    final boolean[] paused;
    private final List<Runnable>[] pausedInbox;
    private final java.util.ArrayDeque<Held>[][] pausedCtbcast;
    final org.ubft.consensus.transfer.StateTransfer[] transfers;
    final PublicKeys keys;
    final Random random;
    final TestClient[] clientList;
    Filter filter = (kind, from, to, b, o, l) -> true;
    /** Per replica: its off-thread signature checks ({@link #checkSignaturesWith}); null: on its thread. */
    final org.ubft.consensus.runtime.Preverifier[] preverifiers;
    final org.ubft.consensus.runtime.StreamPreverifier[] streamPreverifiers;
    private java.util.function.BiFunction<Integer, Integer, org.ubft.common.crypto.CryptoService> checkers;
    long latencyNanos = 2_000;
    /** Extra latency of replica {@code from}'s messages to replica {@code to} (CTBcast, TBcast, direct), per link. */
    long[][] linkLatencyNanos;
    long jitterNanos = 0;
    private final PriorityQueue<Event> events = new PriorityQueue<>();
    /** Where the replicas' wall clocks start (virtual time 0), in milliseconds since the epoch: 2026-01-01. */
    static final long EPOCH_MILLIS = 1_767_225_600_000L;
    /** Per replica: how far its wall clock is ahead of virtual time (ms; behind if negative), read at every use. */
    final long[] skewMillis = new long[64];
    /** {@code consensus.time.bound.ms} of replicas (re)started from now on. */
    long timeBoundMillis = 1_000;
    private long sequence;
    private final int snapshotPadding;

    ModelCluster(ReplicaConfig config, long seed) {
        this(config, seed, 0);
    }

    /** A cluster whose apps' snapshots carry {@code snapshotPadding} more bytes (a larger state to checkpoint). */
    ModelCluster(ReplicaConfig config, long seed, int snapshotPadding) {
        this.snapshotPadding = snapshotPadding;
        this.config = config;
        this.n = config.n();
        this.clients = config.clients();
        this.random = new Random(seed);
        this.keys = TestCrypto.publicKeys(n, clients);
        this.replicas = new Replica[n];
        this.cryptos = new TestCrypto[n];
        this.apps = new ReverseApp[n];
        this.crashed = new boolean[n];
        this.ctbcastK = new long[n];
        this.allDeliveredK = new long[n];
        this.paused = new boolean[n];
        this.pausedInbox = newLists(n);
        this.pausedCtbcast = newDeques(n);
        this.transfers = new org.ubft.consensus.transfer.StateTransfer[n];
        this.preverifiers = new org.ubft.consensus.runtime.Preverifier[n];
        this.streamPreverifiers = new org.ubft.consensus.runtime.StreamPreverifier[n];
        for (int i = 0; i < n; i++) {
            start(i);
        }
        this.clientList = new TestClient[clients];
        for (int c = 0; c < clients; c++) {
            clientList[c] = new TestClient(c);
        }
    }

    /** Replica i's wall clock: virtual time from {@link #EPOCH_MILLIS}, plus its skew. */
    long wallClockMillis(int i) {
        return EPOCH_MILLIS + clock.now / 1_000_000 + skewMillis[i];
    }

    /** (Re)creates replica i empty. */
    void start(int i) {
        apps[i] = new ReverseApp(snapshotPadding);
        Output output = new Output(i);
        cryptos[i] = TestCrypto.forReplica(i, keys);
        replicas[i] = new Replica(config, i, apps[i], cryptos[i], output, clock);
        replicas[i].replicatedTime(() -> wallClockMillis(i), timeBoundMillis);
        transfers[i] = StateTransferBridge.attach(replicas[i], output, StateTransferBridge.config(config, 1 << 16),
            clock, i);
        crashed[i] = false;
        if (checkers != null) {
            preverifiers[i] = new org.ubft.consensus.runtime.Preverifier(replicas[i], i, n,
                p -> checkers.apply(i, p), MessageSizes.maxMessageBytes(config));
            streamPreverifiers[i] = new org.ubft.consensus.runtime.StreamPreverifier(replicas[i].streamChecks(), i, n,
                p -> checkers.apply(i, p));
        }
        for (int p = 0; p < n; p++) {
            if (ctbcastK[p] > 0) {
                replicas[i].onCtbcastGap(p, 1, ctbcastK[p] + 1); // what FifoDelivery reports to a late joiner
            }
        }
    }

    private record Held(long k, byte[] m) {
    }

    @SuppressWarnings("unchecked")
    private static List<Runnable>[] newLists(int n) {
        List<Runnable>[] lists = new List[n];
        for (int i = 0; i < n; i++) {
            lists[i] = new ArrayList<>();
        }
        return lists;
    }

    @SuppressWarnings("unchecked")
    private static java.util.ArrayDeque<Held>[][] newDeques(int n) {
        java.util.ArrayDeque<Held>[][] d = new java.util.ArrayDeque[n][n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                d[i][j] = new java.util.ArrayDeque<>();
            }
        }
        return d;
    }

    /** An input for replica r: dropped if r crashed, kept while r is paused. */
    private void input(int r, Runnable action) {
        if (crashed[r]) {
            return;
        }
        if (paused[r]) {
            pausedInbox[r].add(action);
        } else {
            action.run();
        }
    }

    /** Pauses replica r (a slow process): it stops running; what is sent to it waits. */
    void pause(int r) {
        paused[r] = true;
    }

    /**
     * Resumes replica r: of each broadcaster's CTBcast messages only the last t are still in the tail, the ones before
     * are a gap (what FifoDelivery reports); its other inputs arrive in order.
     */
    void resume(int r) {
        paused[r] = false;
        for (int from = 0; from < n; from++) {
            java.util.ArrayDeque<Held> q = pausedCtbcast[r][from];
            if (q.size() > config.tail()) {
                long first = q.peekFirst().k();
                while (q.size() > config.tail()) {
                    q.pollFirst();
                }
                replicas[r].onCtbcastGap(from, first, q.peekFirst().k());
            }
            for (Held h : q) {
                replicas[r].onCtbcastDeliver(from, h.k(), new UnsafeBuffer(h.m()), 0, h.m().length);
            }
            q.clear();
        }
        List<Runnable> inbox = new ArrayList<>(pausedInbox[r]);
        pausedInbox[r].clear();
        inbox.forEach(Runnable::run);
    }

    static final class Clock implements NanoClock {
        long now = 1_000_000;

        @Override
        public long nanoTime() {
            return now;
        }
    }

    private record Event(long time, long seq, Runnable action) implements Comparable<Event> {
        @Override
        public int compareTo(Event o) {
            return time != o.time ? Long.compare(time, o.time) : Long.compare(seq, o.seq);
        }
    }

    void at(long delay, Runnable action) {
        events.add(new Event(clock.now + delay, sequence++, action));
    }

    /** Per (kind, from, to): the latest delivery time scheduled, so that jitter never reorders a FIFO channel. */
    private final Map<Long, Long> lastDelivery = new HashMap<>();

    /**
     * The delay of the next message from {@code from} to {@code to} on a channel of {@code kind}: latency plus
     * jitter, but never delivered before the channel's previous message (tail channels, and so CTBcast, TBcast and
     * the direct streams, are FIFO; so are a client's links).
     */
    private long delay(Kind kind, int from, int to) {
        long d = latencyNanos + (jitterNanos > 0 ? (long) (random.nextDouble() * jitterNanos) : 0);
        if (linkLatencyNanos != null && kind != Kind.REQUEST && kind != Kind.REPLY) {
            d += linkLatencyNanos[from][to];
        }
        long key = ((long) kind.ordinal() << 40) | ((long) from << 20) | to;
        long at = Math.max(clock.now + d, lastDelivery.getOrDefault(key, 0L));
        lastDelivery.put(key, at);
        return at - clock.now;
    }

    private static byte[] copy(DirectBuffer b, int offset, int length) {
        byte[] bytes = new byte[length];
        b.getBytes(offset, bytes);
        return bytes;
    }

    final class Output implements ReplicaOutput {
        final int from;

        Output(int from) {
            this.from = from;
        }

        @Override
        public long ctbcast(DirectBuffer buffer, int offset, int length) {
            if (crashed[from]) {
                return ctbcastK[from];
            }
            return broadcastAs(from, buffer, offset, length);
        }

        @Override
        public void allDelivered(long k) {
            allDeliveredK[from] = Math.max(allDeliveredK[from], k);
        }

        @Override
        public void tbcast(DirectBuffer buffer, int offset, int length) {
            if (crashed[from]) {
                return;
            }
            byte[] m = copy(buffer, offset, length);
            for (int to = 0; to < n; to++) {
                final int r = to;
                if (filter.pass(Kind.TBCAST, from, r, buffer, offset, length)) {
                    at(delay(Kind.TBCAST, from, r), () -> {
                        input(r, () -> tbcastTo(r, from, m));
                    });
                }
            }
        }

        @Override
        public void send(int replica, DirectBuffer buffer, int offset, int length) {
            if (crashed[from]) {
                return;
            }
            sendAs(from, replica, buffer, offset, length);
        }

        @Override
        public void reply(int client, DirectBuffer buffer, int offset, int length) {
            if (crashed[from] || !filter.pass(Kind.REPLY, from, client, buffer, offset, length)) {
                return;
            }
            byte[] m = copy(buffer, offset, length);
            at(delay(Kind.REPLY, from, client), () -> clientList[client].onReply(from, m));
        }
    }

    /**
     * Counts, from now on, the view-0 COMMITs replica {@code from} CTBcasts to replica {@code to}, alone or several in a
     * COMMITS message (it sets {@link #filter}, which passes everything): {@code [messages, commits]}.
     */
    long[] countViewZeroCommits(int from, int to) {
        long[] counts = new long[2];
        filter = (kind, f, t, b, o, l) -> {
            if (kind == Kind.CTBCAST && f == from && t == to) {
                int type = b.getByte(o);
                if (type == org.ubft.consensus.wire.ConsensusWire.COMMIT
                    && b.getLong(o + 1, org.ubft.consensus.wire.ClientWire.ORDER) == 0) {
                    counts[0]++;
                    counts[1]++;
                } else if (type == org.ubft.consensus.wire.ConsensusWire.COMMITS
                    && b.getLong(o + 7, org.ubft.consensus.wire.ClientWire.ORDER) == 0) {
                    counts[0]++;
                    counts[1] += b.getByte(o + 1);
                }
            }
            return true;
        };
        return counts;
    }

    /** CTBcast-broadcasts {@code length} bytes as replica {@code from}'s next message (used to inject, too). */
    long broadcastAs(int from, DirectBuffer buffer, int offset, int length) {
        long k = ++ctbcastK[from];
        byte[] m = copy(buffer, offset, length);
        for (int to = 0; to < n; to++) {
            final int r = to;
            if (filter.pass(Kind.CTBCAST, from, r, buffer, offset, length)) {
                at(delay(Kind.CTBCAST, from, r), () -> {
                    if (!crashed[r] && paused[r]) {
                        pausedCtbcast[r][from].add(new Held(k, m));
                    } else if (!crashed[r]) {
                        replicas[r].onHeard(from); // as the runtime reports a peer's link traffic (PeerHints)
                        replicas[r].onCtbcastDeliver(from, k, new UnsafeBuffer(m), 0, m.length);
                    }
                });
            }
        }
        return k;
    }

    void tbcastAs(int from, DirectBuffer buffer, int offset, int length) {
        byte[] m = copy(buffer, offset, length);
        for (int to = 0; to < n; to++) {
            final int r = to;
            at(delay(Kind.TBCAST, from, r), () -> {
                input(r, () -> tbcastTo(r, from, m));
            });
        }
    }

    void sendAs(int from, int to, DirectBuffer buffer, int offset, int length) {
        if (!filter.pass(Kind.DIRECT, from, to, buffer, offset, length)) {
            return;
        }
        byte[] m = copy(buffer, offset, length);
        at(delay(Kind.DIRECT, from, to), () -> {
            input(to, () -> {
                if (preverifiers[to] != null) {
                    preverifiers[to].onDirect(from, new UnsafeBuffer(m), 0, m.length);
                } else {
                    replicas[to].onHeard(from);
                    replicas[to].onDirect(from, new UnsafeBuffer(m), 0, m.length);
                }
            });
        });
    }

    private void tbcastTo(int r, int from, byte[] m) {
        if (preverifiers[r] != null) {
            preverifiers[r].onTbcast(from, new UnsafeBuffer(m), 0, m.length);
        } else {
            replicas[r].onHeard(from);
            replicas[r].onTbcastDeliver(from, new UnsafeBuffer(m), 0, m.length);
        }
    }

    /**
     * From now on (and for replicas started later), replica i checks peer p's TBcast and direct signatures through
     * {@code checkers.apply(i, p)} ({@link org.ubft.consensus.runtime.Preverifier}), polled in its duty cycle.
     */
    void checkSignaturesWith(java.util.function.BiFunction<Integer, Integer, org.ubft.common.crypto.CryptoService> c) {
        this.checkers = c;
        for (int i = 0; i < n; i++) {
            final int self = i;
            preverifiers[i] = new org.ubft.consensus.runtime.Preverifier(replicas[i], i, n, p -> c.apply(self, p),
                MessageSizes.maxMessageBytes(config));
            streamPreverifiers[i] = new org.ubft.consensus.runtime.StreamPreverifier(replicas[i].streamChecks(), i, n,
                p -> c.apply(self, p));
        }
    }

    /** Runs virtual time for {@code nanos}, every replica's duty cycle every microsecond. */
    void run(long nanos) {
        long end = clock.now + nanos;
        while (clock.now < end) {
            long next = Math.min(end, clock.now + 1_000);
            while (!events.isEmpty() && events.peek().time <= next) {
                Event e = events.poll();
                clock.now = Math.max(clock.now, e.time);
                e.action.run();
            }
            clock.now = next;
            for (int i = 0; i < n; i++) {
                if (!crashed[i] && !paused[i]) {
                    replicas[i].doWork();
                    if (preverifiers[i] != null) {
                        preverifiers[i].doWork();
                        streamPreverifiers[i].doWork();
                    }
                }
            }
            for (TestClient c : clientList) {
                c.tick();
            }
        }
    }

    /**
     * A new client process with index {@code index} (the old one is gone, its requests in flight abandoned): its
     * requests are numbered from 1 in {@code session} ({@link org.ubft.consensus.wire.RequestNumbers}).
     */
    TestClient restartClient(int index, long session) {
        TestClient c = new TestClient(index);
        c.number = org.ubft.consensus.wire.RequestNumbers.number(session, 0);
        clientList[index] = c;
        return c;
    }

    /** Runs until every client has {@code requests} accepted replies or {@code maxNanos} pass; returns whether done. */
    boolean runUntilDone(long requests, long maxNanos) {
        long end = clock.now + maxNanos;
        while (clock.now < end) {
            run(100_000);
            boolean done = true;
            for (TestClient c : clientList) {
                done &= c.accepted >= requests;
            }
            if (done) {
                return true;
            }
        }
        return false;
    }

    /** A closed-loop client: one request outstanding, sent to every replica, accepted on f+1 identical replies. */
    final class TestClient {
        final int index;
        long number;
        long accepted;
        long target = Long.MAX_VALUE;
        byte[] payload;
        long sentAt;
        long retransmitNanos = 5_000_000;
        final Map<Integer, byte[]> replies = new HashMap<>();
        final List<String> mismatches = new ArrayList<>();

        TestClient(int index) {
            this.index = index;
        }

        void tick() {
            if (payload == null && accepted < target) {
                number++;
                payload = ("req-" + index + "-" + number + "-" + random.nextInt(1000)).getBytes();
                replies.clear();
                sendRequest();
            } else if (payload != null && clock.now - sentAt > retransmitNanos) {
                sendRequest();
            }
        }

        private void sendRequest() {
            sentAt = clock.now;
            UnsafeBuffer b = new UnsafeBuffer(new byte[ClientWire.HEADER_BYTES + payload.length]);
            ClientWire.putRequest(b, 0, index, number, new UnsafeBuffer(payload), 0, payload.length);
            byte[] m = b.byteArray();
            for (int r = 0; r < n; r++) {
                final int to = r;
                if (filter.pass(Kind.REQUEST, index, to, b, 0, m.length)) {
                    at(delay(Kind.REQUEST, index, to), () -> {
                        input(to, () -> replicas[to].onClientRequest(index, new UnsafeBuffer(m), 0, m.length));
                    });
                }
            }
        }

        void onReply(int replica, byte[] m) {
            UnsafeBuffer b = new UnsafeBuffer(m);
            if (payload == null || ClientWire.number(b, 0) != number || ClientWire.replica(b, 0) != replica) {
                return;
            }
            byte[] body = Arrays.copyOfRange(m, ClientWire.HEADER_BYTES, m.length);
            replies.put(replica, body);
            int same = 0;
            for (byte[] other : replies.values()) {
                if (Arrays.equals(other, body)) {
                    same++;
                }
            }
            if (same >= config.quorum()) {
                byte[] expected = new byte[payload.length];
                for (int i = 0; i < payload.length; i++) {
                    expected[payload.length - 1 - i] = payload[i];
                }
                if (!Arrays.equals(expected, body)) {
                    mismatches.add("request " + number + " got " + new String(body));
                }
                accepted++;
                payload = null;
            }
        }
    }
}
