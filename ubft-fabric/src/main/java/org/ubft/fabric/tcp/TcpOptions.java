package org.ubft.fabric.tcp;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;
import org.ubft.common.NodeId;
import org.ubft.fabric.Fabric;

import java.net.InetSocketAddress;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.function.Supplier;

/**
 * Settings of one {@link TcpFabric}. Immutable; made with {@link #builder(int)}, where every setting
 * but the node id has a default. {@link Builder#build()} checks them and throws
 * {@link IllegalArgumentException} naming the bad one.
 */
public final class TcpOptions {
    public static final int DEFAULT_MAX_OUTSTANDING = 4096;
    /** The same as the cluster file's {@code fabric.op.timeout.ms} default. */
    public static final long DEFAULT_OPERATION_TIMEOUT_NANOS = TimeUnit.MILLISECONDS.toNanos(1000);
    public static final long DEFAULT_CONNECT_BACKOFF_INITIAL_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    public static final long DEFAULT_CONNECT_BACKOFF_MAX_NANOS = TimeUnit.MILLISECONDS.toNanos(200);
    public static final long DEFAULT_HANDSHAKE_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(2);
    public static final int DEFAULT_MAX_FRAME_BYTES = Wire.DEFAULT_MAX_FRAME_BYTES;
    public static final int DEFAULT_MAX_CONNECTIONS = 256;
    /** The same as the cluster file's {@code fabric.tcp.lazy.confirm.us} default (5 ms). */
    public static final long DEFAULT_LAZY_CONFIRM_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

    private final int localNode;
    private final InetSocketAddress bindAddress;
    private final IntFunction<InetSocketAddress> peerResolver;
    private final int maxOutstanding;
    private final long operationTimeoutNanos;
    private final long connectBackoffInitialNanos;
    private final long connectBackoffMaxNanos;
    private final long handshakeTimeoutNanos;
    private final int maxFrameBytes;
    private final int maxConnections;
    private final Supplier<IdleStrategy> idleStrategy;
    private final boolean sharedThread;
    private final boolean waitOnSockets;
    private final ConnectionAuthenticator authenticator;
    private final NanoClock clock;
    private final long lazyConfirmNanos;
    private final java.util.function.Consumer<String> problemLog;

    private TcpOptions(Builder b) {
        localNode = b.localNode;
        bindAddress = b.bindAddress;
        peerResolver = b.peerResolver;
        maxOutstanding = b.maxOutstanding;
        operationTimeoutNanos = b.operationTimeoutNanos;
        connectBackoffInitialNanos = b.connectBackoffInitialNanos;
        connectBackoffMaxNanos = b.connectBackoffMaxNanos;
        handshakeTimeoutNanos = b.handshakeTimeoutNanos;
        maxFrameBytes = b.maxFrameBytes;
        maxConnections = b.maxConnections;
        idleStrategy = b.idleStrategy;
        sharedThread = b.sharedThread;
        waitOnSockets = b.waitOnSockets;
        authenticator = b.authenticator;
        clock = b.clock;
        lazyConfirmNanos = b.lazyConfirmNanos;
        problemLog = b.problemLog;
    }

    /** Options for node {@code localNode}, every other setting at its default. */
    public static Builder builder(int localNode) {
        return new Builder(localNode);
    }

    /** This node's id. */
    public int localNode() {
        return localNode;
    }

    /** Where to listen; port 0 picks a free port ({@link TcpFabric#localAddress()} tells which). */
    public InetSocketAddress bindAddress() {
        return bindAddress;
    }

    /**
     * Node id → address of its listening socket, or null if unknown (yet). Asked from the network thread
     * at every connection attempt, so it may be filled in later; it must be thread-safe.
     */
    public IntFunction<InetSocketAddress> peerResolver() {
        return peerResolver;
    }

    public int maxOutstanding() {
        return maxOutstanding;
    }

    /**
     * Time from posting an operation to its UNREACHABLE completion if no answer came. An operation that
     * times out after it was sent also closes its connection (like an RDMA queue pair going to error),
     * so that a late answer can never land.
     */
    public long operationTimeoutNanos() {
        return operationTimeoutNanos;
    }

    public long connectBackoffInitialNanos() {
        return connectBackoffInitialNanos;
    }

    public long connectBackoffMaxNanos() {
        return connectBackoffMaxNanos;
    }

    /** Longest a connection may take from being opened to completing its HELLO exchange. */
    public long handshakeTimeoutNanos() {
        return handshakeTimeoutNanos;
    }

    /** Largest frame sent or accepted, header and MAC tag included; bounds every connection buffer. */
    public int maxFrameBytes() {
        return maxFrameBytes;
    }

    /** Largest operation this fabric can carry with its frame limit. */
    public int maxOperationBytes() {
        return Math.min(Fabric.MAX_OPERATION_BYTES, maxFrameBytes - Wire.MAX_OVERHEAD);
    }

    /** Most inbound connections open at once (handshaking or bound); more are closed on accept. */
    public int maxConnections() {
        return maxConnections;
    }

    /**
     * Makes the network thread's idle strategy (one per fabric: idle strategies have state), used when
     * {@link #waitOnSockets()} is off.
     */
    public Supplier<IdleStrategy> idleStrategy() {
        return idleStrategy;
    }

    /**
     * Whether the network's duty cycle runs on the thread that polls the fabric (inside
     * {@link TcpFabric#poll}) instead of on a thread of its own, like Aeron's shared threading mode: one
     * thread hand-off less on every message each way, and one thread less per process. That thread must
     * poll in every duty cycle and should idle with {@link TcpFabric#pollerIdleStrategy}. Default false.
     */
    public boolean sharedThread() {
        return sharedThread;
    }

    /**
     * Whether an idle network waits on its sockets (a selector, for at most
     * {@link SocketWaitIdleStrategy#MAX_WAIT_MILLIS} ms, woken at once by arriving bytes or a posted
     * operation) instead of following {@link #idleStrategy()}. Default true; turn it off for spinning
     * strategies on dedicated cores.
     */
    public boolean waitOnSockets() {
        return waitOnSockets;
    }

    /**
     * How connections prove their peers' node ids; {@link ConnectionAuthenticator#unauthenticated()}
     * unless set.
     */
    public ConnectionAuthenticator authenticator() {
        return authenticator;
    }

    public NanoClock clock() {
        return clock;
    }

    /**
     * How long an owner may leave a peer's lazy WRITEs ({@link Fabric#writeLazily}) unconfirmed when no answer to a
     * later request covers them: it then confirms all of them with one CONFIRM frame instead of one answer each.
     * 0: every lazy WRITE is answered at once, like any WRITE. Default {@link #DEFAULT_LAZY_CONFIRM_NANOS}.
     */
    public long lazyConfirmNanos() {
        return lazyConfirmNanos;
    }

    /**
     * Where lines about connection problems go (refused handshakes, failed authentication, bad MACs, malformed frames,
     * rejected connections), rate-limited, each naming the peer and the fix; standard error unless set.
     */
    public java.util.function.Consumer<String> problemLog() {
        return problemLog;
    }

    /** Builds {@link TcpOptions}. */
    public static final class Builder {
        private final int localNode;
        private InetSocketAddress bindAddress = new InetSocketAddress("127.0.0.1", 0);
        private IntFunction<InetSocketAddress> peerResolver = node -> null;
        private int maxOutstanding = DEFAULT_MAX_OUTSTANDING;
        private long operationTimeoutNanos = DEFAULT_OPERATION_TIMEOUT_NANOS;
        private long connectBackoffInitialNanos = DEFAULT_CONNECT_BACKOFF_INITIAL_NANOS;
        private long connectBackoffMaxNanos = DEFAULT_CONNECT_BACKOFF_MAX_NANOS;
        private long handshakeTimeoutNanos = DEFAULT_HANDSHAKE_TIMEOUT_NANOS;
        private int maxFrameBytes = DEFAULT_MAX_FRAME_BYTES;
        private int maxConnections = DEFAULT_MAX_CONNECTIONS;
        private Supplier<IdleStrategy> idleStrategy = BackoffIdleStrategy::new;
        private boolean sharedThread;
        private boolean waitOnSockets = true;
        private ConnectionAuthenticator authenticator = ConnectionAuthenticator.unauthenticated();
        private NanoClock clock = SystemNanoClock.INSTANCE;
        private long lazyConfirmNanos = DEFAULT_LAZY_CONFIRM_NANOS;
        private java.util.function.Consumer<String> problemLog = System.err::println;

        private Builder(int localNode) {
            this.localNode = localNode;
        }

        public Builder bindAddress(InetSocketAddress address) {
            this.bindAddress = address;
            return this;
        }

        public Builder peerResolver(IntFunction<InetSocketAddress> resolver) {
            this.peerResolver = resolver;
            return this;
        }

        public Builder maxOutstanding(int max) {
            this.maxOutstanding = max;
            return this;
        }

        public Builder operationTimeout(long duration, TimeUnit unit) {
            this.operationTimeoutNanos = unit.toNanos(duration);
            return this;
        }

        public Builder connectBackoff(long initial, long max, TimeUnit unit) {
            this.connectBackoffInitialNanos = unit.toNanos(initial);
            this.connectBackoffMaxNanos = unit.toNanos(max);
            return this;
        }

        public Builder handshakeTimeout(long duration, TimeUnit unit) {
            this.handshakeTimeoutNanos = unit.toNanos(duration);
            return this;
        }

        public Builder maxFrameBytes(int bytes) {
            this.maxFrameBytes = bytes;
            return this;
        }

        public Builder maxConnections(int max) {
            this.maxConnections = max;
            return this;
        }

        public Builder idleStrategy(Supplier<IdleStrategy> supplier) {
            this.idleStrategy = supplier;
            return this;
        }

        /** See {@link TcpOptions#sharedThread()}. */
        public Builder sharedThread(boolean shared) {
            this.sharedThread = shared;
            return this;
        }

        /** See {@link TcpOptions#waitOnSockets()}. */
        public Builder waitOnSockets(boolean wait) {
            this.waitOnSockets = wait;
            return this;
        }

        /**
         * How connections prove their peers' node ids. An {@link Ed25519ConnectionAuthenticator} must be
         * made for this node ({@link #build()} checks).
         */
        public Builder authenticator(ConnectionAuthenticator authenticator) {
            this.authenticator = authenticator;
            return this;
        }

        public Builder clock(NanoClock clock) {
            this.clock = clock;
            return this;
        }

        /** See {@link TcpOptions#lazyConfirmNanos()}. */
        public Builder lazyConfirm(long duration, TimeUnit unit) {
            this.lazyConfirmNanos = unit.toNanos(duration);
            return this;
        }

        /** See {@link TcpOptions#problemLog()}. */
        public Builder problemLog(java.util.function.Consumer<String> log) {
            this.problemLog = log;
            return this;
        }

        public TcpOptions build() {
            require(NodeId.isValid(localNode), "localNode", localNode, "a valid NodeId");
            Objects.requireNonNull(bindAddress, "bindAddress");
            Objects.requireNonNull(peerResolver, "peerResolver");
            Objects.requireNonNull(idleStrategy, "idleStrategy");
            Objects.requireNonNull(authenticator, "authenticator");
            if (authenticator instanceof Ed25519ConnectionAuthenticator keys) {
                keys.requireKeyOf(localNode, "tcp fabric option authenticator");
            }
            Objects.requireNonNull(clock, "clock");
            Objects.requireNonNull(problemLog, "problemLog");
            require(maxOutstanding > 0 && maxOutstanding <= 1 << 20, "maxOutstanding", maxOutstanding, "1..2^20");
            require(operationTimeoutNanos > 0, "operationTimeout", operationTimeoutNanos, "positive");
            require(connectBackoffInitialNanos > 0, "connectBackoff initial", connectBackoffInitialNanos, "positive");
            require(connectBackoffMaxNanos >= connectBackoffInitialNanos, "connectBackoff max",
                connectBackoffMaxNanos, "at least the initial backoff");
            require(handshakeTimeoutNanos > 0, "handshakeTimeout", handshakeTimeoutNanos, "positive");
            require(maxFrameBytes >= Wire.MIN_MAX_FRAME_BYTES && maxFrameBytes <= Wire.DEFAULT_MAX_FRAME_BYTES,
                "maxFrameBytes", maxFrameBytes, Wire.MIN_MAX_FRAME_BYTES + ".." + Wire.DEFAULT_MAX_FRAME_BYTES);
            require(maxConnections > 0, "maxConnections", maxConnections, "positive");
            require(lazyConfirmNanos >= 0 && lazyConfirmNanos < operationTimeoutNanos / 2, "lazyConfirm",
                lazyConfirmNanos, "0 or more and less than half the operation timeout");
            return new TcpOptions(this);
        }

        private static void require(boolean ok, String name, long value, String expected) {
            if (!ok) {
                throw new IllegalArgumentException("tcp fabric option " + name + " = " + value
                    + " is invalid; expected " + expected);
            }
        }
    }
}
