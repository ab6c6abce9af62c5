package org.ubft.fabric.sim;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.ubft.common.NodeId;
import org.ubft.fabric.CompletionHandler;
import org.ubft.fabric.Fabric;
import org.ubft.fabric.FabricException;
import org.ubft.fabric.LocalRegion;
import org.ubft.fabric.OperationGuard;
import org.ubft.fabric.Permissions;
import org.ubft.fabric.Status;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/** One node's endpoint on a {@link SimNetwork}. */
public final class SimFabric implements Fabric {
    private final SimNetwork network;
    private final int localNode;
    /** -1 for a node's only endpoint; 0 or 1 for one of its twins ({@link SimNetwork#openTwin}). */
    private final int twin;
    private final OperationGuard guard;
    private final Map<Integer, SimRegion> regions = new HashMap<>();
    private final Map<Long, SimQueuePair> queuePairs = new HashMap<>();
    private final ArrayDeque<SimOperation> completions = new ArrayDeque<>();

    SimFabric(SimNetwork network, int localNode, int twin, int maxOutstanding) {
        this.network = network;
        this.localNode = localNode;
        this.twin = twin;
        this.guard = new OperationGuard(maxOutstanding);
    }

    @Override
    public int localNode() {
        return localNode;
    }

    /** Which twin of its node this endpoint is (0 or 1, {@link SimNetwork#openTwin}), or -1 for a node's only one. */
    public int twin() {
        return twin;
    }

    public SimNetwork network() {
        return network;
    }

    /** See {@link SimNetwork#connectionLost}: the node crashed (every twin of it) or refuses this node's connections. */
    @Override
    public boolean connectionLost(int node) {
        return network.connectionLost(localNode, node);
    }

    @Override
    public LocalRegion register(int regionId, int length, Permissions permissions) {
        if (guard.isClosed()) {
            throw new FabricException("fabric is closed");
        }
        if (length <= 0) {
            throw new FabricException("region length must be positive, got " + length);
        }
        if (regions.containsKey(regionId)) {
            throw new FabricException("region " + regionId + " of " + NodeId.toString(localNode) + " exists");
        }
        SimRegion region = new SimRegion(regionId, length, permissions);
        regions.put(regionId, region);
        return region;
    }

    @Override
    public LocalRegion localRegion(int regionId) {
        return regions.get(regionId);
    }

    @Override
    public void read(long workRequestId, int owner, int regionId, int offset,
                     MutableDirectBuffer dst, int dstIndex, int length) {
        guard.admit(offset, length, dst.capacity(), dstIndex);
        network.post(new SimOperation(workRequestId, this, owner, regionId, offset, length, false,
            new byte[length], dst, dstIndex));
    }

    @Override
    public void write(long workRequestId, int owner, int regionId, int offset,
                      DirectBuffer src, int srcIndex, int length) {
        guard.admit(offset, length, src.capacity(), srcIndex);
        byte[] copy = new byte[length];
        src.getBytes(srcIndex, copy);
        network.post(new SimOperation(workRequestId, this, owner, regionId, offset, length, true,
            copy, null, 0));
    }

    @Override
    public int poll(CompletionHandler handler, int limit) {
        int n = 0;
        while (n < limit && !completions.isEmpty()) {
            SimOperation op = completions.poll();
            guard.completed();
            n++;
            handler.onCompletion(op.workRequestId, op.status);
        }
        return n;
    }

    @Override
    public int outstanding() {
        return guard.outstanding();
    }

    @Override
    public int maxOutstanding() {
        return guard.maxOutstanding();
    }

    @Override
    public void close() {
        if (!guard.isClosed()) {
            guard.close();
            regions.clear();
            queuePairs.clear();
            completions.clear();
            network.closed(this);
        }
    }

    boolean isClosed() {
        return guard.isClosed();
    }

    SimQueuePair queuePair(int owner, int regionId) {
        return queuePairs.computeIfAbsent(((long) owner << 32) | (regionId & 0xFFFF_FFFFL), k -> new SimQueuePair());
    }

    /** The target region of {@code op} if it exists, the range is in bounds and the poster may access it. */
    SimRegion regionFor(SimOperation op) {
        SimRegion region = regions.get(op.regionId);
        if (region == null || !OperationGuard.inBounds(op.offset, op.length, region.length())) {
            return null;
        }
        int poster = op.poster.localNode();
        if (poster != localNode) {
            var p = region.permissions().of(poster);
            if (op.isWrite ? !p.canWrite() : !p.canRead()) {
                return null;
            }
        }
        return region;
    }

    /** Called when {@code op} is ready: hands over, in posting order, every ready operation of its queue pair. */
    void release(SimOperation op) {
        SimQueuePair qp = queuePair(op.owner, op.regionId);
        while (!qp.inFlight.isEmpty() && qp.inFlight.peekFirst().ready) {
            SimOperation done = qp.inFlight.pollFirst();
            if (!done.isWrite && done.status == Status.SUCCESS) {
                done.dst.putBytes(done.dstIndex, done.data, 0, done.length);
            }
            completions.add(done);
        }
    }
}
