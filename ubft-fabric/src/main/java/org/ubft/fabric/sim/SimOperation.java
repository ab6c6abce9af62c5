package org.ubft.fabric.sim;

import org.agrona.MutableDirectBuffer;
import org.ubft.fabric.Status;

/** One operation in flight in the simulated network. */
final class SimOperation {
    final long workRequestId;
    final SimFabric poster;
    final int owner;
    final int regionId;
    final int offset;
    final int length;
    final boolean isWrite;
    /** WRITE: a copy of the source taken at post. READ: the bytes read at the owner. */
    final byte[] data;
    final MutableDirectBuffer dst;
    final int dstIndex;
    Status status;
    boolean ready;
    /** The endpoint the operation reached (for a node with twins: the one its route chose), once it arrived. */
    SimFabric target;

    SimOperation(long workRequestId, SimFabric poster, int owner, int regionId, int offset, int length,
                 boolean isWrite, byte[] data, MutableDirectBuffer dst, int dstIndex) {
        this.workRequestId = workRequestId;
        this.poster = poster;
        this.owner = owner;
        this.regionId = regionId;
        this.offset = offset;
        this.length = length;
        this.isWrite = isWrite;
        this.data = data;
        this.dst = dst;
        this.dstIndex = dstIndex;
    }
}
