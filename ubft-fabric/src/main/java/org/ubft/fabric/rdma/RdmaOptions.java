package org.ubft.fabric.rdma;

import org.ubft.common.NodeId;
import org.ubft.fabric.tcp.Ed25519ConnectionAuthenticator;

import java.net.InetSocketAddress;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

/** How an {@link RdmaFabric} is set up. Immutable; made with {@link #builder}. */
public final class RdmaOptions {
    /** Default bytes of registered staging memory for operations in flight. */
    public static final int DEFAULT_STAGING_BYTES = 16 << 20;

    private final int nodeId;
    private final InetSocketAddress listenAddress;
    private final IntFunction<InetSocketAddress> peerResolver;
    private final int maxOutstanding;
    private final long operationTimeoutNanos;
    private final int stagingBytes;
    private final Ed25519ConnectionAuthenticator authenticator;

    private RdmaOptions(Builder b) {
        this.nodeId = b.nodeId;
        this.listenAddress = Objects.requireNonNull(b.listenAddress, "listenAddress");
        this.peerResolver = Objects.requireNonNull(b.peerResolver, "peerResolver");
        this.maxOutstanding = b.maxOutstanding;
        this.operationTimeoutNanos = b.operationTimeoutNanos;
        this.stagingBytes = b.stagingBytes;
        this.authenticator = b.authenticator;
        if (authenticator != null) {
            authenticator.requireKeyOf(nodeId, "the authenticator");
        }
    }

    public static Builder builder(int nodeId) {
        return new Builder(nodeId);
    }

    public int nodeId() {
        return nodeId;
    }

    /** Where this node's connection manager listens (an IP address of the RDMA device). */
    public InetSocketAddress listenAddress() {
        return listenAddress;
    }

    /** The address of a peer's connection manager, or null if the node is unknown. */
    public IntFunction<InetSocketAddress> peerResolver() {
        return peerResolver;
    }

    public int maxOutstanding() {
        return maxOutstanding;
    }

    /** How long connecting, the handshake and a region lookup may take before the operations waiting end UNREACHABLE. */
    public long operationTimeoutNanos() {
        return operationTimeoutNanos;
    }

    public int stagingBytes() {
        return stagingBytes;
    }

    /** The node's keys for the handshake; null: a peer is trusted to be the node it claims (tests only). */
    public Ed25519ConnectionAuthenticator authenticator() {
        return authenticator;
    }

    /** Builds {@link RdmaOptions}. */
    public static final class Builder {
        private final int nodeId;
        private InetSocketAddress listenAddress;
        private IntFunction<InetSocketAddress> peerResolver;
        private int maxOutstanding = 4096;
        private long operationTimeoutNanos = TimeUnit.SECONDS.toNanos(1);
        private int stagingBytes = DEFAULT_STAGING_BYTES;
        private Ed25519ConnectionAuthenticator authenticator;

        private Builder(int nodeId) {
            if (!NodeId.isValid(nodeId)) {
                throw new IllegalArgumentException("not a node id: " + nodeId);
            }
            this.nodeId = nodeId;
        }

        public Builder listenAddress(InetSocketAddress address) {
            this.listenAddress = address;
            return this;
        }

        public Builder peerResolver(IntFunction<InetSocketAddress> resolver) {
            this.peerResolver = resolver;
            return this;
        }

        public Builder maxOutstanding(int max) {
            if (max <= 0) {
                throw new IllegalArgumentException("maxOutstanding must be positive, got " + max);
            }
            this.maxOutstanding = max;
            return this;
        }

        public Builder operationTimeout(long amount, TimeUnit unit) {
            this.operationTimeoutNanos = unit.toNanos(amount);
            return this;
        }

        /** At least {@link org.ubft.fabric.Fabric#MAX_OPERATION_BYTES}, so that any one operation fits. */
        public Builder stagingBytes(int bytes) {
            if (bytes < org.ubft.fabric.Fabric.MAX_OPERATION_BYTES) {
                throw new IllegalArgumentException("staging must hold one largest operation ("
                    + org.ubft.fabric.Fabric.MAX_OPERATION_BYTES + " bytes), got " + bytes);
            }
            this.stagingBytes = bytes;
            return this;
        }

        public Builder authenticator(Ed25519ConnectionAuthenticator keys) {
            this.authenticator = keys;
            return this;
        }

        public RdmaOptions build() {
            return new RdmaOptions(this);
        }
    }
}
