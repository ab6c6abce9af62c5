package org.ubft.fabric.tcp;

import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.ubft.common.NodeId;
import org.ubft.fabric.LocalRegion;
import org.ubft.fabric.Permission;
import org.ubft.fabric.Permissions;
import org.ubft.fabric.Status;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A tcp fabric whose network runs on the polling thread ({@link TcpOptions#sharedThread()}): it has no network thread,
 * serves peers only inside {@code poll}, and its poller, waiting on the sockets, wakes as soon as a peer's bytes
 * arrive or another thread calls {@code wakePoller}. The waits here are a minute long, so a wake-up that did not
 * happen shows as a timeout; nothing depends on how fast the machine is.
 */
class TcpSharedThreadTest {
    private static final int SHARED = NodeId.replica(0);
    private static final int PEER = NodeId.memnode(1); // has a network thread: its WRITE goes out on its own
    private static final int REGION = 3;
    private static final long LONG_WAIT_MILLIS = 60_000;

    private static boolean hasThread(String name) {
        return Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.getName().equals(name));
    }

    @Test
    void sharedFabricHasNoNetworkThreadAndItsPollerWaitsOnTheSockets() {
        try (TcpFabricTestbed testbed = TcpFabricTestbed.sharedThreads()) {
            TcpFabric shared = testbed.open(SHARED);
            TcpFabric own = testbed.open(NodeId.memnode(0));
            assertFalse(hasThread("ubft-tcp-" + NodeId.toString(SHARED)), "no network thread with a shared thread");
            assertInstanceOf(SocketWaitIdleStrategy.class, shared.pollerIdleStrategy(new BusySpinIdleStrategy()));
            IdleStrategy configured = new BusySpinIdleStrategy();
            assertSame(configured, own.pollerIdleStrategy(configured), "a fabric with a network thread: as configured");
        }
    }

    @Test
    void aPeersWriteWakesThePollerAndIsServedByTheWait() throws Exception {
        try (TcpFabricTestbed testbed = TcpFabricTestbed.sharedThreads()) {
            TcpFabric shared = testbed.open(SHARED);
            LocalRegion region = shared.register(REGION, 64, Permissions.none().grant(PEER, Permission.READ_WRITE));
            TcpFabric peer = testbed.open(PEER);
            // connect (the peer's first operation) while the shared side polls
            UnsafeBuffer src = new UnsafeBuffer(new byte[8]);
            src.putLong(0, 41);
            peer.write(1, SHARED, REGION, 0, src, 0, 8);
            assertEquals(Status.SUCCESS, completeWhilePolling(peer, shared));

            CompletableFuture<Void> waited = CompletableFuture.runAsync(
                () -> shared.networkAgent().await(LONG_WAIT_MILLIS)); // the poller's thread, idle
            Thread.sleep(50);
            src.putLong(0, 42);
            peer.write(2, SHARED, REGION, 0, src, 0, 8);
            waited.get(30, TimeUnit.SECONDS); // the bytes arriving ended the minute-long wait
            assertEquals(42, region.buffer().getLong(0), "served by the wait that they ended, not a poll later");
            assertEquals(Status.SUCCESS, completeWhilePolling(peer, shared));
            assertEquals(42, region.buffer().getLong(0));
            assertNull(shared.lastInternalError());
        }
    }

    /**
     * A read that leaves room in the buffer took all the socket had: the connection does not read again to find
     * nothing (before, every readiness event cost a second, empty read: half of a replica's reads under load).
     */
    @Test
    void aReadThatDrainsTheSocketIsNotFollowedByAnEmptyRead() {
        try (TcpFabricTestbed testbed = TcpFabricTestbed.sharedThreads()) {
            TcpFabric shared = testbed.open(SHARED);
            shared.register(REGION, 64, Permissions.none().grant(PEER, Permission.READ_WRITE));
            TcpFabric peer = testbed.open(PEER);
            UnsafeBuffer src = new UnsafeBuffer(new byte[8]);
            int writes = 200;
            for (int i = 0; i < writes; i++) {
                src.putLong(0, i);
                peer.write(i, SHARED, REGION, 0, src, 0, 8);
                assertEquals(Status.SUCCESS, completeWhilePolling(peer, shared));
            }
            TcpCounters counters = shared.counters();
            assertTrue(counters.get(TcpCounters.Counter.SOCKET_READS) >= writes / 2, counters.toString());
            assertEquals(0, counters.get(TcpCounters.Counter.EMPTY_READS), counters.toString());
        }
    }

    @Test
    void wakePollerFromAnotherThreadEndsTheWait() throws Exception {
        try (TcpFabricTestbed testbed = TcpFabricTestbed.sharedThreads()) {
            TcpFabric shared = testbed.open(SHARED);
            CompletableFuture<Void> waited = CompletableFuture.runAsync(
                () -> shared.networkAgent().await(LONG_WAIT_MILLIS));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!shared.networkAgent().isWaiting() && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            shared.wakePoller();
            waited.get(30, TimeUnit.SECONDS);
        }
    }

    /**
     * A wake that comes before the poller waits (another thread published work between the poller's last look and its
     * wait) keeps that wait from blocking; the wait after it blocks again. Before, such a wake was lost and the
     * poller slept out its wait (up to 1 ms on a replica, 20 ms on a quiet network thread).
     */
    @Test
    void aWakeJustBeforeTheWaitIsNotLost() throws Exception {
        try (TcpFabricTestbed testbed = TcpFabricTestbed.sharedThreads()) {
            TcpFabric shared = testbed.open(SHARED);
            assertFalse(shared.networkAgent().isWaiting());
            shared.wakePoller();
            CompletableFuture.runAsync(() -> shared.networkAgent().await(LONG_WAIT_MILLIS)).get(30, TimeUnit.SECONDS);
            CompletableFuture<Void> next = CompletableFuture.runAsync(
                () -> shared.networkAgent().await(LONG_WAIT_MILLIS));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!shared.networkAgent().isWaiting() && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertTrue(shared.networkAgent().isWaiting(), "one wake ends one wait: the next one blocks");
            assertFalse(next.isDone());
            shared.wakePoller();
            next.get(30, TimeUnit.SECONDS);
        }
    }

    /** Polls both ends until {@code poster}'s one operation completes; returns its status. */
    private static Status completeWhilePolling(TcpFabric poster, TcpFabric other) {
        Status[] status = new Status[1];
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (status[0] == null) {
            other.poll((id, s) -> { }, 16);
            poster.poll((id, s) -> status[0] = s, 16);
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the operation did not complete");
            }
            Thread.onSpinWait();
        }
        return status[0];
    }
}
