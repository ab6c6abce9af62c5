package org.ubft.ctbcast.node;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.common.NodeId;
import org.ubft.common.config.ClusterConfig;
import org.ubft.common.crypto.ClusterKeys;
import org.ubft.common.crypto.CryptoPool;
import org.ubft.common.crypto.CryptoService;
import org.ubft.ctbcast.core.CtbcastConfig;
import org.ubft.ctbcast.core.CtbcastCounters;
import org.ubft.ctbcast.core.CtbcastMessage;
import org.ubft.ctbcast.core.CtbcastReplica;
import org.ubft.ctbcast.core.DeliverHandler;
import org.ubft.ctbcast.core.RegisterValue;
import org.ubft.ctbcast.core.ReplicatedRegisterPort;
import org.ubft.ctbcast.core.SignedStatement;
import org.ubft.ctbcast.link.LinkConfig;
import org.ubft.ctbcast.link.PeerLinks;
import org.ubft.ctbcast.tbcast.Tbcast;
import org.ubft.ctbcast.tbcast.TbcastConfig;
import org.ubft.fabric.CompletionRouter;
import org.ubft.fabric.Fabric;
import org.ubft.fabric.Fabrics;
import org.ubft.memnode.register.RegisterClientConfig;

import java.nio.ByteOrder;

/**
 * Everything one replica needs to run CTBcast for real (docs/design.md §7): the edge that wires the sans-IO cores
 * to a fabric, the memory nodes and a crypto service, driven by {@link #doWork()} on one thread.
 *
 * <ul>
 *   <li>{@link Fabrics#open} for replica {@code replica} of the cluster, one {@link CompletionRouter}; or a fabric
 *       and router the caller opened and shares (the consensus runtime, the simulator's fabric in tests).</li>
 *   <li>{@link PeerLinks} to the n replicas, and n TBcast streams: stream {@code 1 + p} carries everything about
 *       broadcaster p's CTBcast stream, that is p's LOCK and SIGNED and every receiver's LOCKED and
 *       REQUEST_SIGNED for p, each to the replicas the core addresses ({@link org.ubft.ctbcast.core.TbcastPort}:
 *       LOCKED not to p, REQUEST_SIGNED to p only, nothing to the sender itself). Each sender puts at most two messages per identifier k on it (LOCK and SIGNED from
 *       p, LOCKED and REQUEST_SIGNED from a receiver), so a TBcast tail of 2t per stream covers the last t
 *       identifiers of p, as {@link org.ubft.ctbcast.core.TbcastPort} requires, whatever the other streams
 *       do. The {@link org.ubft.ctbcast.core.TbcastPort} adapter picks the stream from the message's broadcaster
 *       field; deliveries go to {@link CtbcastReplica#onTbcastDeliver} (TBcast's copy of our own messages is
 *       skipped: the core handles its own messages itself), and a message whose broadcaster field names another
 *       stream than the one it came on is dropped and counted ({@link #misrouted()}). With
 *       {@link Options#extraStreams()} the links have room for more streams (ids from {@link #firstExtraStreamId()}),
 *       which the caller registers on {@link #links()}.</li>
 *   <li>{@link ReplicatedRegisterPort} on the same router, over the cluster's memory nodes (their register
 *       layout must be CTBcast's: {@code register.value.bytes} = {@value RegisterValue#BYTES}).</li>
 *   <li>{@link CryptoSignaturePort} over the given {@link CryptoService}.</li>
 * </ul>
 * Not thread-safe: one thread constructs it (or hands it over), calls {@link #broadcast} and {@link #doWork()}, and
 * receives the {@link DeliverHandler} upcalls from inside {@link #doWork()}.
 */
public final class CtbcastNode implements AutoCloseable {
    private static final int WRITER_TAG = ReplicatedRegisterPort.WRITER_TAG;
    private static final int READER_TAG = ReplicatedRegisterPort.READER_TAG;
    private static final int LINK_TAG_BASE = 16;

    /**
     * Settings of a node beyond the cluster file.
     *
     * @param signedMode             when the broadcaster sends SIGNED
     * @param slowPathTimeoutNanos   in AFTER_TIMEOUT, how long after LOCK the broadcaster sends SIGNED
     * @param receiverTimeoutNanos   how long a receiver waits before REQUEST_SIGNED (0: never)
     * @param maxMessageBytes        largest message m
     * @param lockedInlineMaxBytes   a LOCKED carries m up to this size, its fingerprint beyond
     * @param retransmitPeriodNanos  TBcast retransmission period
     * @param registerBackoffNanos   register operations: wait before re-posting to an unreachable memory node
     * @param extraStreams           room on the {@link PeerLinks} for this many more streams, registered by the
     *                               caller ({@link #links()}) with ids from {@link #firstExtraStreamId()} on, before
     *                               traffic (the consensus runtime adds its own TBcast and a direct stream)
     */
    public record Options(CtbcastConfig.SignedMode signedMode, long slowPathTimeoutNanos, long receiverTimeoutNanos,
                          int maxMessageBytes, int lockedInlineMaxBytes, long retransmitPeriodNanos,
                          long registerBackoffNanos, int extraStreams) {
        public Options {
            if (extraStreams < 0) {
                throw new IllegalArgumentException("extraStreams must be >= 0, not " + extraStreams);
            }
        }

        /** Options without extra streams. */
        public Options(CtbcastConfig.SignedMode signedMode, long slowPathTimeoutNanos, long receiverTimeoutNanos,
                       int maxMessageBytes, int lockedInlineMaxBytes, long retransmitPeriodNanos,
                       long registerBackoffNanos) {
            this(signedMode, slowPathTimeoutNanos, receiverTimeoutNanos, maxMessageBytes, lockedInlineMaxBytes,
                retransmitPeriodNanos, registerBackoffNanos, 0);
        }

        /** AFTER_TIMEOUT with a 1 ms timeout, receivers ask after 5 ms, messages up to 8 KiB, inline LOCKED up to 64 B. */
        public static Options defaults() {
            return new Options(CtbcastConfig.SignedMode.AFTER_TIMEOUT, 1_000_000, 5_000_000, 8192, 64, 200_000,
                100_000, 0);
        }

        public Options withSignedMode(CtbcastConfig.SignedMode mode, long slowPathTimeout) {
            return new Options(mode, slowPathTimeout, receiverTimeoutNanos, maxMessageBytes, lockedInlineMaxBytes,
                retransmitPeriodNanos, registerBackoffNanos, extraStreams);
        }

        public Options withReceiverTimeoutNanos(long nanos) {
            return new Options(signedMode, slowPathTimeoutNanos, nanos, maxMessageBytes, lockedInlineMaxBytes,
                retransmitPeriodNanos, registerBackoffNanos, extraStreams);
        }

        public Options withMaxMessageBytes(int bytes) {
            return new Options(signedMode, slowPathTimeoutNanos, receiverTimeoutNanos, bytes, lockedInlineMaxBytes,
                retransmitPeriodNanos, registerBackoffNanos, extraStreams);
        }

        public Options withExtraStreams(int streams) {
            return new Options(signedMode, slowPathTimeoutNanos, receiverTimeoutNanos, maxMessageBytes,
                lockedInlineMaxBytes, retransmitPeriodNanos, registerBackoffNanos, streams);
        }
    }

    private final int replica;
    private final CtbcastConfig config;
    private final Fabric fabric;
    private final boolean ownsFabric;
    private final CompletionRouter router;
    private final TbcastConfig tbcastConfig;
    private final PeerLinks links;
    private final Tbcast[] streams;
    private final ReplicatedRegisterPort registers;
    private final CryptoSignaturePort signatures;
    private final CtbcastReplica core;
    private final UnsafeBuffer wrap = new UnsafeBuffer(0, 0);
    private long misrouted;
    private boolean closed;

    /**
     * Opens the fabric of replica {@code replica} of {@code cluster} and wires CTBcast on it.
     *
     * @param crypto  this replica's signature service (signing key of replica {@code replica}, public keys of
     *                every replica); only this node uses it
     * @param handler the CTBcast deliveries of every broadcaster, this replica's own stream included
     */
    public CtbcastNode(ClusterConfig cluster, int replica, Options options, CryptoService crypto,
                       DeliverHandler handler) {
        this(cluster, replica, options, crypto, handler, SystemNanoClock.INSTANCE);
    }

    public CtbcastNode(ClusterConfig cluster, int replica, Options options, CryptoService crypto,
                       DeliverHandler handler, NanoClock clock) {
        this(check(cluster, replica, options, crypto), replica, options, crypto, handler, clock, null, true);
    }

    /**
     * Wires CTBcast on an already-open fabric through the caller's {@link CompletionRouter}, so that other
     * components (client links) share the fabric and its completions. The node registers router tags
     * {@link ReplicatedRegisterPort#WRITER_TAG}, {@link ReplicatedRegisterPort#READER_TAG} and
     * {@code 16 .. 16 + n - 1}; tags from {@link #firstFreeTag(int)} on are the caller's. The router needs room for
     * {@code n + 1} registrations of this node. The fabric stays the caller's: {@link #close()} does not close it.
     *
     * @param router over the fabric of replica {@code replica} of {@code cluster}
     */
    public CtbcastNode(CompletionRouter router, ClusterConfig cluster, int replica, Options options,
                       CryptoService crypto, DeliverHandler handler, NanoClock clock) {
        this(check(cluster, replica, options, crypto), replica, options, crypto, handler, clock, router, false);
    }

    /** As {@link #CtbcastNode(CompletionRouter, ClusterConfig, int, Options, CryptoService, DeliverHandler, NanoClock)}
     * with a router of its own over {@code fabric} (reachable by {@link #router()}, room for 64 more components). */
    public CtbcastNode(Fabric fabric, ClusterConfig cluster, int replica, Options options, CryptoService crypto,
                       DeliverHandler handler, NanoClock clock) {
        this(new CompletionRouter(fabric, cluster.n() + 4 + 64), cluster, replica, options, crypto, handler, clock);
    }

    private static ClusterConfig check(ClusterConfig cluster, int replica, Options options, CryptoService crypto) {
        int n = cluster.n();
        if (replica < 0 || replica >= n) {
            throw new IllegalArgumentException("replica " + replica + " outside 0.." + (n - 1));
        }
        if (cluster.registerValueBytes() != RegisterValue.BYTES) {
            throw new IllegalArgumentException("CTBcast needs register.value.bytes = " + RegisterValue.BYTES
                + " (its register values), the cluster has " + cluster.registerValueBytes() + " ("
                + cluster.source() + ")");
        }
        if (crypto.maxMessageBytes() < SignedStatement.BYTES) {
            throw new IllegalArgumentException("the crypto service takes messages of at most "
                + crypto.maxMessageBytes() + " bytes; CTBcast signs " + SignedStatement.BYTES);
        }
        return cluster;
    }

    private CtbcastNode(ClusterConfig cluster, int replica, Options options, CryptoService crypto,
                        DeliverHandler handler, NanoClock clock, CompletionRouter givenRouter, boolean ownsFabric) {
        int n = cluster.n();
        this.replica = replica;
        this.ownsFabric = ownsFabric;
        int t = cluster.ctbcastTail();
        this.config = new CtbcastConfig(n, t, options.maxMessageBytes(), options.lockedInlineMaxBytes(),
            options.signedMode(), options.slowPathTimeoutNanos(), options.receiverTimeoutNanos());
        int maxEncoded = CtbcastMessage.maxEncodedBytes(config);
        int[] members = cluster.replicaIds();
        this.fabric = givenRouter != null ? givenRouter.fabric() : Fabrics.open(cluster, NodeId.replica(replica));
        try {
            this.router = givenRouter != null ? givenRouter : new CompletionRouter(fabric, n + 4);
            this.tbcastConfig = new TbcastConfig(t, maxEncoded, options.retransmitPeriodNanos());
            LinkConfig linkConfig = LinkConfig.defaults(t, maxEncoded).withMaxStreams(n + options.extraStreams())
                .withTagBase(LINK_TAG_BASE);
            this.links = new PeerLinks(router, clock, members, replica, linkConfig);
            RegisterClientConfig registerConfig = new RegisterClientConfig(cluster.memnodeIds(),
                cluster.registerDeltaNanos(), options.registerBackoffNanos(), Math.max(4, 2 * t));
            this.registers = new ReplicatedRegisterPort(router, clock, config, replica, registerConfig, WRITER_TAG,
                READER_TAG);
            this.signatures = new CryptoSignaturePort(crypto, Math.max(8, 4 * n * t));
            this.streams = new Tbcast[n];
            this.core = new CtbcastReplica(config, replica, clock, this::send, signatures, registers, handler);
            registers.bind(core);
            signatures.bind(core);
            for (int p = 0; p < n; p++) {
                final int stream = p;
                streams[p] = new Tbcast(links, streamId(p), tbcastConfig,
                    (from, index, buffer, offset, length) -> onTbcastDeliver(stream, from, buffer, offset, length));
            }
        } catch (RuntimeException e) {
            if (ownsFabric) {
                fabric.close();
            }
            throw e;
        }
    }

    /** The first router tag this node leaves free, for a cluster of {@code n} replicas. */
    public static int firstFreeTag(int n) {
        return LINK_TAG_BASE + n;
    }

    /** The first stream id free for {@link Options#extraStreams()}: n + 1 (streams 1..n are CTBcast's). */
    public int firstExtraStreamId() {
        return streams.length + 1;
    }

    /** The TBcast settings of CTBcast's streams (tail 2t of messages up to the encoded maximum), for extra streams. */
    public TbcastConfig tbcastConfig() {
        return tbcastConfig;
    }

    /** The router on the fabric, shared with any component given it at construction. */
    public CompletionRouter router() {
        return router;
    }

    /** A crypto service for replica {@code replica} of a pool: its key and every node's public key from the keys dir. */
    public static CryptoService cryptoOwner(CryptoPool pool, ClusterConfig cluster, int replica) {
        ClusterKeys keys = ClusterKeys.load(cluster, NodeId.replica(replica));
        return pool.newOwner(keys.signingKey(), keys.publicKeys(), 64, SignedStatement.BYTES);
    }

    /** A synchronous (deterministic, inline) crypto service for replica {@code replica}, from the keys dir. */
    public static CryptoService synchronousCrypto(ClusterConfig cluster, int replica) {
        ClusterKeys keys = ClusterKeys.load(cluster, NodeId.replica(replica));
        return CryptoPool.synchronous(keys.signingKey(), keys.publicKeys(), 64, SignedStatement.BYTES);
    }

    /** The TBcast stream id that carries broadcaster {@code p}'s CTBcast stream. */
    public static int streamId(int p) {
        return 1 + p;
    }

    /**
     * Starts this replica's outgoing indices (tail channels, TBcast streams) at {@code epoch}, before any traffic, and
     * its CTBcast stream at its one start, {@link CtbcastMessage#FIRST_K}: a replica's first run in the cluster. A
     * process that restarts with a larger epoch than it ever used (e.g. {@link #wallClockEpoch()}) is heard again by
     * peers that still hold its old link and TBcast indices; its CTBcast identifiers go on from its stream log
     * ({@link #startAt(long, long)}), never from 1 again (peers would not deliver them: {@link FifoDelivery}).
     */
    public void startAt(long epoch) {
        startAt(epoch, CtbcastMessage.FIRST_K);
    }

    /**
     * As {@link #startAt(long)}, but this replica's CTBcast identifiers go on at {@code firstOwnK} (a restarted replica
     * that recovered its own stream from its log: it re-broadcasts the logged messages with their identifiers and
     * bytes, then goes on after them; receivers that delivered them already drop the copies).
     */
    public void startAt(long epoch, long firstOwnK) {
        links.startAt(epoch);
        for (Tbcast stream : streams) {
            stream.startAt(epoch + 1);
        }
        core.broadcaster().startAt(firstOwnK);
    }

    /** The identifier this replica's next {@link #broadcast} will take. */
    public long nextOwnK() {
        return core.broadcaster().lastK() + 1;
    }

    /** Low bits of a link or TBcast index that count messages within one run (an epoch has them clear). */
    public static final int EPOCH_SHIFT = 22;

    /**
     * An epoch above every link and TBcast index this node could have used in an earlier run: milliseconds of
     * wall-clock time since 2023 shifted left by {@value #EPOCH_SHIFT} (no stream sends 2^22 messages per
     * millisecond). CTBcast identifiers do not use it: a stream has one start ({@link #startAt(long)}).
     */
    public static long wallClockEpoch() {
        return (System.currentTimeMillis() - 1_672_531_200_000L) << EPOCH_SHIFT;
    }

    /** CTBcast-broadcasts {@code length} bytes of {@code message}; returns its identifier k. */
    public long broadcast(DirectBuffer message, int offset, int length) {
        return core.broadcast(message, offset, length);
    }

    /**
     * The layer above learnt that every replica delivered this replica's messages up to {@code k}: their SIGNED
     * copies are no longer needed ({@link org.ubft.ctbcast.core.CtbcastBroadcaster#allDelivered}).
     */
    public void allDelivered(long k) {
        core.broadcaster().allDelivered(k);
    }

    /** See {@link org.ubft.ctbcast.core.CtbcastBroadcaster#signEagerly}. */
    public void signEagerly(boolean on) {
        core.broadcaster().signEagerly(on);
    }

    /** CTBcast-broadcasts {@code message}; returns its identifier k. */
    public long broadcast(byte[] message) {
        wrap.wrap(message);
        return core.broadcast(wrap, 0, message.length);
    }

    /** One duty cycle: fabric completions, links and TBcast, registers, signatures, the core's timers. */
    public int doWork() {
        if (closed) {
            return 0;
        }
        return links.doWork() + registers.doWork() + signatures.doWork() + core.doWork();
    }

    /**
     * Delivers this replica's own broadcasts made since the last call ({@link CtbcastReplica#deliverOwn});
     * {@link #doWork()} does too. Call it at the end of a duty cycle that broadcast, so that what the deliveries
     * send goes out with the broadcast's LOCK.
     */
    public int deliverOwn() {
        return closed ? 0 : core.deliverOwn();
    }

    private void send(DirectBuffer buffer, int offset, int length, long to) {
        int p = length >= CtbcastMessage.HEADER_BYTES
            ? buffer.getShort(offset + CtbcastMessage.BROADCASTER_OFFSET, ByteOrder.LITTLE_ENDIAN) & 0xFFFF : -1;
        if (p < 0 || p >= streams.length) {
            throw new IllegalStateException("the core sent a message without a valid broadcaster: " + p);
        }
        streams[p].broadcast(buffer, offset, length, to);
    }

    private void onTbcastDeliver(int stream, int from, DirectBuffer buffer, int offset, int length) {
        if (from == replica) {
            return; // the core handled its own message when it sent it
        }
        int p = length >= CtbcastMessage.HEADER_BYTES
            ? buffer.getShort(offset + CtbcastMessage.BROADCASTER_OFFSET, ByteOrder.LITTLE_ENDIAN) & 0xFFFF : -1;
        if (p != stream) {
            misrouted++;
            return;
        }
        core.onTbcastDeliver(from, buffer, offset, length);
    }

    public int replica() {
        return replica;
    }

    public CtbcastConfig config() {
        return config;
    }

    public CtbcastReplica core() {
        return core;
    }

    public CtbcastCounters counters() {
        return core.counters();
    }

    public PeerLinks links() {
        return links;
    }

    /** The TBcast stream carrying broadcaster {@code p}'s messages. */
    public Tbcast stream(int p) {
        return streams[p];
    }

    public ReplicatedRegisterPort registers() {
        return registers;
    }

    public CryptoSignaturePort signatures() {
        return signatures;
    }

    public Fabric fabric() {
        return fabric;
    }

    /** Messages that came on one broadcaster's TBcast stream but name another (dropped). */
    public long misrouted() {
        return misrouted;
    }

    /** Stops the node; closes the fabric only if the node opened it. */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            if (ownsFabric) {
                fabric.close();
            }
        }
    }
}
