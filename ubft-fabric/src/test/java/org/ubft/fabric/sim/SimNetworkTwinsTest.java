package org.ubft.fabric.sim;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.ubft.common.NodeId;
import org.ubft.fabric.Completions;
import org.ubft.fabric.FabricException;
import org.ubft.fabric.Permission;
import org.ubft.fabric.Permissions;
import org.ubft.fabric.Status;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Twins on the simulated network: two endpoints with one node id, each reached by the peers its route gives it, both
 * with the node id's rights on the memory nodes.
 */
class SimNetworkTwinsTest {
    private static final int TWINNED = NodeId.replica(0);
    private static final int PEER = NodeId.replica(1);
    private static final int MEMNODE = NodeId.memnode(0);
    private static final int REGION = 3;

    /** Node 0 as twins 0 and 1 (each with region REGION writable by PEER), PEER, and a memory node writable by 0. */
    private static SimFabric[] cluster(SimNetwork net) {
        net.defaultLatency(LatencyModel.constant(1_000));
        net.open(MEMNODE).register(REGION, 64, Permissions.none().grant(TWINNED, Permission.READ_WRITE)
            .grant(PEER, Permission.READ));
        SimFabric a = net.openTwin(TWINNED, 0);
        SimFabric b = net.openTwin(TWINNED, 1);
        for (SimFabric t : new SimFabric[] {a, b}) {
            t.register(REGION, 64, Permissions.none().grant(PEER, Permission.READ_WRITE));
        }
        return new SimFabric[] {a, b, net.open(PEER)};
    }

    /** Routes: PEER and twin {@code peerTwin} of node 0 reach each other; the memory node reaches both twins. */
    private static SimNetwork.TwinRoutes peerWith(int peerTwin) {
        return (fromNode, fromTwin, toNode, toTwin) -> {
            if (fromNode == MEMNODE || toNode == MEMNODE) {
                return true;
            }
            return (fromTwin < 0 ? toTwin : fromTwin) == peerTwin;
        };
    }

    private static UnsafeBuffer word(long value) {
        UnsafeBuffer b = new UnsafeBuffer(new byte[8]);
        b.putLong(0, value);
        return b;
    }

    @Test
    void aPeerWritesIntoTheTwinItsRouteGivesAndNoOther() {
        SimNetwork net = new SimNetwork(1);
        SimFabric[] f = cluster(net);
        SimFabricTestbed tb = new SimFabricTestbed(net);
        Completions peer = new Completions(tb, f[2]);
        net.twinRoutes(peerWith(0));
        f[2].write(1, TWINNED, REGION, 0, word(11), 0, 8);
        assertEquals(Status.SUCCESS, peer.await(1));
        net.twinRoutes(peerWith(1));
        f[2].write(2, TWINNED, REGION, 8, word(22), 0, 8);
        assertEquals(Status.SUCCESS, peer.await(2));
        assertEquals(11, f[0].localRegion(REGION).buffer().getLong(0));
        assertEquals(0, f[0].localRegion(REGION).buffer().getLong(8), "twin 0 did not get the second write");
        assertEquals(0, f[1].localRegion(REGION).buffer().getLong(0), "twin 1 did not get the first write");
        assertEquals(22, f[1].localRegion(REGION).buffer().getLong(8));

        // a peer routed to no twin reaches nothing
        net.twinRoutes(peerWith(-1));
        f[2].write(3, TWINNED, REGION, 16, word(33), 0, 8);
        assertEquals(Status.UNREACHABLE, peer.await(3));
        // a twin's own operations reach the peer only on its route
        net.twinRoutes(peerWith(1));
        UnsafeBuffer into = new UnsafeBuffer(new byte[8]);
        Completions a = new Completions(tb, f[0]);
        Completions b = new Completions(tb, f[1]);
        f[0].read(4, MEMNODE, REGION, 0, into, 0, 8);
        assertEquals(Status.SUCCESS, a.await(4), "both twins reach the memory node");
        f[0].write(5, PEER, REGION, 0, word(1), 0, 8);
        assertEquals(Status.UNREACHABLE, a.await(5), "twin 0 is not routed to the peer");
        f[1].write(6, PEER, REGION, 0, word(1), 0, 8);
        assertEquals(Status.ACCESS_DENIED, b.await(6), "twin 1 reaches the peer (which has no such region)");
    }

    @Test
    void bothTwinsWriteTheNodesRegionOnAMemoryNode() {
        SimNetwork net = new SimNetwork(2);
        SimFabric[] f = cluster(net);
        SimFabricTestbed tb = new SimFabricTestbed(net);
        net.twinRoutes(peerWith(0));
        Completions a = new Completions(tb, f[0]);
        Completions b = new Completions(tb, f[1]);
        Completions peer = new Completions(tb, f[2]);
        f[0].write(1, MEMNODE, REGION, 0, word(5), 0, 8);
        f[1].write(1, MEMNODE, REGION, 8, word(6), 0, 8);
        assertEquals(Status.SUCCESS, a.await(1));
        assertEquals(Status.SUCCESS, b.await(1));
        UnsafeBuffer into = new UnsafeBuffer(new byte[16]);
        f[2].read(2, MEMNODE, REGION, 0, into, 0, 16);
        assertEquals(Status.SUCCESS, peer.await(2));
        assertEquals(5, into.getLong(0));
        assertEquals(6, into.getLong(8));
    }

    @Test
    void anAnswerIsLostWhenTheRouteChangesWhileItTravels() {
        SimNetwork net = new SimNetwork(3);
        SimFabric[] f = cluster(net);
        SimFabricTestbed tb = new SimFabricTestbed(net);
        Completions peer = new Completions(tb, f[2]);
        net.twinRoutes(peerWith(0));
        f[2].write(1, TWINNED, REGION, 0, word(7), 0, 8);
        net.runFor(1_500); // arrived at twin 0 (1 us), the answer is on its way back
        net.twinRoutes(peerWith(1));
        assertEquals(Status.UNREACHABLE, peer.await(1));
        assertEquals(7, f[0].localRegion(REGION).buffer().getLong(0), "the write itself landed at twin 0");
    }

    @Test
    void twinsCrashAndRestartOneByOne() {
        SimNetwork net = new SimNetwork(4);
        SimFabric[] f = cluster(net);
        assertThrows(FabricException.class, () -> net.open(TWINNED));
        assertThrows(FabricException.class, () -> net.openTwin(TWINNED, 1));
        assertThrows(FabricException.class, () -> net.openTwin(PEER, 0));
        net.crashTwin(TWINNED, 1);
        assertTrue(net.isUp(TWINNED));
        assertFalse(net.isTwinUp(TWINNED, 1));
        // with the default routes, a peer reaches the first twin that is up
        SimFabricTestbed tb = new SimFabricTestbed(net);
        Completions peer = new Completions(tb, f[2]);
        net.crashTwin(TWINNED, 0);
        assertFalse(net.isUp(TWINNED));
        SimFabric b = net.openTwin(TWINNED, 1);
        b.register(REGION, 64, Permissions.none().grant(PEER, Permission.READ_WRITE));
        f[2].write(1, TWINNED, REGION, 0, word(9), 0, 8);
        assertEquals(Status.SUCCESS, peer.await(1));
        assertEquals(9, b.localRegion(REGION).buffer().getLong(0));
        assertEquals(1, b.twin());
        net.crash(TWINNED);
        assertFalse(net.isUp(TWINNED));
    }

    /** A workload over twins: the same seed gives the same fingerprint, and the twin that answers is part of it. */
    private static long workload(long seed, int routeFlip) {
        SimNetwork net = new SimNetwork(seed).defaultLatency(LatencyModel.uniform(500, 3_000));
        SimFabric[] f = cluster(net);
        SimFabricTestbed tb = new SimFabricTestbed(net);
        Completions peer = new Completions(tb, f[2]);
        for (int i = 0; i < 50; i++) {
            net.twinRoutes(peerWith((i / routeFlip) % 2));
            f[2].write(i, TWINNED, REGION, (i % 8) * 8, word(i), 0, 8);
            peer.await(i);
        }
        return net.fingerprint();
    }

    @Test
    void twinsAreDeterministicAndWhichTwinAnswersCounts() {
        assertEquals(workload(5, 3), workload(5, 3));
        assertNotEquals(workload(5, 3), workload(5, 4), "other routes, other execution");
    }
}
