package org.ubft.memnode.register;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.ubft.common.NodeId;
import org.ubft.fabric.LocalRegion;
import org.ubft.fabric.Status;
import org.ubft.fabric.sim.LatencyModel;
import org.ubft.fabric.sim.SimFabricTestbed;
import org.ubft.fabric.sim.SimNetwork;

import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A Byzantine writer (replica 0, posting raw fabric WRITEs to its own register region) against a correct
 * reader: each misbehaviour of paper §6.1 ends in the default value within bounded virtual time, and no read
 * returns anything but a value written whole or the default value.
 */
class ByzantineWriterTest {
    private static final long DELTA = 50_000;
    private static final long BOUND = 1_000_000;
    private static final int REGISTER = 1;

    private final RegisterLayout layout = new RegisterLayout(1, 2, 64); // 10 words per sub-register
    private final Outcomes outcomes = new Outcomes();
    private final Set<Long> completedRaw = new HashSet<>();
    private final SplittableRandom random = new SplittableRandom(99);
    private SimNetwork network;
    private RegisterCluster cluster;
    private RegisterReader reader;
    private long rawTagBits;
    private long nextRaw;

    @BeforeEach
    void start() {
        network = new SimNetwork(17).defaultLatency(LatencyModel.constant(1_000));
        cluster = new RegisterCluster(new SimFabricTestbed(network), layout, DELTA, 5_000, 4);
        rawTagBits = (long) cluster.handler(0, (id, status) -> completedRaw.add(id)) << WorkRequestIds.TAG_SHIFT;
        reader = cluster.reader(1, outcomes);
    }

    @AfterEach
    void close() {
        cluster.close();
    }

    /** Both sub-registers as one buffer: sub-register 0 then 1. */
    private UnsafeBuffer register() {
        return new UnsafeBuffer(new byte[layout.registerBytes()]);
    }

    private void encode(UnsafeBuffer reg, int sub, long ts) {
        UnsafeBuffer v = new UnsafeBuffer(new byte[layout.valueBytes()]);
        RegisterRegularityTest.fill(v, REGISTER, ts);
        SubRegisterCodec.encode(reg, sub * layout.subRegisterBytes(), layout, ts, v, 0);
    }

    /** The Byzantine writer posts {@code reg} over both sub-registers at memory node {@code j}. */
    private long postRaw(int j, UnsafeBuffer reg) {
        long id = rawTagBits | nextRaw++;
        cluster.replicas[0].write(id, NodeId.memnode(j), RegisterLayout.regionId(0), layout.registerOffset(REGISTER),
            reg, 0, reg.capacity());
        return id;
    }

    private void writeEverywhere(UnsafeBuffer reg) {
        long[] ids = new long[RegisterCluster.MEMNODES];
        for (int j = 0; j < ids.length; j++) {
            ids[j] = postRaw(j, reg);
        }
        assertTrue(cluster.runUntil(() -> {
            for (long id : ids) {
                if (!completedRaw.contains(id)) {
                    return false;
                }
            }
            return true;
        }, BOUND));
    }

    private Outcomes.Read readRegister() {
        long id = reader.read(0, REGISTER);
        assertTrue(cluster.runUntil(() -> outcomes.read(id), BOUND), "read did not end within the bound");
        Outcomes.Read r = outcomes.reads.get(id);
        assertEquals(Status.SUCCESS, r.status());
        return r;
    }

    private void assertDefault(Outcomes.Read r) {
        assertEquals(RegisterLayout.DEFAULT_TIMESTAMP, r.timestamp());
        assertEquals(0, r.value().length);
        assertTrue(reader.byzantineAnswers() >= 2, "answers not judged Byzantine: " + reader.byzantineAnswers());
    }

    @Test
    void bogusChecksumsInBothSubRegistersGiveTheDefaultValue() {
        UnsafeBuffer reg = register();
        encode(reg, 0, 5);
        encode(reg, 1, 6);
        reg.putLong(RegisterLayout.CHECKSUM_OFFSET, random.nextLong(), SubRegisterCodec.ORDER);
        reg.putLong(layout.subRegisterBytes() + RegisterLayout.CHECKSUM_OFFSET, random.nextLong(),
            SubRegisterCodec.ORDER);
        writeEverywhere(reg);
        assertDefault(readRegister());
    }

    @Test
    void randomGarbageGivesTheDefaultValue() {
        UnsafeBuffer reg = register();
        for (int i = 0; i < reg.capacity(); i++) {
            reg.putByte(i, (byte) random.nextInt());
        }
        reg.putLong(RegisterLayout.TIMESTAMP_OFFSET, 3, SubRegisterCodec.ORDER);
        writeEverywhere(reg);
        assertDefault(readRegister());
    }

    @Test
    void equalTimestampsInBothSubRegistersGiveTheDefaultValue() {
        UnsafeBuffer reg = register();
        encode(reg, 0, 7);
        UnsafeBuffer other = new UnsafeBuffer(new byte[layout.valueBytes()]);
        RegisterRegularityTest.fill(other, REGISTER, 1234);
        SubRegisterCodec.encode(reg, layout.subRegisterBytes(), layout, 7, other, 0); // same ts, other value
        writeEverywhere(reg);
        assertDefault(readRegister());
    }

    @Test
    void oneValidSubRegisterIsReturnedDespiteABogusOne() {
        UnsafeBuffer reg = register();
        encode(reg, 0, 8);
        encode(reg, 1, 9);
        reg.putByte(layout.subRegisterBytes() + RegisterLayout.VALUE_OFFSET, (byte) 0x77); // corrupt ts 9
        writeEverywhere(reg);
        Outcomes.Read r = readRegister();
        assertEquals(8, r.timestamp());
        UnsafeBuffer expected = new UnsafeBuffer(new byte[layout.valueBytes()]);
        RegisterRegularityTest.fill(expected, REGISTER, 8);
        assertArrayEquals(expected.byteArray(), r.value());
    }

    /**
     * Cooldown violated: WRITEs to both sub-registers in flight at once, so a READ shorter than δ finds both
     * torn. That is only possible for a Byzantine writer: default value.
     */
    @Test
    void writesToBothSubRegistersInFlightGiveTheDefaultValue() {
        long ts = tearBothSubRegistersEverywhere(10_000_000);
        Outcomes.Read r = readRegister();
        assertDefault(r);
        assertTrue(ts > 0);
    }

    /**
     * §6.1: two torn sub-registers seen by a READ that took longer than δ prove nothing: the READ is retried,
     * and once the writes have landed it returns the value written whole.
     */
    @Test
    void aSlowReadOfTwoTornSubRegistersIsRetried() {
        long ts = tearBothSubRegistersEverywhere(2_000_000);
        for (int j = 0; j < RegisterCluster.MEMNODES; j++) {
            network.latency(NodeId.replica(1), NodeId.memnode(j), LatencyModel.constant(DELTA))
                .latency(NodeId.memnode(j), NodeId.replica(1), LatencyModel.constant(DELTA));
        }
        network.operationTimeout(10 * DELTA);
        long id = reader.read(0, REGISTER);
        assertTrue(cluster.runUntil(() -> outcomes.read(id), 10_000_000), "read did not end");
        Outcomes.Read r = outcomes.reads.get(id);
        assertEquals(ts, r.timestamp()); // the Byzantine writer's last pair, now whole: sub-register 1 is newest
        assertTrue(reader.retries() > 0, "no READ was retried");
        UnsafeBuffer expected = new UnsafeBuffer(new byte[layout.valueBytes()]);
        RegisterRegularityTest.fill(expected, REGISTER, ts);
        assertArrayEquals(expected.byteArray(), r.value());
    }

    /**
     * Leaves every memory node with both sub-registers of the register torn by one WRITE of both still being
     * applied (for up to {@code windowNanos}); returns the higher timestamp of that pair.
     */
    private long tearBothSubRegistersEverywhere(long windowNanos) {
        long ts = 10;
        UnsafeBuffer reg = register();
        encode(reg, 0, ts);
        encode(reg, 1, ts + 1);
        writeEverywhere(reg); // whole, before tearing starts
        network.tornWrites(1.0, windowNanos);
        boolean[] torn = new boolean[RegisterCluster.MEMNODES];
        UnsafeBuffer copy = register();
        for (int attempt = 0; attempt < 20; attempt++) {
            ts += 2;
            encode(reg, 0, ts);
            encode(reg, 1, ts + 1);
            for (int j = 0; j < torn.length; j++) {
                postRaw(j, reg); // the same pair everywhere, so that all nodes end with the same contents
            }
            // let the posted WRITEs arrive (constant 1 µs latency): their first halves are applied
            cluster.runUntil(() -> false, 1_500);
            boolean all = true;
            for (int j = 0; j < torn.length; j++) {
                LocalRegion region = cluster.regions[j][0];
                copy.putBytes(0, region.buffer(), layout.registerOffset(REGISTER), copy.capacity());
                torn[j] = SubRegisterCodec.classify(copy, 0, layout) == SubRegisterCodec.INVALID
                    && SubRegisterCodec.classify(copy, layout.subRegisterBytes(), layout) == SubRegisterCodec.INVALID;
                all &= torn[j];
            }
            if (all) {
                return ts + 1;
            }
        }
        throw new AssertionError("could not tear both sub-registers on every memory node");
    }
}
