package org.ubft.fabric.rdma.disni;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.ubft.common.NodeId;
import org.ubft.common.config.RdmaSettings;
import org.ubft.fabric.CompletionHandler;
import org.ubft.fabric.Permission;
import org.ubft.fabric.Permissions;
import org.ubft.fabric.Status;
import org.ubft.fabric.rdma.RdmaFabric;
import org.ubft.fabric.rdma.RdmaOptions;
import org.ubft.fabric.rdma.RdmaUnavailableException;
import org.ubft.fabric.tcp.TestKeys;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Two rdma fabrics over DiSNI on a real device (an RDMA NIC or soft-RoCE): an owner's region written, fenced and
 * read back, and a peer without the right refused. Runs where DiSNI's native library loads and the address in
 * {@code UBFT_RDMA_TEST_ADDRESS} (default: this host's address) is on an RDMA device; everywhere else JUnit reports
 * it skipped, with the reason (what {@link DisniRequirements} found missing).
 */
class DisniIntegrationTest {
    @Test
    void writeThenReadOverARealDevice() throws Exception {
        String configured = System.getenv("UBFT_RDMA_TEST_ADDRESS");
        InetAddress ip = configured != null ? InetAddress.getByName(configured) : InetAddress.getLocalHost();
        InetSocketAddress ownerAt = new InetSocketAddress(ip, 17400);
        InetSocketAddress writerAt = new InetSocketAddress(ip, 17401);
        String missing = null;
        try {
            DisniRequirements.check(System::loadLibrary, DisniRequirements.SYSFS, ownerAt, "auto", 0, -1);
        } catch (RdmaUnavailableException e) {
            missing = e.getMessage();
        }
        assumeTrue(missing == null, "no RDMA here, skipped: " + missing);

        int owner = NodeId.memnode(0);
        int writer = NodeId.replica(0);
        Map<Integer, InetSocketAddress> book = new HashMap<>(Map.of(owner, ownerAt, writer, writerAt));
        TestKeys keys = new TestKeys();
        RdmaSettings settings = new RdmaSettings("auto", 0, -1, 4 << 20);
        try (RdmaFabric o = new RdmaFabric(options(owner, ownerAt, book, keys), DisniDevice.open(ownerAt, settings));
             RdmaFabric w = new RdmaFabric(options(writer, writerAt, book, keys), DisniDevice.open(writerAt, settings))) {
            o.register(1, 4096, Permissions.none().grant(writer, Permission.READ_WRITE));
            o.register(2, 4096, Permissions.none().grant(writer, Permission.READ));
            UnsafeBuffer src = new UnsafeBuffer(new byte[64]);
            src.setMemory(0, 64, (byte) 7);
            w.write(1, owner, 1, 128, src, 0, 64);
            assertEquals(Status.SUCCESS, await(w, 1));
            assertEquals(0x0707070707070707L, o.localRegion(1).buffer().getLongVolatile(128));
            UnsafeBuffer dst = new UnsafeBuffer(new byte[64]);
            w.read(2, owner, 1, 128, dst, 0, 64);
            assertEquals(Status.SUCCESS, await(w, 2));
            assertEquals(src, dst);
            w.write(3, owner, 2, 0, src, 0, 64);
            assertEquals(Status.ACCESS_DENIED, await(w, 3));
        }
    }

    private static RdmaOptions options(int node, InetSocketAddress at, Map<Integer, InetSocketAddress> book,
                                       TestKeys keys) {
        return RdmaOptions.builder(node).listenAddress(at).peerResolver(book::get).maxOutstanding(64)
            .stagingBytes(4 << 20).operationTimeout(5, TimeUnit.SECONDS).authenticator(keys.authenticator(node))
            .build();
    }

    private static Status await(RdmaFabric f, long id) {
        Status[] seen = new Status[1];
        CompletionHandler h = (wr, s) -> {
            if (wr == id) {
                seen[0] = s;
            }
        };
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (seen[0] == null) {
            f.poll(h, 16);
            assertTrue(System.nanoTime() < deadline, "operation " + id + " did not complete");
        }
        return seen[0];
    }
}
