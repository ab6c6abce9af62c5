package org.ubft.ctbcast.channel;

import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.ubft.fabric.CompletionRouter;
import org.ubft.fabric.Status;

import java.lang.management.ManagementFactory;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Sans-IO tests of the layout, the receiver over a plain region and the sender over a recording fabric. */
class TailChannelUnitTest {
    private static final int T = 4;
    private static final int MAX = 40;

    @Test
    void layoutIsAlignedAndSizedForTSlots() {
        TailChannelLayout layout = new TailChannelLayout(T, MAX);
        assertEquals(64, layout.slotBytes()); // 24 + 40 rounded up to 8
        assertEquals(T * 64, layout.ringBytes());
        assertEquals(T * 64, TailChannelLayout.ringBytes(T, MAX));
        assertEquals(24 + 8, new TailChannelLayout(1, 1).slotBytes());
        assertEquals(0, new TailChannelLayout(3, 7).slotBytes() % 8);
        // message k: slot k mod t, incarnation k / t + 1
        assertEquals(1, layout.slot(5));
        assertEquals(2, layout.incarnation(5));
        assertEquals(1, layout.incarnation(0));
        assertEquals(5, layout.indexOf(2, 1));
        assertEquals(64, layout.slotOffset(5));
        assertTrue(layout.indexOf(layout.maxIncarnation(), T - 1) < TailChannelLayout.MAX_INDEX + T);
        assertThrows(IllegalArgumentException.class, () -> new TailChannelLayout(0, 10));
        assertThrows(IllegalArgumentException.class, () -> new TailChannelLayout(4, 0));
        assertThrows(IllegalArgumentException.class, () -> new TailChannelLayout(4, 1 << 20));
        assertThrows(IllegalArgumentException.class, () -> new TailChannelLayout(1 << 20, 4096));
    }

    @Test
    void slotImageCarriesAChecksumOverIncarnationSizeAndPayload() {
        TailChannelLayout layout = new TailChannelLayout(T, MAX);
        UnsafeBuffer slot = new UnsafeBuffer(new byte[layout.slotBytes()]);
        UnsafeBuffer payload = new UnsafeBuffer(new byte[MAX]);
        int len = Messages.fill(payload, 9, MAX);
        assertEquals(TailChannelLayout.HEADER_BYTES + len, layout.writeSlot(slot, 0, 9, payload, 0, len));
        assertEquals(3, slot.getLong(TailChannelLayout.INCARNATION_OFFSET));
        assertEquals(len, slot.getInt(TailChannelLayout.SIZE_OFFSET));
        long sum = slot.getLong(TailChannelLayout.CHECKSUM_OFFSET);
        assertEquals(sum, TailChannelLayout.checksum(slot, 0, len));
        slot.putLong(TailChannelLayout.INCARNATION_OFFSET, 4);
        assertTrue(sum != TailChannelLayout.checksum(slot, 0, len), "incarnation is covered");
    }

    @Test
    void receiverDeliversInOrderAndJumpsToTheOldestMessageStillPresentWhenLapped() {
        TailChannelLayout layout = new TailChannelLayout(T, MAX);
        HeapRegion region = new HeapRegion(layout.ringBytes());
        TailChannelReceiver receiver = new TailChannelReceiver(region, layout, 0);
        DeliveryRecorder recorder = new DeliveryRecorder(MAX);
        UnsafeBuffer payload = new UnsafeBuffer(new byte[MAX]);
        for (long k = 0; k < 3; k++) {
            put(layout, region.buffer(), payload, k);
        }
        assertEquals(3, receiver.poll(recorder));
        assertEquals(0, receiver.poll(recorder)); // slot 3 still empty: not yet
        // The sender runs on to message 13 (slots now hold 12, 13, 10, 11) while the receiver waits at 3.
        for (long k = 3; k < 14; k++) {
            put(layout, region.buffer(), payload, k);
        }
        assertEquals(T, receiver.poll(recorder));
        assertEquals(java.util.List.of(0L, 1L, 2L, 10L, 11L, 12L, 13L), java.util.Arrays.stream(
            recorder.indices().toLongArray()).boxed().toList());
        assertEquals(7, receiver.skipped()); // 3..9
        assertEquals(14, receiver.nextIndex());
        assertEquals(receiver.nextIndex(), receiver.delivered() + receiver.skipped());
    }

    @Test
    void aLowerIncarnationIsNotYetAndAHigherOneOnlyCountsOnceValid() {
        TailChannelLayout layout = new TailChannelLayout(T, MAX);
        HeapRegion region = new HeapRegion(layout.ringBytes());
        TailChannelReceiver receiver = new TailChannelReceiver(region, layout, T); // expects incarnation 2 in slot 0
        DeliveryRecorder recorder = new DeliveryRecorder(MAX);
        UnsafeBuffer payload = new UnsafeBuffer(new byte[MAX]);
        put(layout, region.buffer(), payload, 0);
        assertEquals(0, receiver.poll(recorder));
        assertEquals(0, receiver.corruptObservations());
        // Incarnation 3 (message 2t) with a broken checksum: neither a delivery nor a jump.
        put(layout, region.buffer(), payload, 2L * T);
        region.buffer().putLong(TailChannelLayout.CHECKSUM_OFFSET, 12345);
        assertEquals(0, receiver.poll(recorder));
        assertEquals(T, receiver.nextIndex());
        assertEquals(0, receiver.skipped());
        assertEquals(1, receiver.corruptObservations());
    }

    @Test
    void aSlotRewrittenWhileBeingCopiedIsNeitherDeliveredNorAReasonToGoBack() {
        TailChannelLayout layout = new TailChannelLayout(T, MAX);
        RacingBuffer ring = new RacingBuffer(layout.ringBytes());
        TailChannelReceiver receiver = new TailChannelReceiver(new HeapRegion(ring), layout, T);
        DeliveryRecorder recorder = new DeliveryRecorder(MAX);
        UnsafeBuffer payload = new UnsafeBuffer(new byte[MAX]);
        // Poll sees message t (incarnation 2); an older valid image (message 0) lands before the copy.
        put(layout, ring, payload, T);
        ring.beforeNextCopy(() -> put(layout, ring, payload, 0));
        assertEquals(0, receiver.poll(recorder));
        assertEquals(T, receiver.nextIndex(), "the receiver must never move back");
        assertEquals(0, receiver.skipped());
        // Poll sees message t; message 2t (incarnation 3) lands before the copy: not delivered as message t.
        put(layout, ring, payload, T);
        ring.beforeNextCopy(() -> put(layout, ring, payload, 2L * T));
        assertEquals(0, receiver.poll(recorder, 1));
        assertEquals(0, recorder.count());
        // Next look: a genuine lap. The slots between hold nothing this stream wrote (more than one lap behind), so
        // the receiver goes on to message 2t itself and delivers it (TailChannelReceiver: skip never-written slots).
        receiver.poll(recorder, 1);
        assertEquals(2L * T + 1, receiver.nextIndex());
        assertEquals(1, recorder.count());
    }

    @Test
    void everyExtremeHeaderIsRejectedWithoutThrowingOrMoving() {
        TailChannelLayout layout = new TailChannelLayout(T, MAX);
        HeapRegion region = new HeapRegion(layout.ringBytes());
        AtomicBuffer ring = region.buffer();
        long[] incarnations = {Long.MIN_VALUE, -1, 0, 1, 2, layout.maxIncarnation(), layout.maxIncarnation() + 1, Long.MAX_VALUE};
        int[] sizes = {Integer.MIN_VALUE, -1, 0, MAX, MAX + 1, layout.slotBytes(), layout.ringBytes(), Integer.MAX_VALUE};
        for (long start : new long[] {0, 1, T * 3L + 2, TailChannelLayout.MAX_INDEX - 1}) {
            for (long inc : incarnations) {
                for (int size : sizes) {
                    TailChannelReceiver receiver = new TailChannelReceiver(region, layout, start);
                    int off = layout.slotOffset(start);
                    ring.putLong(off + TailChannelLayout.INCARNATION_OFFSET, inc);
                    ring.putInt(off + TailChannelLayout.SIZE_OFFSET, size);
                    ring.putLong(off + TailChannelLayout.CHECKSUM_OFFSET, 0x0BADL);
                    assertEquals(0, receiver.poll((b, o, l, i) -> {
                        throw new AssertionError("delivered a slot with a bad checksum");
                    }));
                    assertEquals(start, receiver.nextIndex());
                }
            }
        }
    }

    @Test
    void validImagesWithAbsurdIncarnationsNeverOverflowTheIndex() {
        TailChannelLayout layout = new TailChannelLayout(T, MAX);
        HeapRegion region = new HeapRegion(layout.ringBytes());
        UnsafeBuffer payload = new UnsafeBuffer(new byte[MAX]);
        TailChannelReceiver receiver = new TailChannelReceiver(region, layout, 0);
        // A Byzantine sender jumps the receiver to the largest index, then keeps writing beyond it.
        long last = TailChannelLayout.MAX_INDEX - 1;
        for (int slot = 0; slot < T; slot++) {
            put(layout, region.buffer(), payload, layout.indexOf(layout.maxIncarnation(), slot));
        }
        long[] seen = {-1};
        for (int i = 0; i < 10; i++) {
            receiver.poll((b, o, l, index) -> {
                assertTrue(index > seen[0] && index <= last + T);
                seen[0] = index;
            });
        }
        assertTrue(receiver.nextIndex() > 0 && receiver.nextIndex() <= TailChannelLayout.MAX_INDEX + T);
        put(layout, region.buffer(), payload, TailChannelLayout.MAX_INDEX + 1);
        for (int i = 0; i < 10; i++) {
            receiver.poll((b, o, l, index) -> assertTrue(index > seen[0]));
        }
        assertTrue(receiver.nextIndex() > 0);
    }

    @Test
    void receiverPollAllocatesNothingOnceWarm() {
        TailChannelLayout layout = new TailChannelLayout(T, MAX);
        HeapRegion region = new HeapRegion(layout.ringBytes());
        TailChannelReceiver receiver = new TailChannelReceiver(region, layout, 0);
        UnsafeBuffer payload = new UnsafeBuffer(new byte[MAX]);
        long[] sum = new long[1];
        TailMessageHandler handler = (b, o, l, i) -> sum[0] += l;
        Random random = new Random(3);
        long k = 0;
        for (int i = 0; i < 100_000; i++) { // warm up
            k = cycle(layout, region, receiver, payload, handler, random, k);
        }
        long before = allocatedBytes();
        for (int i = 0; i < 50_000; i++) {
            k = cycle(layout, region, receiver, payload, handler, random, k);
        }
        long allocated = allocatedBytes() - before;
        assertTrue(allocated < 10_000, "50k receiver polls allocated " + allocated + " bytes");
        assertTrue(receiver.delivered() > 0 && receiver.skipped() > 0 && receiver.corruptObservations() > 0);
    }

    /** One round: sometimes lap the receiver, sometimes corrupt a slot, then poll. */
    private static long cycle(TailChannelLayout layout, HeapRegion region, TailChannelReceiver receiver,
                              UnsafeBuffer payload, TailMessageHandler handler, Random random, long k) {
        int burst = random.nextInt(16) == 0 ? 3 * T : 1;
        for (int j = 0; j < burst; j++) {
            put(layout, region.buffer(), payload, k++);
        }
        if (random.nextInt(8) == 0) {
            int off = layout.slotOffset(receiver.nextIndex());
            region.buffer().putLong(off + TailChannelLayout.CHECKSUM_OFFSET, random.nextLong());
        }
        receiver.poll(handler);
        return k;
    }

    @Test
    void senderWritesOneSlotPerMessageAndStagesWhileTheSlotIsBusy() {
        TailChannelLayout layout = new TailChannelLayout(T, MAX);
        StubFabric fabric = new StubFabric();
        TailChannelSender sender = new TailChannelSender(fabric, 9, ChannelHarness.RECEIVER, 5, layout, 2);
        UnsafeBuffer payload = new UnsafeBuffer(new byte[MAX]);
        for (long k = 0; k < T; k++) {
            int len = Messages.fill(payload, k, MAX);
            assertEquals(k, sender.send(payload, 0, len));
            assertEquals(k + 1, fabric.writes);
            assertEquals(layout.slotOffset(k), fabric.lastOffset);
            assertEquals(TailChannelLayout.HEADER_BYTES + len, fabric.lastLength);
            assertEquals(9, CompletionRouter.tagOf(fabric.lastId));
            assertEquals(layout.incarnation(k), fabric.lastSrc.getLong(fabric.lastSrcIndex + TailChannelLayout.INCARNATION_OFFSET));
        }
        // Every slot busy: messages 4, 5 are staged; 6 evicts 4 (§6.2).
        for (long k = T; k < T + 3; k++) {
            sender.send(payload, 0, Messages.fill(payload, k, MAX));
        }
        assertEquals(T, fabric.writes);
        assertEquals(2, sender.staged());
        assertEquals(1, sender.evicted());
        // Slot 0 completes UNREACHABLE: counted, and message 0 is written again at once (same incarnation);
        // 5 waits for slot 1.
        fabric.completed();
        sender.onCompletion(CompletionRouter.compose(9, 0), Status.UNREACHABLE);
        assertEquals(1, sender.unreachableWrites());
        assertEquals(T + 1, fabric.writes);
        assertEquals(1, sender.rewrites());
        assertEquals(layout.slotOffset(0), fabric.lastOffset);
        assertEquals(layout.incarnation(0), fabric.lastSrc.getLong(fabric.lastSrcIndex + TailChannelLayout.INCARNATION_OFFSET));
        fabric.completed();
        sender.onCompletion(CompletionRouter.compose(9, 1), Status.SUCCESS);
        assertEquals(T + 2, fabric.writes);
        assertEquals(layout.slotOffset(5), fabric.lastOffset);
        fabric.completed();
        sender.onCompletion(CompletionRouter.compose(9, 2), Status.ACCESS_DENIED);
        assertEquals(T + 3, fabric.writes);
        assertEquals(layout.slotOffset(6), fabric.lastOffset);
        assertEquals(1, sender.deniedWrites());
        assertEquals(0, sender.staged());
        fabric.completed();
        sender.onCompletion(CompletionRouter.compose(9, 0), Status.SUCCESS); // the second write of message 0
        assertEquals(T + 3, fabric.writes, "ACCESS_DENIED is final: nothing is written again");
        // A completion for a slot with nothing in flight is ignored.
        sender.onCompletion(CompletionRouter.compose(9, 0), Status.SUCCESS);
        sender.onCompletion(CompletionRouter.compose(9, 1L << 40), Status.SUCCESS);
        assertEquals(2, sender.strayCompletions());
        assertThrows(IllegalArgumentException.class, () -> sender.send(payload, 0, MAX + 1));
    }

    @Test
    void aFailedWriteIsNotRepeatedOnceANewerMessageTookItsSlot() {
        TailChannelLayout layout = new TailChannelLayout(T, MAX);
        StubFabric fabric = new StubFabric();
        TailChannelSender sender = new TailChannelSender(fabric, 9, ChannelHarness.RECEIVER, 5, layout, T);
        UnsafeBuffer payload = new UnsafeBuffer(new byte[MAX]);
        for (long k = 0; k <= T; k++) { // message T waits for slot 0
            sender.send(payload, 0, Messages.fill(payload, k, MAX));
        }
        fabric.completed();
        sender.onCompletion(CompletionRouter.compose(9, 0), Status.UNREACHABLE);
        assertEquals(T + 1, fabric.writes, "slot 0 is written once more");
        assertEquals(layout.incarnation(T), fabric.lastSrc.getLong(fabric.lastSrcIndex + TailChannelLayout.INCARNATION_OFFSET),
            "with message T, which supersedes message 0");
        assertEquals(0, sender.rewrites());
        assertEquals(1, sender.superseded());
        assertTrue(!sender.isIdle());
    }

    @Test
    void aSlotIsWrittenAgainAtMostMaxRewritesTimesThenGivenUp() {
        TailChannelLayout layout = new TailChannelLayout(T, MAX);
        StubFabric fabric = new StubFabric();
        TailChannelSender sender = new TailChannelSender(fabric, 9, ChannelHarness.RECEIVER, 5, layout, T);
        UnsafeBuffer payload = new UnsafeBuffer(new byte[MAX]);
        sender.send(payload, 0, Messages.fill(payload, 0, MAX));
        for (int attempt = 1; attempt <= TailChannelSender.MAX_REWRITES; attempt++) {
            fabric.completed();
            sender.onCompletion(CompletionRouter.compose(9, 0), Status.UNREACHABLE);
            assertEquals(1 + attempt, fabric.writes, "rewrite " + attempt);
        }
        fabric.completed();
        sender.onCompletion(CompletionRouter.compose(9, 0), Status.UNREACHABLE);
        assertEquals(1 + TailChannelSender.MAX_REWRITES, fabric.writes, "given up: no further write");
        assertEquals(1, sender.abandoned());
        assertTrue(sender.isIdle(), "the slot is free again");
    }

    /**
     * A slot given up after {@link TailChannelSender#MAX_REWRITES} (the receiver unreachable for a while) is written
     * again once a later WRITE to the receiver succeeds, so the receiver does not wait at that slot until the ring is
     * lapped while newer messages sit in it (found by Twins: a replica link after a partition).
     */
    @Test
    void anAbandonedSlotIsWrittenAgainOnceTheReceiverIsReachable() {
        TailChannelLayout layout = new TailChannelLayout(T, MAX);
        StubFabric fabric = new StubFabric();
        TailChannelSender sender = new TailChannelSender(fabric, 9, ChannelHarness.RECEIVER, 5, layout, T);
        UnsafeBuffer payload = new UnsafeBuffer(new byte[MAX]);
        sender.send(payload, 0, Messages.fill(payload, 0, MAX));
        for (int attempt = 0; attempt <= TailChannelSender.MAX_REWRITES; attempt++) {
            fabric.completed();
            sender.onCompletion(CompletionRouter.compose(9, 0), Status.UNREACHABLE);
        }
        assertEquals(1, sender.abandoned());
        long writes = fabric.writes;
        sender.send(payload, 0, Messages.fill(payload, 1, MAX)); // the link is back: message 1, slot 1
        assertEquals(writes + 1, fabric.writes);
        fabric.completed();
        sender.onCompletion(CompletionRouter.compose(9, 1), Status.SUCCESS);
        assertEquals(writes + 2, fabric.writes, "slot 0 is written again");
        assertEquals(layout.slotOffset(0), fabric.lastOffset);
        assertEquals(layout.incarnation(0), fabric.lastSrc.getLong(fabric.lastSrcIndex + TailChannelLayout.INCARNATION_OFFSET),
            "with message 0");
        fabric.completed();
        sender.onCompletion(CompletionRouter.compose(9, 0), Status.SUCCESS);
        assertTrue(sender.isIdle());
    }

    @Test
    void senderWaitsWhenTheFabricIsFull() {
        TailChannelLayout layout = new TailChannelLayout(T, MAX);
        StubFabric fabric = new StubFabric();
        fabric.maxOutstanding = 1;
        TailChannelSender sender = new TailChannelSender(fabric, 1, ChannelHarness.RECEIVER, 5, layout, T);
        UnsafeBuffer payload = new UnsafeBuffer(new byte[MAX]);
        sender.send(payload, 0, 1);
        sender.send(payload, 0, 1);
        assertEquals(1, fabric.writes);
        assertEquals(1, sender.staged());
        fabric.completed();
        sender.onCompletion(CompletionRouter.compose(1, 0), Status.SUCCESS);
        assertEquals(2, fabric.writes);
        assertFalse(sender.isIdle());
    }

    @Test
    void senderAllocatesNothingOnceWarm() {
        TailChannelLayout layout = new TailChannelLayout(T, MAX);
        StubFabric fabric = new StubFabric();
        TailChannelSender sender = new TailChannelSender(fabric, 1, ChannelHarness.RECEIVER, 5, layout, T);
        UnsafeBuffer payload = new UnsafeBuffer(new byte[MAX]);
        int[] nextSlot = {0};
        Runnable round = () -> {
            sender.send(payload, 0, MAX / 2);
            sender.send(payload, 0, MAX); // two per completion: the staging ring fills and evicts
            if (sender.inFlight() > 0) {
                fabric.completed();
                sender.onCompletion(CompletionRouter.compose(1, nextSlot[0]), Status.SUCCESS);
                nextSlot[0] = (nextSlot[0] + 1) % T;
            }
        };
        for (int i = 0; i < 100_000; i++) {
            round.run();
        }
        long before = allocatedBytes();
        for (int i = 0; i < 50_000; i++) {
            round.run();
        }
        long allocated = allocatedBytes() - before;
        assertTrue(allocated < 10_000, "100k sends allocated " + allocated + " bytes");
        assertTrue(sender.evicted() > 0 && sender.written() > 0);
    }

    private static void put(TailChannelLayout layout, AtomicBuffer ring, UnsafeBuffer payload, long k) {
        int len = Messages.fill(payload, k, MAX);
        layout.writeSlot(ring, layout.slotOffset(k), k, payload, 0, len);
    }

    private static long allocatedBytes() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }
}
