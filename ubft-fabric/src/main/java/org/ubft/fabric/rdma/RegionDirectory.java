package org.ubft.fabric.rdma;

/** This node's regions, as the connection agent looks them up (any thread). */
interface RegionDirectory {
    /** Region {@code regionId} of this node, or null. */
    RdmaRegion region(int regionId);

    /** True if some region of this node lets {@code node} write it. */
    boolean grantsWrite(int node);

    /** Changes whenever a region is registered (rights only grow; the agent re-checks queue pairs then). */
    long version();
}
