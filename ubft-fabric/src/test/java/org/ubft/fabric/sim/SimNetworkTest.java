package org.ubft.fabric.sim;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.ubft.common.NodeId;
import org.ubft.fabric.Completions;
import org.ubft.fabric.Permission;
import org.ubft.fabric.Permissions;
import org.ubft.fabric.Status;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the sim fabric adds to the contract: determinism and fault injection. */
class SimNetworkTest {
    private static final int OWNER = NodeId.memnode(0);
    private static final int A = NodeId.replica(0);
    private static final int B = NodeId.replica(1);
    private static final int REGION = 1;

    private static SimNetwork twoNodes(long seed) {
        SimNetwork net = new SimNetwork(seed);
        net.open(OWNER).register(REGION, 4096, Permissions.none()
            .grant(A, Permission.READ_WRITE).grant(B, Permission.READ));
        net.open(A);
        net.open(B);
        return net;
    }

    /** A fixed workload of interleaved writes (A) and reads (B) with faults on; returns the fingerprint. */
    private static long runWorkload(long seed) {
        SimNetwork net = twoNodes(seed)
            .defaultLatency(LatencyModel.exponential(300, 3_000))
            .tornWrites(0.3, 4_000)
            .dropProbability(A, OWNER, 0.05);
        SimFabricTestbed tb = new SimFabricTestbed(net);
        SimFabric a = (SimFabric) reopen(net, A);
        SimFabric b = (SimFabric) reopen(net, B);
        UnsafeBuffer src = new UnsafeBuffer(new byte[512]);
        UnsafeBuffer dst = new UnsafeBuffer(new byte[512]);
        Completions ca = new Completions(tb, a);
        Completions cb = new Completions(tb, b);
        for (int i = 0; i < 300; i++) {
            src.setMemory(0, 512, (byte) i);
            a.write(i, OWNER, REGION, (i % 8) * 512, src, 0, 512);
            b.read(i, OWNER, REGION, (i % 8) * 512, dst, 0, 512);
            ca.await(i);
            cb.await(i);
        }
        return net.fingerprint();
    }

    private static SimFabric reopen(SimNetwork net, int node) {
        net.crash(node);
        return net.open(node);
    }

    @Test
    void sameSeedGivesTheSameExecutionAndAnotherSeedAnother() {
        long first = runWorkload(1234);
        assertEquals(first, runWorkload(1234), "same seed, same calls: identical execution");
        assertNotEquals(first, runWorkload(1235), "another seed draws other latencies, drops and tears");
    }

    @Test
    void tornWritesLetConcurrentReadsSeeAMixOfOldAndNewWords() {
        SimNetwork net = twoNodes(3).defaultLatency(LatencyModel.constant(1_000)).tornWrites(1.0, 10_000);
        SimFabricTestbed tb = new SimFabricTestbed(net);
        SimFabric a = (SimFabric) reopen(net, A);
        SimFabric b = (SimFabric) reopen(net, B);
        Completions ca = new Completions(tb, a);
        Completions cb = new Completions(tb, b);
        UnsafeBuffer ones = new UnsafeBuffer(new byte[256]);
        ones.setMemory(0, 256, (byte) 0xFF);
        UnsafeBuffer dst = new UnsafeBuffer(new byte[256]);
        int mixed = 0;
        for (int i = 0; i < 20; i++) {
            UnsafeBuffer pattern = new UnsafeBuffer(new byte[256]);
            pattern.setMemory(0, 256, (byte) (i % 2 == 0 ? 0xFF : 0x00));
            a.write(2 * i, OWNER, REGION, 0, pattern, 0, 256);
            net.runFor(1_500); // the write has arrived; its second half is pending
            b.read(2 * i + 1, OWNER, REGION, 0, dst, 0, 256);
            assertEquals(Status.SUCCESS, cb.await(2 * i + 1));
            ca.await(2 * i);
            int newWords = 0;
            for (int w = 0; w < 32; w++) {
                long word = dst.getLong(w * 8);
                assertTrue(word == 0 || word == -1L, "8-byte words are never torn");
                newWords += word == pattern.getLong(0) ? 1 : 0;
            }
            if (newWords > 0 && newWords < 32) {
                mixed++;
            }
        }
        assertTrue(mixed > 5, "reads during a torn write see a mix of old and new words (" + mixed + "/20)");
    }

    @Test
    void withoutTornWritesAReadNeverSeesAMix() {
        SimNetwork net = twoNodes(3).defaultLatency(LatencyModel.uniform(100, 3_000));
        SimFabricTestbed tb = new SimFabricTestbed(net);
        SimFabric a = (SimFabric) reopen(net, A);
        SimFabric b = (SimFabric) reopen(net, B);
        Completions cb = new Completions(tb, b);
        UnsafeBuffer dst = new UnsafeBuffer(new byte[256]);
        for (int i = 0; i < 200; i++) {
            UnsafeBuffer pattern = new UnsafeBuffer(new byte[256]);
            pattern.setMemory(0, 256, (byte) i);
            a.write(i, OWNER, REGION, 0, pattern, 0, 256);
            b.read(i, OWNER, REGION, 0, dst, 0, 256);
            cb.await(i);
            byte first = dst.getByte(0);
            for (int k = 1; k < 256; k++) {
                assertEquals(first, dst.getByte(k));
            }
            a.poll((id, s) -> { }, 16);
        }
    }

    @Test
    void aCrashedNodeIsUnreachableAndRestartsWithZeroedMemory() {
        SimNetwork net = twoNodes(5);
        SimFabricTestbed tb = new SimFabricTestbed(net);
        SimFabric a = (SimFabric) reopen(net, A);
        Completions ca = new Completions(tb, a);
        UnsafeBuffer buf = new UnsafeBuffer(new byte[8]);
        buf.putLong(0, 99);
        a.write(1, OWNER, REGION, 0, buf, 0, 8);
        assertEquals(Status.SUCCESS, ca.await(1));

        net.crash(OWNER);
        assertFalse(net.isUp(OWNER));
        long before = net.nanoTime();
        a.read(2, OWNER, REGION, 0, buf, 0, 8);
        assertEquals(Status.UNREACHABLE, ca.await(2));
        assertTrue(net.nanoTime() - before >= net.operationTimeoutNanos(), "UNREACHABLE only after the timeout");

        net.open(OWNER).register(REGION, 4096, Permissions.none().grant(A, Permission.READ_WRITE));
        a.read(3, OWNER, REGION, 0, buf, 0, 8);
        assertEquals(Status.SUCCESS, ca.await(3));
        assertEquals(0L, buf.getLong(0), "memory of a crashed node is lost");
    }

    @Test
    void aCrashedPosterGetsNoMoreCompletions() {
        SimNetwork net = twoNodes(6);
        SimFabric a = (SimFabric) reopen(net, A);
        UnsafeBuffer buf = new UnsafeBuffer(new byte[8]);
        a.read(1, OWNER, REGION, 0, buf, 0, 8);
        net.crash(A);
        net.runFor(10 * net.operationTimeoutNanos());
        assertEquals(0, net.pendingEvents());
    }

    @Test
    void partitionsMakeOperationsUnreachableUntilHealed() {
        SimNetwork net = twoNodes(8);
        SimFabricTestbed tb = new SimFabricTestbed(net);
        SimFabric b = (SimFabric) reopen(net, B);
        Completions cb = new Completions(tb, b);
        UnsafeBuffer buf = new UnsafeBuffer(new byte[8]);
        net.partition(B, OWNER);
        b.read(1, OWNER, REGION, 0, buf, 0, 8);
        assertEquals(Status.UNREACHABLE, cb.await(1));
        net.heal(B, OWNER);
        b.read(2, OWNER, REGION, 0, buf, 0, 8);
        assertEquals(Status.SUCCESS, cb.await(2));
    }

    @Test
    void droppedOperationsEndUnreachable() {
        SimNetwork net = twoNodes(9);
        net.dropProbability(B, OWNER, 1.0);
        SimFabricTestbed tb = new SimFabricTestbed(net);
        SimFabric b = (SimFabric) reopen(net, B);
        Completions cb = new Completions(tb, b);
        b.read(1, OWNER, REGION, 0, new UnsafeBuffer(new byte[8]), 0, 8);
        assertEquals(Status.UNREACHABLE, cb.await(1));
    }

    @Test
    void perLinkLatencyIsHonouredInVirtualTime() {
        SimNetwork net = twoNodes(10).defaultLatency(LatencyModel.constant(1_000))
            .latency(B, OWNER, LatencyModel.constant(50_000));
        SimFabricTestbed tb = new SimFabricTestbed(net);
        SimFabric a = (SimFabric) reopen(net, A);
        SimFabric b = (SimFabric) reopen(net, B);
        Completions ca = new Completions(tb, a);
        Completions cb = new Completions(tb, b);
        UnsafeBuffer buf = new UnsafeBuffer(new byte[8]);
        long t0 = net.nanoTime();
        a.read(1, OWNER, REGION, 0, buf, 0, 8);
        ca.await(1);
        assertEquals(2_000, net.nanoTime() - t0, "round trip = 2 x 1 us");
        t0 = net.nanoTime();
        b.read(1, OWNER, REGION, 0, buf, 0, 8);
        cb.await(1);
        assertEquals(51_000, net.nanoTime() - t0, "slow link one way, fast link back");
    }

    @Test
    void timersRunAtTheirVirtualTime() {
        SimNetwork net = new SimNetwork(11);
        long[] firedAt = {-1};
        net.schedule(5_000, () -> firedAt[0] = net.nanoTime());
        net.runFor(4_999);
        assertEquals(-1, firedAt[0]);
        net.runFor(1);
        assertEquals(5_000, firedAt[0]);
        assertEquals(5_000, net.clock().nanoTime());
    }

    @Test
    void aWriteTapChangesWhatANodeWritesAndInjectedWritesLandWithoutACompletion() {
        SimNetwork net = twoNodes(5).defaultLatency(LatencyModel.constant(1_000));
        SimFabricTestbed tb = new SimFabricTestbed(net);
        SimFabric a = (SimFabric) reopen(net, A);
        SimFabric b = (SimFabric) reopen(net, B);
        Completions ca = new Completions(tb, a);
        Completions cb = new Completions(tb, b);
        int[] tapped = new int[1];
        net.writeTap(A, (owner, region, offset, data) -> {
            assertEquals(OWNER, owner);
            data[0] = 42;
            tapped[0]++;
        });
        UnsafeBuffer src = new UnsafeBuffer(new byte[16]);
        UnsafeBuffer dst = new UnsafeBuffer(new byte[16]);
        src.setMemory(0, 16, (byte) 7);
        a.write(1, OWNER, REGION, 0, src, 0, 16);
        assertEquals(Status.SUCCESS, ca.await(1));
        b.read(2, OWNER, REGION, 0, dst, 0, 16);
        assertEquals(Status.SUCCESS, cb.await(2));
        assertEquals(1, tapped[0]);
        assertEquals(42, dst.getByte(0), "the tap changed the written bytes");
        assertEquals(7, dst.getByte(1));
        assertEquals(7, src.getByte(0), "not the poster's buffer");

        net.writeTap(A, null);
        net.injectWrite(A, OWNER, REGION, 64, new byte[] {9, 9});
        net.injectWrite(B, OWNER, REGION, 128, new byte[] {9, 9}); // B may only read: not applied
        net.runFor(5_000);
        b.read(3, OWNER, REGION, 64, dst, 0, 16);
        assertEquals(Status.SUCCESS, cb.await(3));
        assertEquals(9, dst.getByte(0));
        b.read(4, OWNER, REGION, 128, dst, 0, 16);
        assertEquals(Status.SUCCESS, cb.await(4));
        assertEquals(0, dst.getByte(0));
        a.write(5, OWNER, REGION, 0, src, 0, 16);
        assertEquals(Status.SUCCESS, ca.await(5));
        assertEquals(1, tapped[0], "no tap any more");
    }
}
