package org.ubft.ctbcast.channel;

import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.ubft.common.Checksums;
import org.ubft.fabric.Fabric;
import org.ubft.fabric.FabricTestbed;
import org.ubft.fabric.Status;

import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The tail channel's guarantees (docs/design.md §6, paper §6.2) on one fabric implementation: every fabric
 * runs this suite through a subclass that supplies its {@link FabricTestbed}. Scenarios take the
 * testbed as an argument so that subclasses can rerun them under other seeds and fault settings.
 */
public abstract class TailChannelContractTest {
    protected static final int T = 8;
    protected static final int MAX = 100;

    protected abstract FabricTestbed newTestbed();

    /** Messages per long scenario; fabrics with slow progress may lower it. */
    protected int messages() {
        return 2_000;
    }

    /** Seed of the test-side random choices (pacing, garbage). */
    protected long testSeed() {
        return 42;
    }

    // ---- tests on a fresh testbed ------------------------------------------------------------------

    @Test
    void fifoWithoutDuplicatesAndTheLastTDelivered() {
        fifoUnderRandomPacing(newTestbed(), testSeed());
    }

    @Test
    void receiverThatKeepsUpLosesNothing() {
        noLossWithinTheWindow(newTestbed());
    }

    @Test
    void senderOutrunningTheReceiverStillDeliversTheLastTInOrder() {
        outrunByMoreThanT(newTestbed());
    }

    @Test
    void corruptedSlotIsNeverDelivered() {
        corruptedSlots(newTestbed(), testSeed());
    }

    @Test
    void newReceiverOverTheSameRegionResumesMidStream() {
        restartMidStream(newTestbed());
    }

    @Test
    void restartedSenderIsHeardOnlyWhenItStartsAboveItsOldIndices() {
        restartedSender(newTestbed());
    }

    @Test
    void aRestartedSendersFirstMessageIsHeardWhateverSlotItLandsIn() {
        restartedSenderIsHeardInAnySlot(newTestbed());
    }

    @Test
    void aNewRingHearsASenderThatGoesOnAtItsIndicesAtItsNextMessage() {
        freshRingHearsAnOngoingSender(newTestbed());
    }

    @Test
    @Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // hang guard only: poll must not loop forever
    void byzantineSenderCannotCrashBlockOrFoolTheReceiver() {
        byzantineSender(newTestbed(), testSeed());
    }

    // ---- scenarios ---------------------------------------------------------------------------------

    /**
     * Bursts of random size (sometimes beyond t) against a receiver polling every round: deliveries are
     * in order, unique and intact (checked on every delivery), the receiver accounts for every message
     * (delivered + skipped = sent), and the last t are all delivered.
     */
    protected void fifoUnderRandomPacing(FabricTestbed testbed, long seed) {
        try (ChannelHarness ch = new ChannelHarness(testbed, T, MAX, T)) {
            Random random = new Random(seed);
            int n = messages();
            while (ch.sender.nextIndex() < n) {
                int burst = random.nextInt(40) == 0 ? random.nextInt(3 * T) : random.nextInt(2);
                for (int i = 0; i < burst && ch.sender.nextIndex() < n; i++) {
                    ch.sendNext();
                }
                int rounds = random.nextInt(8);
                for (int i = 0; i < rounds; i++) {
                    ch.pump();
                }
            }
            ch.drain();
            assertEquals(n, ch.receiver.nextIndex());
            assertEquals(n, ch.receiver.delivered() + ch.receiver.skipped(), "every message delivered or skipped");
            assertEquals(ch.recorder.count(), ch.receiver.delivered());
            ch.recorder.assertDeliveredRange(n - T, n);
        }
    }

    /**
     * A sender that never runs t messages ahead of the receiver: nothing is ever lapped, so everything is
     * delivered (no spurious jump on torn or in-flight slots).
     */
    protected void noLossWithinTheWindow(FabricTestbed testbed) {
        try (ChannelHarness ch = new ChannelHarness(testbed, T, MAX, T)) {
            int n = messages();
            while (ch.sender.nextIndex() < n) {
                if (ch.sender.nextIndex() - ch.receiver.nextIndex() < T) {
                    ch.sendNext();
                }
                ch.pump();
            }
            ch.drain();
            assertEquals(0, ch.receiver.skipped());
            assertEquals(n, ch.recorder.count());
        }
    }

    /**
     * The sender sends 5t + 3 messages while the receiver is not polling (and, for the first half, while
     * the sender does not see its completions either, so its staging ring overflows): the receiver then
     * delivers at least the last t, in order, intact, and skips the rest.
     */
    protected void outrunByMoreThanT(FabricTestbed testbed) {
        try (ChannelHarness ch = new ChannelHarness(testbed, T, MAX, T)) {
            int n = 5 * T + 3;
            for (int i = 0; i < n / 2; i++) {
                ch.sendNext();
            }
            assertTrue(ch.sender.evicted() > 0, "staging ring should have evicted");
            while (ch.sender.nextIndex() < n) {
                ch.sendNext();
                ch.pumpSenderOnly();
            }
            while (!ch.sender.isIdle()) {
                ch.pumpSenderOnly();
            }
            ch.drain();
            ch.recorder.assertDeliveredRange(n - T, n);
            assertTrue(ch.receiver.skipped() > 0, "the receiver was lapped");
            assertEquals(n, ch.receiver.delivered() + ch.receiver.skipped());
            assertTrue(ch.recorder.count() < n);
        }
    }

    /**
     * Garbage and corrupted slots in the receiver's region (written there directly, as a faulty NIC or
     * sender could): bad checksums and sizes are never delivered, and the channel goes on once the
     * sender writes the slot again.
     */
    protected void corruptedSlots(FabricTestbed testbed, long seed) {
        try (ChannelHarness ch = new ChannelHarness(testbed, T, MAX, T)) {
            Random random = new Random(seed);
            AtomicBuffer ring = ch.region().buffer();
            TailChannelLayout layout = ch.layout;

            // Slot 0 carries the expected incarnation, a plausible size and random bytes: bad checksum.
            ring.putLong(TailChannelLayout.INCARNATION_OFFSET, 1);
            ring.putInt(TailChannelLayout.SIZE_OFFSET, 10);
            for (int i = 0; i < 10; i++) {
                ring.putByte(TailChannelLayout.HEADER_BYTES + i, (byte) random.nextInt());
            }
            ring.putLong(TailChannelLayout.CHECKSUM_OFFSET, random.nextLong());
            assertEquals(0, ch.receiver.poll(ch.recorder));
            assertEquals(1, ch.receiver.corruptObservations());

            // Then a size beyond the maximum, with a checksum that matches the maximum's worth of bytes.
            ring.putInt(TailChannelLayout.SIZE_OFFSET, MAX + 1);
            ring.putLong(TailChannelLayout.CHECKSUM_OFFSET, TailChannelLayout.checksum(ring, 0, MAX));
            assertEquals(0, ch.receiver.poll(ch.recorder));
            assertEquals(2, ch.receiver.corruptObservations());
            assertEquals(0, ch.receiver.nextIndex());

            // Message 0 from the sender replaces the garbage and is delivered.
            ch.sendNext();
            ch.drain();
            assertTrue(ch.recorder.contains(0));

            // Message 1 lands, then one payload byte flips before the receiver looks: never delivered.
            long corruptBefore = ch.receiver.corruptObservations();
            ch.sendNext();
            while (!ch.sender.isIdle()) {
                ch.pumpSenderOnly();
            }
            int slot1 = layout.slotOffset(1);
            int len1 = ring.getInt(slot1 + TailChannelLayout.SIZE_OFFSET);
            int victim = slot1 + TailChannelLayout.HEADER_BYTES + (len1 > 0 ? random.nextInt(len1) : 0);
            if (len1 == 0) {
                victim = slot1 + TailChannelLayout.SIZE_OFFSET + 4; // the padding is checksummed too
            }
            ring.putByte(victim, (byte) (ring.getByte(victim) ^ 0x5A));
            assertEquals(0, ch.receiver.poll(ch.recorder));
            assertTrue(ch.receiver.corruptObservations() > corruptBefore);

            // The sender moves on; slot 1 is written again by message t + 1, which laps message 1.
            for (int i = 0; i < T; i++) {
                ch.sendNext();
                ch.pump();
            }
            ch.drain();
            assertFalse(ch.recorder.contains(1), "corrupted message 1 was delivered");
            ch.recorder.assertDeliveredRange(2, T + 2);
            assertEquals(T + 2, ch.receiver.nextIndex());
        }
    }

    /**
     * A sender process that restarts (a new sender object over the same ring) from index 0 is not heard: the receiver
     * waits for the old stream's next incarnation. Started above its old indices ({@link TailChannelSender#startAt}) it
     * is: the receiver jumps to the newer incarnation (§6.2).
     */
    protected void restartedSender(FabricTestbed testbed) {
        try (ChannelHarness ch = new ChannelHarness(testbed, T, MAX, T)) {
            for (int i = 0; i < 3 * T; i++) {
                ch.sendNext();
                ch.drain();
            }
            long before = ch.recorder.count();
            assertEquals(3L * T, before);
            org.agrona.concurrent.UnsafeBuffer m = new org.agrona.concurrent.UnsafeBuffer(new byte[MAX]);
            TailChannelSender fromZero = new TailChannelSender(ch.senderFabric, ChannelHarness.TAG + 1,
                ChannelHarness.RECEIVER, ChannelHarness.REGION, ch.layout, T);
            ch.router.register(ChannelHarness.TAG + 1, fromZero);
            for (long k = 0; k < 3; k++) {
                fromZero.send(m, 0, Messages.fill(m, k, MAX));
            }
            for (int i = 0; i < 2_000; i++) {
                ch.pump();
            }
            assertEquals(before, ch.recorder.count(), "a sender restarted at index 0 is not heard");
            TailChannelSender restarted = new TailChannelSender(ch.senderFabric, ChannelHarness.TAG + 2,
                ChannelHarness.RECEIVER, ChannelHarness.REGION, ch.layout, T);
            ch.router.register(ChannelHarness.TAG + 2, restarted);
            long epoch = 1_000 * T;
            restarted.startAt(epoch);
            assertEquals(epoch + T - 1, restarted.nextIndex(), "fillers first (one per slot but the first message's)");
            for (long k = epoch + T - 1; k < epoch + T + 2; k++) {
                assertEquals(k, restarted.send(m, 0, Messages.fill(m, k, MAX)));
            }
            for (int i = 0; i < 20_000 && ch.recorder.count() < before + 3; i++) {
                ch.pump();
            }
            assertEquals(before + 3, ch.recorder.count(), "the restarted sender's messages after the jump");
            org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class, () -> restarted.startAt(0));
        }
    }

    /**
     * A restarted sender's first message lands in whatever slot its new first index maps to, not the one the receiver
     * watches: it is heard at once, alone (a closed-loop client sends one request and waits), because the sender's
     * fillers put the new lap in every slot ({@link TailChannelSender#startAt}). Without them it was heard only once the
     * sender came round to the watched slot, up to t - 1 messages later.
     */
    protected void restartedSenderIsHeardInAnySlot(FabricTestbed testbed) {
        try (ChannelHarness ch = new ChannelHarness(testbed, T, MAX, T)) {
            for (int i = 0; i < 2 * T + 3; i++) { // the receiver watches slot 3 next
                ch.sendNext();
                ch.drain();
            }
            long before = ch.recorder.count();
            UnsafeBuffer m = new UnsafeBuffer(new byte[MAX]);
            TailChannelSender restarted = new TailChannelSender(ch.senderFabric, ChannelHarness.TAG + 2,
                ChannelHarness.RECEIVER, ChannelHarness.REGION, ch.layout, T);
            ch.router.register(ChannelHarness.TAG + 2, restarted);
            restarted.startAt(1_000L * T + 6); // the first message lands in slot (6 + T - 1) mod T = 5
            long first = restarted.nextIndex();
            assertEquals(first, restarted.send(m, 0, Messages.fill(m, first, MAX)));
            for (int i = 0; i < 20_000 && ch.recorder.count() < before + 1; i++) {
                ch.pump();
            }
            assertEquals(before + 1, ch.recorder.count(), "the restarted sender's one message");
            assertEquals(first + 1, ch.receiver.nextIndex());
            // fillers not landed yet when the receiver jumped are skipped (slots never written on this lap), not waited for
            assertTrue(ch.receiver.fillers() > 0 && ch.receiver.fillers() <= T - 1, "fillers stepped over, none delivered");
            assertEquals(first + 1, restarted.send(m, 0, Messages.fill(m, first + 1, MAX)));
            for (int i = 0; i < 20_000 && ch.recorder.count() < before + 2; i++) {
                ch.pump();
            }
            assertEquals(before + 2, ch.recorder.count(), "and the next, in order");
        }
    }

    /**
     * The receiving process starts again (its ring is new memory, its receiver starts at message 0) while the sender
     * goes on at its own indices: the sender's next message, in whatever slot it lands, is heard at once, alone (a new
     * client process's first reply). Without the fresh receiver's probe it was heard only once the sender came round
     * to slot 0, up to t - 1 messages later.
     */
    protected void freshRingHearsAnOngoingSender(FabricTestbed testbed) {
        try (ChannelHarness ch = new ChannelHarness(testbed, T, MAX, T)) {
            for (int i = 0; i < 2 * T + 3; i++) { // the sender's next message lands in slot 3
                ch.sendNext();
                ch.drain();
            }
            ch.region().buffer().setMemory(0, ch.layout.ringBytes(), (byte) 0);
            ch.receiver = new TailChannelReceiver(ch.region(), ch.layout, 0);
            long before = ch.recorder.count();
            long next = ch.sendNext();
            for (int i = 0; i < 20_000 && ch.recorder.count() < before + 1; i++) {
                ch.pump();
            }
            assertEquals(before + 1, ch.recorder.count(), "the sender's next message, in slot " + ch.layout.slot(next));
            assertEquals(next + 1, ch.receiver.nextIndex());
            ch.sendNext();
            ch.drain();
            assertEquals(before + 2, ch.recorder.count(), "and the one after, in order");
        }
    }

    /**
     * A new receiver object over the same region, resuming at the old one's next index, continues the
     * stream with no gap and no duplicate.
     */
    protected void restartMidStream(FabricTestbed testbed) {
        try (ChannelHarness ch = new ChannelHarness(testbed, T, MAX, T)) {
            int n = 4 * T;
            for (int restart = 0; restart < 3; restart++) {
                long target = ch.sender.nextIndex() + n;
                while (ch.sender.nextIndex() < target) {
                    if (ch.sender.nextIndex() - ch.receiver.nextIndex() < T) {
                        ch.sendNext();
                    }
                    ch.pump();
                }
                // Some messages are in flight or in the ring, undelivered, when the receiver is replaced.
                ch.receiver = new TailChannelReceiver(ch.region(), ch.layout, ch.receiver.nextIndex());
            }
            ch.drain();
            assertEquals(3L * n, ch.recorder.count(), "every message delivered exactly once across restarts");
            assertEquals(3L * n, ch.receiver.nextIndex());
        }
    }

    /**
     * A Byzantine sender writes anything into the ring through the fabric: random bytes at random
     * places, sizes out of bounds (huge, negative), incarnations far ahead, zero or negative, corrupted
     * images, and some well-formed images. The receiver never throws (an out-of-bounds read would), keeps
     * returning from poll, delivers in strictly increasing order, and delivers only well-formed images
     * the sender wrote, for the index they name.
     */
    /**
     * Waits until a write of the sender reaches the ring (a zero incarnation word at slot 0: nothing to deliver), so
     * that the scenario's writes are not spent while a fabric still connects (rdma's handshake runs on a thread of its
     * own and, on a loaded host, outlasted the whole scenario).
     */
    private static final long FIRST_WRITE = 1L << 40;

    private static void connect(FabricTestbed testbed, Fabric senderFabric, UnsafeBuffer zero) {
        zero.setMemory(0, 8, (byte) 0);
        boolean[] done = {false};
        senderFabric.write(FIRST_WRITE, ChannelHarness.RECEIVER, ChannelHarness.REGION, TailChannelLayout.INCARNATION_OFFSET,
            zero, 0, 8);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!done[0]) {
            senderFabric.poll((id, status) -> {
                if (id == FIRST_WRITE) {
                    assertEquals(Status.SUCCESS, status, "the sender's first write");
                    done[0] = true;
                }
            }, 64);
            testbed.progress();
            assertTrue(System.nanoTime() < deadline, "the sender's first write did not complete within 30 s");
        }
    }

    protected void byzantineSender(FabricTestbed testbed, long seed) {
        TailChannelLayout layout = new TailChannelLayout(T, MAX);
        Random random = new Random(seed);
        int byz = ChannelHarness.SENDER;
        try (testbed) {
            Fabric receiverFabric = testbed.open(ChannelHarness.RECEIVER);
            Fabric senderFabric = testbed.open(byz);
            TailChannelReceiver receiver = TailChannelReceiver.register(receiverFabric, ChannelHarness.REGION, byz, layout);
            Set<Long> wellFormed = new HashSet<>();
            long[] last = {-1};
            long[] delivered = {0};
            TailMessageHandler check = (buffer, offset, length, index) -> {
                if (index <= last[0]) {
                    fail("delivered " + index + " after " + last[0]);
                }
                if (length < 0 || length > MAX) {
                    fail("delivered a size out of bounds: " + length);
                }
                if (!wellFormed.contains(key(index, Checksums.xxHash64(buffer, offset, length), length))) {
                    fail("delivered message " + index + " that no valid slot image carried");
                }
                last[0] = index;
                delivered[0]++;
            };
            UnsafeBuffer image = new UnsafeBuffer(new byte[layout.slotBytes() * 2]);
            UnsafeBuffer payload = new UnsafeBuffer(new byte[MAX]);
            connect(testbed, senderFabric, image);
            int ringBytes = layout.ringBytes();
            int rounds = messages() * 2;
            for (int r = 0; r < rounds; r++) {
                long near = receiver.nextIndex() + (random.nextBoolean() ? 0 : random.nextInt(2 * T));
                int offset;
                int length;
                switch (random.nextInt(7)) {
                    case 0 -> { // random bytes at a random place
                        offset = random.nextInt(ringBytes);
                        length = 1 + random.nextInt(Math.min(ringBytes - offset, image.capacity()));
                        for (int i = 0; i < length; i++) {
                            image.putByte(i, (byte) random.nextInt());
                        }
                    }
                    case 1 -> { // a well-formed image, near or far ahead of the receiver
                        long index = random.nextInt(4) == 0 ? ahead(random, near, r > rounds * 3 / 4) : near;
                        length = wellFormed(layout, image, payload, index, random, wellFormed);
                        offset = layout.slotOffset(index);
                    }
                    case 2 -> { // header with a size out of bounds, checksum computed over what fits
                        offset = layout.slotOffset(near);
                        image.putLong(TailChannelLayout.INCARNATION_OFFSET, layout.incarnation(near));
                        int[] sizes = {-1, Integer.MIN_VALUE, MAX + 1, Integer.MAX_VALUE, random.nextInt()};
                        image.putInt(TailChannelLayout.SIZE_OFFSET, sizes[random.nextInt(sizes.length)]);
                        image.putLong(TailChannelLayout.CHECKSUM_OFFSET, TailChannelLayout.checksum(image, 0, MAX));
                        length = layout.slotBytes();
                    }
                    case 3 -> { // a well-formed image with one bit of its checksum or payload flipped (not valid)
                        // Flips in incarnation or size are covered by the checksum too, but a later header-word
                        // write (case 5) could legitimately repair them into a valid image the oracle never saw.
                        long index = near;
                        int len = fresh(layout, image, payload, index, random);
                        int bit = random.nextInt(64 + (len - TailChannelLayout.HEADER_BYTES) * 8);
                        int at = bit < 64 ? bit / 8 : TailChannelLayout.HEADER_BYTES + (bit - 64) / 8;
                        image.putByte(at, (byte) (image.getByte(at) ^ (1 << (bit % 8))));
                        offset = layout.slotOffset(index);
                        length = len;
                    }
                    case 4 -> { // zero, negative or impossible incarnations, with a valid checksum
                        long[] incs = {0, -1, Long.MIN_VALUE, Long.MAX_VALUE, layout.maxIncarnation() + 1, -random.nextLong(1L << 62)};
                        offset = layout.slotOffset(near);
                        int len = random.nextInt(MAX + 1);
                        image.putLong(TailChannelLayout.INCARNATION_OFFSET, incs[random.nextInt(incs.length)]);
                        image.putInt(TailChannelLayout.SIZE_OFFSET, len);
                        image.putInt(TailChannelLayout.SIZE_OFFSET + 4, 0);
                        image.putLong(TailChannelLayout.CHECKSUM_OFFSET, TailChannelLayout.checksum(image, 0, len));
                        length = TailChannelLayout.HEADER_BYTES + len;
                    }
                    case 5 -> { // flags with a valid checksum: fillers (never delivered), fillers with a payload, unknown flags
                        offset = layout.slotOffset(near);
                        int kind = random.nextInt(3);
                        int len = kind == 0 ? 0 : random.nextInt(MAX + 1);
                        int flags = kind == 2 ? random.nextInt() | 2 : TailChannelLayout.FLAG_FILLER;
                        for (int i = 0; i < len; i++) {
                            image.putByte(TailChannelLayout.HEADER_BYTES + i, (byte) random.nextInt());
                        }
                        image.putLong(TailChannelLayout.INCARNATION_OFFSET, layout.incarnation(near));
                        image.putInt(TailChannelLayout.SIZE_OFFSET, len);
                        image.putInt(TailChannelLayout.FLAGS_OFFSET, flags);
                        image.putLong(TailChannelLayout.CHECKSUM_OFFSET, TailChannelLayout.checksum(image, 0, len));
                        length = TailChannelLayout.HEADER_BYTES + len;
                    }
                    default -> { // a header word alone (an 8-byte write racing with others)
                        offset = layout.slotOffset(near) + 8 * random.nextInt(3);
                        image.putLong(0, random.nextBoolean() ? random.nextLong() : layout.incarnation(near) + random.nextInt(3));
                        length = 8;
                    }
                }
                senderFabric.write(r, ChannelHarness.RECEIVER, ChannelHarness.REGION, offset, image, 0, length);
                for (int i = 0, k = random.nextInt(4); i <= k; i++) {
                    senderFabric.poll((id, status) -> { }, 64);
                    receiver.poll(check, 1 + random.nextInt(2 * T));
                    testbed.progress();
                }
            }
            assertTrue(delivered[0] > 0, "the scenario should let some well-formed images through");
            assertTrue(receiver.corruptObservations() > 0);
            assertTrue(receiver.skipped() > 0);
            assertTrue(receiver.fillers() > 0, "the scenario should step over some fillers");
            assertEquals(delivered[0], receiver.delivered());
        }
    }

    /** An index at least t ahead of {@code near}: a few laps, or (late in the run) close to the largest index. */
    private static long ahead(Random random, long near, boolean huge) {
        long jump = huge && random.nextInt(8) == 0 ? random.nextLong(TailChannelLayout.MAX_INDEX) : random.nextInt(100 * T);
        return Math.min(TailChannelLayout.MAX_INDEX - 1, near + T + jump);
    }

    /** Formats a fresh random message as message {@code index} in {@code image}; returns the image length. */
    private static int fresh(TailChannelLayout layout, UnsafeBuffer image, UnsafeBuffer payload, long index, Random random) {
        int len = random.nextInt(MAX + 1);
        for (int i = 0; i < len; i++) {
            payload.putByte(i, (byte) random.nextInt());
        }
        return layout.writeSlot(image, 0, index, payload, 0, len);
    }

    private static int wellFormed(TailChannelLayout layout, UnsafeBuffer image, UnsafeBuffer payload, long index,
                                  Random random, Set<Long> valid) {
        int length = fresh(layout, image, payload, index, random);
        int len = length - TailChannelLayout.HEADER_BYTES;
        valid.add(key(index, Checksums.xxHash64(payload, 0, len), len));
        return length;
    }

    private static long key(long index, long payloadHash, int length) {
        return (index * 0x9E3779B97F4A7C15L) ^ payloadHash ^ ((long) length << 40);
    }
}
