package org.ubft.ctbcast.channel;

import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.fabric.Fabric;
import org.ubft.fabric.LocalRegion;
import org.ubft.fabric.Permission;
import org.ubft.fabric.Permissions;

/**
 * Receiving end of a tail channel (paper §6.2). Owns a ring ({@link TailChannelLayout}) at the start of
 * a local region that only the sender may write, and polls it locally; no fabric operation, no
 * acknowledgement.
 *
 * <p>Contract:
 * <ul>
 *   <li>Delivers messages in strictly increasing index order, each at most once, each exactly as a
 *       sender wrote it into a slot with a valid checksum for its incarnation and size.</li>
 *   <li>With a correct sender (staging capacity at least t) whose WRITEs succeed, it delivers at least
 *       the last t messages sent: when it was lapped it skips to the oldest message that can still be in
 *       the ring (§6.2). A lost WRITE stalls it at that message until its slot is written again.</li>
 *   <li>A restarted sender's fillers ({@link TailChannelLayout#FLAG_FILLER}, {@link TailChannelSender#startAt}) move
 *       it to the sender's new lap whatever slot it watches; they are stepped over, never delivered.</li>
 *   <li>Over a new ring (started at message 0), until it hears anything, it probes one other slot per idle poll, so
 *       it hears a sender that goes on at its own indices at its next message, whatever slot that lands in.</li>
 *   <li>The indices it delivers are what the sender's incarnations say: a Byzantine sender can make it
 *       skip (up to {@link TailChannelLayout#MAX_INDEX}), never go back.</li>
 *   <li>Whatever bytes land in the ring (torn writes, a Byzantine sender), {@link #poll} returns after
 *       a bounded amount of work, reads only inside the ring, allocates nothing and never throws
 *       because of the ring's contents. A slot with a bad checksum or size is "not yet", never delivered.</li>
 * </ul>
 * Single-threaded, on the thread that uses the region's fabric.
 */
public final class TailChannelReceiver {
    /** Outcomes of examining one slot. */
    private static final int NOT_YET = 0;
    private static final int DELIVERED = 1;
    private static final int LAPPED = 2;
    private static final int FILLER = 3;

    private final TailChannelLayout layout;
    private final AtomicBuffer ring;
    /** Private copy of the slot being examined (§6.2: "copies the entire message to a private buffer"). */
    private final UnsafeBuffer copy;
    private long next;
    /**
     * A receiver over a new ring (starting at message 0) that has neither delivered nor jumped yet: it probes one other
     * slot per idle poll ({@link #probe}).
     */
    private boolean fresh;
    /** The slot {@link #probe} examines next (round robin). */
    private int probeSlot;
    private long delivered;
    private long skipped;
    private long fillers;
    private long corrupt;

    /**
     * A receiver over an already registered region holding the ring at offset 0.
     *
     * @param nextIndex index of the first message to deliver (0 for a fresh channel; a previous
     *                  receiver's {@link #nextIndex()} to resume)
     */
    public TailChannelReceiver(LocalRegion region, TailChannelLayout layout, long nextIndex) {
        if (region.length() < layout.ringBytes()) {
            throw new IllegalArgumentException("region " + region.regionId() + " has " + region.length()
                + " bytes; the ring needs " + layout.ringBytes());
        }
        if (nextIndex < 0 || nextIndex >= TailChannelLayout.MAX_INDEX) {
            throw new IllegalArgumentException("next index " + nextIndex + " out of range");
        }
        this.layout = layout;
        this.ring = region.buffer();
        this.copy = new UnsafeBuffer(new byte[layout.slotBytes()]);
        this.next = nextIndex;
        this.fresh = nextIndex == 0;
    }

    /**
     * Registers region {@code regionId} on {@code fabric}, sized for the ring and writable by
     * {@code senderNode} only (docs/design.md §4), and returns a receiver over it starting at message 0.
     */
    public static TailChannelReceiver register(Fabric fabric, int regionId, int senderNode, TailChannelLayout layout) {
        LocalRegion region = fabric.register(regionId, layout.ringBytes(),
            Permissions.none().grant(senderNode, Permission.READ_WRITE));
        return new TailChannelReceiver(region, layout, 0);
    }

    /** Delivers, in order, the messages ready in the ring, at most t of them. */
    public int poll(TailMessageHandler handler) {
        return poll(handler, layout.t());
    }

    /**
     * Delivers, in order, at most {@code limit} messages that are ready, examining at most
     * {@code limit} + 2t slots: each lap and each restart filler costs one examination, and a sender's restart needs
     * fewer than t of each ({@link TailChannelSender#startAt}), so a return of 0 means nothing is ready yet.
     *
     * @return number of messages delivered
     */
    public int poll(TailMessageHandler handler, int limit) {
        int count = 0;
        long budget = (long) limit + 2L * layout.t();
        while (count < limit && budget-- > 0) {
            int outcome = examine(handler);
            if (outcome == NOT_YET && !(fresh && probe())) {
                break;
            }
            if (outcome == DELIVERED) {
                count++;
            }
        }
        return count;
    }

    /** Examines the slot of message {@link #next} once. */
    private int examine(TailMessageHandler handler) {
        final long expected = layout.incarnation(next);
        final int slot = layout.slot(next);
        final int offset = slot * layout.slotBytes();
        // §6.2: poll the slot for the expected incarnation (8-byte atomic word; acquire).
        final long seen = ring.getLongVolatile(offset + TailChannelLayout.INCARNATION_OFFSET);
        if (seen < expected) {
            return NOT_YET; // an older message (or nothing) is still there; a negative value lands here too
        }
        if (seen > layout.maxIncarnation()) {
            corrupt++; // no correct sender gets there
            return NOT_YET;
        }
        // §6.2: copy the slot out so that concurrent WRITEs cannot change what we validate and deliver.
        ring.getBytes(offset, copy, 0, TailChannelLayout.HEADER_BYTES);
        final int size = copy.getInt(TailChannelLayout.SIZE_OFFSET);
        if (size < 0 || size > layout.maxMessageBytes()) {
            corrupt++;
            return NOT_YET;
        }
        ring.getBytes(offset + TailChannelLayout.HEADER_BYTES, copy, TailChannelLayout.HEADER_BYTES, size);
        // §6.2: check the incarnation again, in the copy.
        final long incarnation = copy.getLong(TailChannelLayout.INCARNATION_OFFSET);
        if (incarnation != seen) {
            return NOT_YET; // overwritten while we copied: look again
        }
        // §6.2: an invalid checksum means "reschedule the polling", never "deliver".
        if (copy.getLong(TailChannelLayout.CHECKSUM_OFFSET) != TailChannelLayout.checksum(copy, 0, size)) {
            corrupt++;
            return NOT_YET;
        }
        final int flags = copy.getInt(TailChannelLayout.FLAGS_OFFSET);
        if (!validFlags(flags, size)) {
            corrupt++;
            return NOT_YET;
        }
        fresh = false;
        if (incarnation == expected && flags == TailChannelLayout.FLAG_FILLER) {
            next++; // a restarted sender's filler: it moved us to its new lap, and carries nothing
            fillers++;
            return FILLER;
        }
        if (incarnation == expected) {
            final long index = next++;
            delivered++;
            handler.onMessage(copy, TailChannelLayout.HEADER_BYTES, size, index);
            return DELIVERED;
        }
        // §6.2: a higher incarnation means we were lapped
        jumpBelow(layout.indexOf(incarnation, slot));
        return LAPPED;
    }

    /**
     * A new ring, nothing heard yet, nothing at {@link #next}: examines one other slot (round robin, one per idle poll)
     * for a message. The ring is new memory (a process that started again registers it afresh), but the sender, which
     * did not restart, goes on at its indices and writes whatever slots they map to, rarely slot 0, which this receiver
     * watches: alone it would hear the sender only once it came round to that slot, up to t - 1 messages later (a new
     * client process's first replies). A message found in another slot is one the sender wrote at least one lap past
     * {@link #next}, so the receiver was lapped, exactly as when the watched slot shows it (§6.2), and jumps the same
     * way. Only while fresh: a receiver that heard its sender follows it slot by slot, and a probe there would jump to
     * stale laps a twin or an earlier incarnation left in the ring.
     *
     * @return whether the receiver jumped (the caller examines {@link #next} again)
     */
    private boolean probe() {
        final int t = layout.t();
        probeSlot = probeSlot + 1 < t ? probeSlot + 1 : 0;
        final int watched = layout.slot(next);
        if (t < 2 || probeSlot == watched) {
            return false;
        }
        final long held = next + Math.floorMod(probeSlot - watched, t); // the message the slot holds on this lap
        final int offset = probeSlot * layout.slotBytes();
        final long seen = ring.getLongVolatile(offset + TailChannelLayout.INCARNATION_OFFSET);
        if (seen <= layout.incarnation(held) || seen > layout.maxIncarnation()) {
            return false;
        }
        ring.getBytes(offset, copy, 0, TailChannelLayout.HEADER_BYTES);
        final int size = copy.getInt(TailChannelLayout.SIZE_OFFSET);
        if (size < 0 || size > layout.maxMessageBytes()) {
            return false;
        }
        ring.getBytes(offset + TailChannelLayout.HEADER_BYTES, copy, TailChannelLayout.HEADER_BYTES, size);
        if (copy.getLong(TailChannelLayout.INCARNATION_OFFSET) != seen
            || copy.getLong(TailChannelLayout.CHECKSUM_OFFSET) != TailChannelLayout.checksum(copy, 0, size)
            || !validFlags(copy.getInt(TailChannelLayout.FLAGS_OFFSET), size)) {
            return false; // being written, or not a message: looked at again on a later round
        }
        fresh = false;
        jumpBelow(layout.indexOf(seen, probeSlot));
        return true;
    }

    /** A message (flags 0) or a filler (no payload). */
    private static boolean validFlags(int flags, int size) {
        return flags == 0 || flags == TailChannelLayout.FLAG_FILLER && size == 0;
    }

    /**
     * Lapped: message {@code newest} was written, so nothing older than newest - t + 1 can still be in the ring.
     * Advances to that oldest possibly present message (past slots never written by this stream).
     */
    private void jumpBelow(long newest) {
        long oldest = newest - layout.t() + 1; // > next
        // A slot still more than one lap behind the message it should hold was never written by this stream: the
        // sender restarted above its old indices (TailChannelSender#startAt) and will never send those. Skip them,
        // or the receiver would wait for them forever. (A correct sender's slot in a WRITE being retried holds the
        // previous lap's message, one incarnation behind, and is waited for.)
        while (oldest < newest) {
            long held = ring.getLongVolatile(layout.slot(oldest) * layout.slotBytes()
                + TailChannelLayout.INCARNATION_OFFSET);
            if (held >= layout.incarnation(oldest) - 1) {
                break;
            }
            oldest++;
        }
        skipped += oldest - next;
        next = oldest;
    }

    /** Index of the next message this receiver will deliver. */
    public long nextIndex() {
        return next;
    }

    /** Messages delivered. */
    public long delivered() {
        return delivered;
    }

    /** Messages skipped because the sender lapped this receiver. */
    public long skipped() {
        return skipped;
    }

    /** Restart fillers stepped over ({@link TailChannelLayout#FLAG_FILLER}). */
    public long fillers() {
        return fillers;
    }

    /**
     * Examinations of a slot carrying the expected (or a higher) incarnation that failed validation: bad
     * checksum, size out of bounds, impossible incarnation. Includes torn reads of WRITEs in progress.
     */
    public long corruptObservations() {
        return corrupt;
    }

    public TailChannelLayout layout() {
        return layout;
    }
}
