package org.ubft.fabric.rdma;

import org.agrona.BufferUtil;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.common.NodeId;
import org.ubft.fabric.CompletionHandler;
import org.ubft.fabric.CompletionRing;
import org.ubft.fabric.Fabric;
import org.ubft.fabric.FabricException;
import org.ubft.fabric.LocalRegion;
import org.ubft.fabric.OperationGuard;
import org.ubft.fabric.Permissions;
import org.ubft.fabric.Status;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The {@link Fabric} over RDMA verbs (docs/design.md §4), on the {@link RdmaDevice} boundary: DiSNI on real
 * hardware, the in-memory emulation in tests.
 * <ul>
 *   <li>A region is registered twice: read-only and, if some peer may write it, read-write ({@link RdmaRegion}).
 *       Peers get an rkey only by LOOKUP over their own queue pair, after proving their node id in the tcp fabric's
 *       signed handshake, and only the one their permission allows.</li>
 *   <li>One reliable-connection queue pair per peer and direction ({@link PeerConnection} as poster,
 *       {@link ServedPeer} as owner); the owner's queue pair allows remote WRITEs only for a node that some region
 *       lets write.</li>
 *   <li>A WRITE completes for the caller when a READ posted after it on the same queue pair does (paper §6.1,
 *       footnote 4): then its bytes are visible to every later READ, whoever posts it.</li>
 *   <li>A failed queue pair ends its operations UNREACHABLE (ACCESS_DENIED where the owner's NIC refused one) and
 *       is replaced by a new connection, with backoff, when there is work for that owner.</li>
 *   <li>Bounded: {@code maxOutstanding} operations, whose bytes are staged in one registered buffer of
 *       {@link RdmaOptions#stagingBytes()}; posting beyond either is a local error.</li>
 * </ul>
 * The user thread posts and polls; the owner's side runs on a thread of its own ({@link ConnectionAgent}).
 */
public final class RdmaFabric implements Fabric, RegionDirectory {
    /** How long {@link #close} waits for the connection agent to stop. */
    static final long AGENT_JOIN_MILLIS = 5_000;
    /** Longest region: its memory is one buffer of the length rounded up to 64 bytes, which an int must hold. */
    static final int MAX_REGION_LENGTH = Integer.MAX_VALUE - 64;

    private final RdmaOptions options;
    private final RdmaDevice device;
    private final OperationGuard guard;
    private final OperationTable operations;
    private final StagingRing staging;
    private final MemoryRegistration stagingRegistration;
    private final UnsafeBuffer stagingView;
    /** Written by the user thread (copy on write), read by it and the connection agent. */
    private volatile RdmaRegionTable regions = RdmaRegionTable.EMPTY;
    private final AtomicLong regionsVersion = new AtomicLong();
    private final Int2ObjectHashMap<PeerConnection> peerByNode = new Int2ObjectHashMap<>();
    private PeerConnection[] peers = new PeerConnection[0];
    private final CompletionRing completed;
    private final RdmaCounters counters = new RdmaCounters();
    private final ConnectionAgent agent;
    private final Thread agentThread;
    private final long agentJoinMillis;
    private volatile String lastProblem;

    /** Opens the fabric on {@code device}, which it owns from now on (and closes). */
    public RdmaFabric(RdmaOptions options, RdmaDevice device) {
        this(options, device, AGENT_JOIN_MILLIS);
    }

    /** With {@link #close} waiting at most {@code agentJoinMillis} for the connection agent (tests). */
    RdmaFabric(RdmaOptions options, RdmaDevice device, long agentJoinMillis) {
        this.options = options;
        this.agentJoinMillis = agentJoinMillis;
        this.device = device;
        int max = options.maxOutstanding();
        this.guard = new OperationGuard(max);
        this.operations = new OperationTable(max);
        this.staging = new StagingRing(options.stagingBytes(), max);
        this.completed = new CompletionRing(max);
        try {
            this.stagingRegistration = device.register(
                BufferUtil.allocateDirectAligned(options.stagingBytes(), 64), Access.LOCAL_WRITE);
            this.stagingView = new UnsafeBuffer(stagingRegistration.buffer());
            device.listen(options.listenAddress());
        } catch (RuntimeException e) {
            device.close();
            throw e;
        }
        this.agent = new ConnectionAgent(device, this, counters, options.authenticator(),
            options.operationTimeoutNanos(), this::problem);
        this.agentThread = new Thread(agent, "ubft-rdma-" + NodeId.toString(options.nodeId()));
        agentThread.setDaemon(true);
        agentThread.start();
    }

    @Override
    public int localNode() {
        return options.nodeId();
    }

    @Override
    public LocalRegion register(int regionId, int length, Permissions permissions) {
        if (guard.isClosed()) {
            throw new FabricException("fabric is closed");
        }
        if (length <= 0) {
            throw new FabricException("region length must be positive, got " + length);
        }
        if (length > MAX_REGION_LENGTH) {
            throw new FabricException("region length " + length + " exceeds the rdma fabric's largest region, "
                + MAX_REGION_LENGTH + " bytes; the largest regions are tail-channel rings of ctbcast.tail slots of "
                + "channel.max.message.bytes each: lower either in the cluster file");
        }
        if (regions.contains(regionId)) {
            throw new FabricException("region " + regionId + " of " + NodeId.toString(localNode())
                + " is already registered");
        }
        ByteBuffer memory = BufferUtil.allocateDirectAligned((length + 63) & ~63, 64);
        MemoryRegistration readOnly = device.register(memory, Access.REMOTE_READ);
        MemoryRegistration readWrite;
        try {
            readWrite = RdmaRegion.anyWriter(permissions)
                ? device.register(memory, Access.REMOTE_READ | Access.REMOTE_WRITE) : null;
        } catch (RuntimeException e) {
            device.deregister(readOnly);
            throw e;
        }
        RdmaRegion region = new RdmaRegion(regionId, memory, length, permissions, readOnly, readWrite);
        regions = regions.with(region);
        regionsVersion.incrementAndGet();
        return region;
    }

    @Override
    public LocalRegion localRegion(int regionId) {
        return regions.get(regionId);
    }

    @Override
    public RdmaRegion region(int regionId) {
        return regions.get(regionId);
    }

    @Override
    public boolean grantsWrite(int node) {
        for (RdmaRegion r : regions.all()) {
            if (r.writableBy(node)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public long version() {
        return regionsVersion.get();
    }

    @Override
    public void read(long workRequestId, int owner, int regionId, int offset, MutableDirectBuffer dst,
                     int dstIndex, int length) {
        guard.admit(offset, length, dst.capacity(), dstIndex);
        if (owner == localNode()) {
            local(workRequestId, regionId, offset, dst, dstIndex, null, 0, length);
            return;
        }
        PeerConnection peer = peer(owner);
        if (peer == null) {
            unknownOwner(workRequestId, owner);
            return;
        }
        int slot = take(workRequestId, OperationTable.READ, regionId, offset, length);
        operations.destination[slot] = dst;
        operations.destinationIndex[slot] = dstIndex;
        peer.enqueue(slot);
    }

    @Override
    public void write(long workRequestId, int owner, int regionId, int offset, DirectBuffer src, int srcIndex,
                      int length) {
        guard.admit(offset, length, src.capacity(), srcIndex);
        if (owner == localNode()) {
            local(workRequestId, regionId, offset, null, 0, src, srcIndex, length);
            return;
        }
        PeerConnection peer = peer(owner);
        if (peer == null) {
            unknownOwner(workRequestId, owner);
            return;
        }
        int slot = take(workRequestId, OperationTable.WRITE, regionId, offset, length);
        stagingView.putBytes(staging.offset(operations.stagingEntry[slot]), src, srcIndex, length);
        peer.enqueue(slot);
    }

    private int take(long workRequestId, byte kind, int regionId, int offset, int length) {
        int entry = staging.allocate(length);
        if (entry < 0) {
            guard.completed();
            throw new FabricException("the rdma fabric's " + staging.capacity() + " bytes of staging memory are taken "
                + "by operations in flight; poll completions before posting more, or raise fabric.rdma.staging.bytes");
        }
        int slot = operations.take(workRequestId, kind, regionId, offset, length,
            nanoTime() + options.operationTimeoutNanos());
        operations.stagingEntry[slot] = entry;
        return slot;
    }

    /** An operation on this node's own region: done at once, in order with the others of the poller. */
    private void local(long id, int regionId, int offset, MutableDirectBuffer dst, int dstIndex, DirectBuffer src,
                       int srcIndex, int length) {
        RdmaRegion r = regions.get(regionId);
        Status s = Status.ACCESS_DENIED;
        if (r != null && OperationGuard.inBounds(offset, length, r.length())) {
            if (dst != null) {
                dst.putBytes(dstIndex, r.buffer(), offset, length);
            } else {
                r.buffer().putBytes(offset, src, srcIndex, length);
            }
            s = Status.SUCCESS;
        }
        completed.add(id, s);
    }

    /**
     * The connection to {@code node}, made on first use; null, with nothing allocated, if {@code node} is no node
     * id or has no address (an id a peer made up must not cost a connection's memory).
     */
    private PeerConnection peer(int node) {
        PeerConnection p = peerByNode.get(node);
        if (p == null) {
            if (!NodeId.isValid(node) || options.peerResolver().apply(node) == null) {
                return null;
            }
            p = new PeerConnection(this, node);
            peerByNode.put(node, p);
            peers = Arrays.copyOf(peers, peers.length + 1);
            peers[peers.length - 1] = p;
        }
        return p;
    }

    /** An operation on a node that is not in the cluster: UNREACHABLE, like any owner that cannot be reached. */
    private void unknownOwner(long id, int owner) {
        problem(NodeId.toString(owner) + " has no address in the cluster file: its operations end UNREACHABLE");
        completed.add(id, Status.UNREACHABLE);
    }

    /** Connections made to owners (tests). */
    int peerConnections() {
        return peers.length;
    }

    @Override
    public int poll(CompletionHandler handler, int limit) {
        if (guard.isClosed()) {
            return 0;
        }
        long now = nanoTime();
        device.pollOutgoingEvents(); // once per poll, for every peer's queue pair
        for (PeerConnection p : peers) {
            p.poll(now);
        }
        int n = 0;
        while (n < limit && completed.size() > 0) {
            guard.completed();
            n++;
            completed.pollOne(handler);
        }
        return n;
    }

    /** An operation is done (in post order for its owner): its slot and staging go back, its completion is queued. */
    void complete(int slot) {
        completed.add(operations.userId[slot], operations.status[slot]);
        staging.free(operations.stagingEntry[slot]);
        operations.release(slot);
    }

    @Override
    public boolean connectionLost(int node) {
        PeerConnection p = peerByNode.get(node);
        return p != null && p.connectionLost();
    }

    @Override
    public String lastProblem() {
        return lastProblem;
    }

    void problem(String line) {
        lastProblem = line;
    }

    @Override
    public int outstanding() {
        return guard.outstanding();
    }

    @Override
    public int maxOutstanding() {
        return guard.maxOutstanding();
    }

    /** What this fabric counted. */
    public RdmaCounters counters() {
        return counters;
    }

    /** The device it runs on. */
    public RdmaDevice device() {
        return device;
    }

    @Override
    public void close() {
        if (guard.isClosed()) {
            return;
        }
        guard.close();
        completed.clear();
        agent.stop();
        boolean agentStopped = joinAgent();
        for (PeerConnection p : peers) { // this thread's own queue pairs and memory: the agent never uses them
            p.close();
        }
        device.deregister(stagingRegistration);
        if (!agentStopped) {
            // it may still be answering a LOOKUP with a region's registration or polling a served queue pair: the
            // device and the registrations stay (the process frees them at exit) rather than go under it
            counters.increment(RdmaCounters.Counter.AGENT_JOIN_TIMEOUTS);
            String line = "the rdma connection agent of " + NodeId.toString(localNode()) + " did not stop within "
                + agentJoinMillis + " ms of close: its device and the registrations of " + regions.all().length
                + " regions are left to the process, not freed under it";
            problem(line);
            System.err.println(line);
            return;
        }
        for (RdmaRegion r : regions.all()) { // registrations go before the protection domain
            device.deregister(r.readOnly());
            if (r.readWrite() != null) {
                device.deregister(r.readWrite());
            }
        }
        device.close();
    }

    /** Waits for the connection agent's thread to end; false if it did not within {@link #agentJoinMillis}. */
    private boolean joinAgent() {
        try {
            agentThread.join(agentJoinMillis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return !agentThread.isAlive();
    }

    // ---- for PeerConnection ----------------------------------------------------------------------------------

    RdmaOptions options() {
        return options;
    }

    OperationTable operations() {
        return operations;
    }

    StagingRing staging() {
        return staging;
    }

    MemoryRegistration stagingRegistration() {
        return stagingRegistration;
    }

    UnsafeBuffer stagingView() {
        return stagingView;
    }

    RdmaCounters countersInternal() {
        return counters;
    }

    long nanoTime() {
        return System.nanoTime();
    }
}
