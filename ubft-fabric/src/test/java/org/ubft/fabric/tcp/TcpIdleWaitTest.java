package org.ubft.fabric.tcp;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.ubft.common.NodeId;
import org.ubft.fabric.Completions;
import org.ubft.fabric.Status;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * How long an idle network waits on its sockets ({@link NetworkAgent#idleWaitMillis}): a network thread of its own
 * with no timer running waits long (only bytes or a post can give it work, and both end the wait), anything with a
 * deadline to keep waits {@link SocketWaitIdleStrategy#MAX_WAIT_MILLIS}, and a closing fabric does not wait at all.
 */
class TcpIdleWaitTest {
    private static final int NODE = NodeId.memnode(0);
    private static final int SILENT = NodeId.memnode(1); // never started: operations on it wait for a connection
    private static final long BUSY = SocketWaitIdleStrategy.MAX_WAIT_MILLIS;

    @Test
    void aNetworkThreadWithNoTimerWaitsLongAndOneWithAnOperationInFlightDoesNot() {
        try (TcpFabricTestbed testbed = new TcpFabricTestbed(b -> b.operationTimeout(60, TimeUnit.SECONDS))) {
            TcpFabric fabric = testbed.open(NODE);
            NetworkAgent agent = fabric.networkAgent();
            assertEquals(NetworkAgent.QUIET_WAIT_MILLIS, agent.idleWaitMillis(BUSY), "nothing in flight");
            testbed.addresses().put(SILENT, new java.net.InetSocketAddress("127.0.0.1", 1));
            fabric.write(1, SILENT, 3, 0, new UnsafeBuffer(new byte[8]), 0, 8);
            awaitUntil(() -> agent.idleWaitMillis(BUSY) == BUSY, "an operation waiting for its connection");
        }
    }

    @Test
    void aNetworkSharingItsPollersThreadWaitsNoLongerThanThePollersTimersAllow() {
        try (TcpFabricTestbed testbed = TcpFabricTestbed.sharedThreads()) {
            TcpFabric fabric = testbed.open(NodeId.replica(0));
            assertEquals(BUSY, fabric.networkAgent().idleWaitMillis(BUSY));
        }
    }

    @Test
    void aClosingFabricsNetworkDoesNotWait() {
        try (TcpFabricTestbed testbed = new TcpFabricTestbed()) {
            NetworkAgent agent = testbed.open(NODE).networkAgent();
            agent.beginClose();
            assertTimeoutPreemptively(Duration.ofSeconds(10), () -> agent.await(60_000),
                "a wait after beginClose returns at once");
        }
    }

    @Test
    void anOperationPostedToAnIdleNetworkThreadIsSentAtOnce() {
        try (TcpFabricTestbed testbed = new TcpFabricTestbed()) {
            TcpFabric owner = testbed.open(NODE);
            owner.register(3, 64, org.ubft.fabric.Permissions.none()
                .grant(NodeId.replica(0), org.ubft.fabric.Permission.READ_WRITE));
            TcpFabric poster = testbed.open(NodeId.replica(0));
            Completions cq = new Completions(testbed, poster);
            for (int i = 0; i < 20; i++) {
                poster.write(i, NODE, 3, 0, new UnsafeBuffer(new byte[8]), 0, 8);
                assertEquals(Status.SUCCESS, cq.await(i)); // each found both network threads idle in a long wait
            }
        }
    }

    /** The network thread's state read from this thread: a torn read may throw; it counts as "not yet". */
    private static boolean holds(java.util.function.BooleanSupplier condition) {
        try {
            return condition.getAsBoolean();
        } catch (RuntimeException torn) {
            return false;
        }
    }

    private static void awaitUntil(java.util.function.BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!holds(condition)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within 10 s: " + what);
            }
            Thread.onSpinWait();
        }
    }
}
