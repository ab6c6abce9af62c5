package org.ubft.memnode.register;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.ubft.common.NodeId;
import org.ubft.fabric.Completions;
import org.ubft.fabric.Fabric;
import org.ubft.fabric.LocalRegion;
import org.ubft.fabric.Permission;
import org.ubft.fabric.Status;
import org.ubft.fabric.sim.SimFabricTestbed;
import org.ubft.fabric.sim.SimNetwork;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Register layout, memory-node footprint (paper Table 2) and the regions a memory node registers. */
class RegisterLayoutTest {
    /** CTBcast register value of docs/design.md §5: 32-byte fingerprint and 64-byte Ed25519 signature. */
    private static final int FINGERPRINT_AND_SIGNATURE = 32 + 64;
    /** What the paper says its prototype stores: the 32-byte fingerprint only (ids are timestamps). */
    private static final int FINGERPRINT_ONLY = 32;

    @Test
    void subRegistersAreTimestampChecksumAndValuePaddedTo8Bytes() {
        RegisterLayout layout = new RegisterLayout(2, 3, 20);
        assertEquals(16 + 24, layout.subRegisterBytes());
        assertEquals(80, layout.registerBytes());
        assertEquals(6, layout.registerCount());
        assertEquals(480, layout.regionBytes());
        assertEquals(4, layout.registerIndex(1, 1));
        assertEquals(4 * 80, layout.registerOffset(4));
        assertEquals(4 * 80 + 40, layout.subRegisterOffset(4, 1));
        for (int r = 0; r < layout.registerCount(); r++) {
            for (int s = 0; s < 2; s++) {
                assertEquals(0, layout.subRegisterOffset(r, s) % 8, "8-byte aligned");
            }
        }
        assertThrows(IllegalArgumentException.class, () -> layout.registerOffset(6));
        assertThrows(IllegalArgumentException.class, () -> layout.subRegisterOffset(0, 2));
        assertThrows(IllegalArgumentException.class, () -> layout.registerIndex(2, 0));
        assertThrows(IllegalArgumentException.class, () -> new RegisterLayout(0, 3, 20));
        assertThrows(IllegalArgumentException.class, () -> new RegisterLayout(1, 1, 1 << 20));
    }

    @Test
    void regionIdsDeriveFromTheWriterIndex() {
        assertEquals(RegisterLayout.REGION_ID_BASE, RegisterLayout.regionId(0));
        assertEquals(RegisterLayout.REGION_ID_BASE + 2, RegisterLayout.regionId(2));
        assertThrows(IllegalArgumentException.class, () -> RegisterLayout.regionId(-1));
    }

    /**
     * Footprint of one memory node for CTBcast with n = 3 (arrays = n per writer, t registers per array), for
     * the tails of paper Table 2 (20, 40, 81, 162 KiB there). Ours: 2016 B × t with fingerprint and signature
     * (252 KiB at t = 128); 864 B × t with the fingerprint only (108 KiB at t = 128).
     */
    @Test
    void memoryNodeFootprintForTheTailsOfTable2() {
        int n = 3;
        int[] tails = {16, 32, 64, 128};
        long[] withSignature = {32_256, 64_512, 129_024, 258_048};
        long[] fingerprintOnly = {13_824, 27_648, 55_296, 110_592};
        for (int i = 0; i < tails.length; i++) {
            assertEquals(withSignature[i],
                RegisterLayout.memnodeFootprintBytes(n, n, tails[i], FINGERPRINT_AND_SIGNATURE), "t=" + tails[i]);
            assertEquals(fingerprintOnly[i],
                RegisterLayout.memnodeFootprintBytes(n, n, tails[i], FINGERPRINT_ONLY), "t=" + tails[i]);
            RegisterLayout layout = new RegisterLayout(n, tails[i], FINGERPRINT_AND_SIGNATURE);
            assertEquals(withSignature[i], layout.memnodeFootprintBytes(n));
            assertEquals(withSignature[i], (long) n * layout.regionBytes());
        }
    }

    @Test
    void aMemoryNodeExposesOneZeroedRegionPerWriterWritableByItOnly() {
        SimFabricTestbed testbed = new SimFabricTestbed(new SimNetwork(3));
        RegisterLayout layout = new RegisterLayout(3, 4, 96);
        Fabric memnode = testbed.open(NodeId.memnode(0));
        int[] replicas = {NodeId.replica(0), NodeId.replica(1), NodeId.replica(2)};
        LocalRegion[] regions = RegisterRegions.registerAll(memnode, layout, replicas);
        assertEquals(3, regions.length);
        for (int i = 0; i < replicas.length; i++) {
            LocalRegion region = memnode.localRegion(RegisterLayout.regionId(i));
            assertEquals(regions[i], region);
            assertEquals(layout.regionBytes(), region.length());
            for (int b = 0; b < region.length(); b += 8) {
                assertEquals(0L, region.buffer().getLong(b));
            }
            for (int j = 0; j < replicas.length; j++) {
                assertEquals(i == j ? Permission.READ_WRITE : Permission.READ, region.permissions().of(replicas[j]));
            }
            assertEquals(Permission.NONE, region.permissions().of(NodeId.client(0)));
            assertEquals(Permission.NONE, region.permissions().of(NodeId.memnode(1)));
        }
        assertNull(memnode.localRegion(RegisterLayout.regionId(3)));

        Fabric client = testbed.open(NodeId.client(0));
        Completions cq = new Completions(testbed, client);
        client.read(1, NodeId.memnode(0), RegisterLayout.regionId(0), 0, new UnsafeBuffer(new byte[8]), 0, 8);
        assertEquals(Status.ACCESS_DENIED, cq.await(1));

        Fabric other = testbed.open(NodeId.memnode(1));
        assertThrows(IllegalArgumentException.class,
            () -> RegisterRegions.registerAll(other, layout, new int[] {NodeId.replica(0), NodeId.client(0)}));
        assertThrows(IllegalArgumentException.class,
            () -> RegisterRegions.registerAll(other, layout, new int[] {NodeId.replica(0), NodeId.replica(0)}));
    }
}
