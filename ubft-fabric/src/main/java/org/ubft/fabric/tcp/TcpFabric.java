package org.ubft.fabric.tcp;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.OneToOneConcurrentArrayQueue;
import org.ubft.common.NodeId;
import org.ubft.fabric.CompletionHandler;
import org.ubft.fabric.Fabric;
import org.ubft.fabric.FabricException;
import org.ubft.fabric.LocalRegion;
import org.ubft.fabric.OperationGuard;
import org.ubft.fabric.Permissions;
import org.ubft.fabric.Status;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The {@link Fabric} over TCP (docs/design.md §4), java.nio only. Each node listens on one socket and runs
 * one network duty cycle (an Agrona agent) that, like a NIC, serves peers' READ and WRITE requests on this
 * node's regions and enforces their permissions, and that also sends this node's operations and receives
 * their answers. By default the cycle has a thread of its own, so a node's regions are served whether or
 * not the application polls (memory nodes need that); with {@link TcpOptions#sharedThread()} it runs
 * inside {@link #poll} on the caller's thread, which then idles on the sockets
 * ({@link #pollerIdleStrategy}). The user thread posts through a bounded
 * submission queue and polls a bounded completion queue; a READ's bytes are in its destination before
 * its completion is queued, and never written after.
 *
 * <p>Wire format: {@link Wire}. Failure semantics: operations on an owner that is unknown, not
 * connected or silent end {@link Status#UNREACHABLE} at their timeout; losing a connection ends its
 * sent operations UNREACHABLE at once; connections are re-established with exponential backoff.
 * Peer misbehaviour closes the offending connection and shows in {@link #counters()}.
 *
 * <p>Trust: a connection is bound to the node id its peer proves as the configured
 * {@link ConnectionAuthenticator} says: by its Ed25519 key, with a MAC on every later frame, with an
 * {@link Ed25519ConnectionAuthenticator}; by merely announcing it with the default,
 * {@link ConnectionAuthenticator#unauthenticated()}.
 *
 * <p>Memory: connection buffers are bounded by {@link TcpOptions#maxFrameBytes()} each; a WRITE's
 * source is copied at post into its pooled descriptor, so staged WRITE bytes are bounded by the
 * outstanding WRITEs the caller allows itself.
 */
public final class TcpFabric implements Fabric {
    private final TcpOptions options;
    private final int localNode;
    private final NanoClock clock;
    private final OperationGuard guard;
    private final OperationPool pool;
    private final OneToOneConcurrentArrayQueue<TcpOperation> submissions;
    private final OneToOneConcurrentArrayQueue<TcpOperation> completions;
    private final AtomicReference<RegionTable> regions = new AtomicReference<>(RegionTable.EMPTY);
    private final TcpCounters counters = new TcpCounters();
    private final InetSocketAddress localAddress;
    private final NetworkAgent agent;
    private final Selector selector;
    /** The network thread, or null with {@link TcpOptions#sharedThread()} (then {@link #poll} runs the cycle). */
    private final AgentRunner runner;

    /**
     * Binds the listening socket and starts the network thread (unless the options share the poller's).
     *
     * @throws FabricException if the address cannot be bound
     */
    public TcpFabric(TcpOptions options) {
        this.options = options;
        this.localNode = options.localNode();
        this.clock = options.clock();
        this.guard = new OperationGuard(options.maxOutstanding());
        this.pool = new OperationPool(options.maxOutstanding());
        this.submissions = new OneToOneConcurrentArrayQueue<>(options.maxOutstanding());
        this.completions = new OneToOneConcurrentArrayQueue<>(options.maxOutstanding());
        Selector selector = null;
        ServerSocketChannel server = null;
        try {
            selector = Selector.open();
            server = ServerSocketChannel.open();
            server.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            server.bind(options.bindAddress(), 128);
            server.configureBlocking(false);
            localAddress = (InetSocketAddress) server.getLocalAddress();
        } catch (IOException e) {
            closeQuietly(server);
            closeQuietly(selector);
            throw new FabricException("tcp fabric of " + NodeId.toString(localNode) + " cannot listen on "
                + options.bindAddress() + ": " + e.getMessage(), e);
        }
        this.selector = selector;
        agent = new NetworkAgent(options, counters, selector, server, submissions, completions, regions);
        if (options.sharedThread()) {
            runner = null;
            agent.onStart();
        } else {
            IdleStrategy idle = options.waitOnSockets() ? new SocketWaitIdleStrategy(agent) : options.idleStrategy().get();
            runner = new AgentRunner(idle, agent::internalError, null, agent);
            AgentRunner.startOnThread(runner, r -> {
                Thread t = new Thread(r, agent.roleName());
                t.setDaemon(true);
                return t;
            });
        }
    }

    /**
     * With {@link TcpOptions#sharedThread()} and {@link TcpOptions#waitOnSockets()}: a new strategy that idles
     * the polling thread on this fabric's sockets ({@link SocketWaitIdleStrategy}), so that it wakes as soon as
     * bytes arrive; otherwise {@code configured}.
     */
    @Override
    public IdleStrategy pollerIdleStrategy(IdleStrategy configured) {
        return runner == null && options.waitOnSockets() ? new SocketWaitIdleStrategy(agent) : configured;
    }

    /** Wakes the thread waiting on this fabric's sockets, or keeps its next wait from blocking (never lost). */
    @Override
    public void wakePoller() {
        agent.wake();
    }

    /** The address this node listens on (with the port picked if the options said 0). */
    public InetSocketAddress localAddress() {
        return localAddress;
    }

    /** This fabric's event counts. */
    public TcpCounters counters() {
        return counters;
    }

    public TcpOptions options() {
        return options;
    }

    /** The network duty cycle (tests). */
    NetworkAgent networkAgent() {
        return agent;
    }

    /** The last unexpected error caught on the network thread, or null (diagnostics). */
    public Throwable lastInternalError() {
        return agent.lastInternalError();
    }

    @Override
    public int localNode() {
        return localNode;
    }

    @Override
    public LocalRegion register(int regionId, int length, Permissions permissions) {
        if (guard.isClosed()) {
            throw new FabricException("fabric is closed");
        }
        if (length <= 0) {
            throw new FabricException("region length must be positive, got " + length);
        }
        if (permissions == null) {
            throw new FabricException("region " + regionId + " needs permissions");
        }
        RegionTable table = regions.get();
        if (table.contains(regionId)) {
            throw new FabricException("region " + regionId + " of " + NodeId.toString(localNode) + " exists");
        }
        TcpRegion region;
        try {
            region = new TcpRegion(regionId, length, permissions);
        } catch (OutOfMemoryError e) {
            throw new FabricException("cannot allocate " + length + " bytes for region " + regionId, e);
        }
        regions.set(table.with(region));
        return region;
    }

    @Override
    public LocalRegion localRegion(int regionId) {
        return regions.get().get(regionId);
    }

    @Override
    public void read(long workRequestId, int owner, int regionId, int offset,
                     MutableDirectBuffer dst, int dstIndex, int length) {
        checkLength(length);
        guard.admit(offset, length, dst.capacity(), dstIndex);
        TcpOperation op = prepare(workRequestId, owner, regionId, offset, length, false);
        op.dst = dst;
        op.dstIndex = dstIndex;
        submit(op);
    }

    @Override
    public void write(long workRequestId, int owner, int regionId, int offset,
                      DirectBuffer src, int srcIndex, int length) {
        write(workRequestId, owner, regionId, offset, src, srcIndex, length, false);
    }

    /** Sent as WRITE_LAZY_REQ: the owner confirms it with others ({@link Wire#CONFIRM}) instead of answering it. */
    @Override
    public void writeLazily(long workRequestId, int owner, int regionId, int offset,
                            DirectBuffer src, int srcIndex, int length) {
        write(workRequestId, owner, regionId, offset, src, srcIndex, length, true);
    }

    private void write(long workRequestId, int owner, int regionId, int offset,
                       DirectBuffer src, int srcIndex, int length, boolean lazy) {
        checkLength(length);
        guard.admit(offset, length, src.capacity(), srcIndex);
        TcpOperation op = prepare(workRequestId, owner, regionId, offset, length, true);
        op.lazy = lazy;
        op.preparePayload(length);
        src.getBytes(srcIndex, op.payload, 0, length);
        submit(op);
    }

    /**
     * The frame limit may make this fabric's largest operation smaller than the SPI's. (An owner id that
     * names no node is not an error here: like any unknown node, it is unreachable.)
     */
    private void checkLength(int length) {
        if (length > options.maxOperationBytes()) {
            throw new FabricException("operation length " + length + " exceeds this fabric's limit of "
                + options.maxOperationBytes() + " bytes (maxFrameBytes " + options.maxFrameBytes() + ")");
        }
    }

    private TcpOperation prepare(long workRequestId, int owner, int regionId, int offset, int length,
                                 boolean isWrite) {
        TcpOperation op = pool.acquire();
        op.workRequestId = workRequestId;
        op.owner = owner;
        op.regionId = regionId;
        op.offset = offset;
        op.length = length;
        op.isWrite = isWrite;
        op.lazy = false;
        op.deadlineNanos = clock.nanoTime() + options.operationTimeoutNanos();
        return op;
    }

    private void submit(TcpOperation op) {
        if (!submissions.offer(op)) {
            // Cannot happen: the queue holds maxOutstanding and the guard admitted this operation.
            throw new IllegalStateException("submission queue full");
        }
        if (runner != null && agent.isWaiting()) {
            // a network thread waiting on its sockets sends this at once; its wait looks at the submission queue after
            // it sets waiting, so a post needs no wake request (and no volatile write per operation)
            selector.wakeup();
        }
    }

    @Override
    public int poll(CompletionHandler handler, int limit) {
        if (guard.isClosed()) {
            return 0;
        }
        if (runner == null) {
            try {
                agent.doWork();
            } catch (Exception e) {
                agent.internalError(e);
            }
        }
        int n = 0;
        while (n < limit) {
            TcpOperation op = completions.poll();
            if (op == null) {
                break;
            }
            long id = op.workRequestId;
            Status status = op.status;
            pool.release(op);
            guard.completed();
            n++;
            handler.onCompletion(id, status);
        }
        return n;
    }

    @Override
    public String lastProblem() {
        return agent.lastProblem();
    }

    @Override
    public boolean connectionLost(int node) {
        return agent.isConnectionLost(node);
    }

    @Override
    public int outstanding() {
        return guard.outstanding();
    }

    @Override
    public int maxOutstanding() {
        return guard.maxOutstanding();
    }

    /** Stops the network thread (closing every connection and the listening socket) and drops operations. */
    @Override
    public void close() {
        if (guard.isClosed()) {
            return;
        }
        guard.close();
        if (runner != null) {
            agent.beginClose();
            runner.close();
        } else {
            agent.onClose();
        }
        regions.set(RegionTable.EMPTY);
        submissions.clear();
        completions.clear();
    }

    private static void closeQuietly(AutoCloseable c) {
        if (c != null) {
            try {
                c.close();
            } catch (Exception ignored) {
                // best effort
            }
        }
    }

    @Override
    public String toString() {
        return "TcpFabric{" + NodeId.toString(localNode) + " at " + localAddress + ", " + counters + "}";
    }
}
