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

    private final TailChannelLayout layout;
    private final AtomicBuffer ring;
    /** Private copy of the slot being examined (§6.2: "copies the entire message to a private buffer"). */
    private final UnsafeBuffer copy;
    private long next;
    private long delivered;
    private long skipped;
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
     * {@code limit} + t slots: each lap costs one examination, and a quiescent ring needs fewer than t
     * consecutive ones, so a return of 0 means nothing is ready yet.
     *
     * @return number of messages delivered
     */
    public int poll(TailMessageHandler handler, int limit) {
        int count = 0;
        long budget = (long) limit + layout.t();
        while (count < limit && budget-- > 0) {
            int outcome = examine(handler);
            if (outcome == NOT_YET) {
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
        if (incarnation == expected) {
            final long index = next++;
            delivered++;
            handler.onMessage(copy, TailChannelLayout.HEADER_BYTES, size, index);
            return DELIVERED;
        }
        // §6.2: a higher incarnation means we were lapped: message `newest` was written, so nothing older
        // than newest - t + 1 can still be in the ring. Advance to that oldest possibly present message.
        final long newest = layout.indexOf(incarnation, slot);
        long oldest = newest - layout.t() + 1; // > next, since incarnation > expected
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
        return LAPPED;
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
