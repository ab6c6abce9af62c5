package org.ubft.ctbcast.channel;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.fabric.CompletionHandler;
import org.ubft.fabric.CompletionRouter;
import org.ubft.fabric.Fabric;
import org.ubft.fabric.Status;

/**
 * Sending end of a tail channel (paper §6.2). Message k goes into slot k mod t of a local mirror of the
 * receiver's ring and then to the receiver with one fabric WRITE of that slot. No acknowledgements:
 * newer messages overwrite older ones whether or not they were delivered.
 *
 * <p>Contract:
 * <ul>
 *   <li>{@link #send} never blocks: it writes at once if the message's slot is free, otherwise it queues
 *       the message in a bounded staging ring that evicts its oldest message when full (§6.2). A staging
 *       capacity of at least t keeps every one of the last t messages.</li>
 *   <li>A slot has at most one WRITE in flight; its completion, which the owner routes here through a
 *       {@link CompletionRouter} under this sender's tag, frees it and lets staged messages go (posted from
 *       inside {@link #onCompletion}).</li>
 *   <li>A WRITE that ends UNREACHABLE is counted and posted again, same message, up to {@link #MAX_REWRITES}
 *       times, unless a newer message takes its slot first (then it is counted as superseded). Then the slot is
 *       abandoned until a later WRITE to the receiver succeeds (the link is back): abandoned slots that still hold
 *       their message are written again then. Without that, a receiver cut off for a while waited at the first lost
 *       slot, with newer messages already in its ring, until the sender lapped the ring t messages later (a replica
 *       link after a partition, found by Twins: COMPLAINTs unheard for 85 ms after GST). A WRITE that ends
 *       ACCESS_DENIED is counted and its slot reused.</li>
 *   <li>Memory is fixed at construction (mirror of t slots, staging of the given capacity); sending
 *       allocates nothing beyond what the fabric does. Single-threaded, on the fabric's thread.</li>
 * </ul>
 */
public final class TailChannelSender implements CompletionHandler {
    private final Fabric fabric;
    private final int tag;
    private final int receiverNode;
    private final int regionId;
    private final TailChannelLayout layout;
    /** §6.2: "the sender allocates a mirror image of the receiver's buffer in its local memory". */
    private final UnsafeBuffer mirror;
    /** §6.2: a slot is unavailable until the completion of its WRITE. */
    private final boolean[] inFlight;
    /**
     * Times a message is written again after its WRITE ended UNREACHABLE (a connection that broke, a write that
     * timed out), before the slot is given up: enough for transient failures, and a dead receiver does not keep
     * t writes in flight forever (streams that need more, like TBcast, retransmit themselves).
     */
    public static final int MAX_REWRITES = 3;

    /** Slots whose last WRITE ended UNREACHABLE and still hold the newest message for that slot. */
    private final boolean[] rewrite;
    /** Slots given up after {@link #MAX_REWRITES} that still hold their message: written again on the next success. */
    private final boolean[] abandonedSlot;
    private int abandonedPending;
    private final byte[] rewriteAttempts;
    private final int[] slotWriteBytes;
    private int rewritesPending;
    private long rewrites;
    private long superseded;
    private long abandoned;
    /** Slots holding a restart's filler not yet posted ({@link #startAt}). */
    private final boolean[] fillerPending;
    private int fillersPending;
    private long fillers;
    private final StagingRing staging;
    /** WRITEs in flight below which a slot's WRITE may complete lazily ({@link Fabric#writeLazily}): t / 2. */
    private final int lazyInFlight;
    private int inFlightCount;
    private long nextIndex;
    private long written;
    private long unreachable;
    private long denied;
    private long evicted;
    private long strayCompletions;

    /**
     * @param fabric           the sender's fabric
     * @param tag              this sender's {@link CompletionRouter} tag; register this object under it
     * @param receiverNode     node owning the ring
     * @param regionId         the ring's region on that node
     * @param stagingCapacity  most messages waiting for a slot (at least t keeps the last t)
     */
    public TailChannelSender(Fabric fabric, int tag, int receiverNode, int regionId, TailChannelLayout layout,
                             int stagingCapacity) {
        CompletionRouter.compose(tag, 0); // validates the tag
        this.fabric = fabric;
        this.tag = tag;
        this.receiverNode = receiverNode;
        this.regionId = regionId;
        this.layout = layout;
        this.mirror = new UnsafeBuffer(new byte[layout.ringBytes()]);
        this.inFlight = new boolean[layout.t()];
        this.rewrite = new boolean[layout.t()];
        this.rewriteAttempts = new byte[layout.t()];
        this.abandonedSlot = new boolean[layout.t()];
        this.slotWriteBytes = new int[layout.t()];
        this.fillerPending = new boolean[layout.t()];
        this.staging = new StagingRing(stagingCapacity, layout.maxMessageBytes());
        this.lazyInFlight = layout.t() / 2;
    }

    /**
     * Starts this sender's indices at {@code firstIndex} instead of 0 (before its first message). A process that
     * restarts takes a first index above every index it sent before (e.g. from the wall clock), so the receiver, which
     * still expects the old stream's next index, sees a newer incarnation and jumps to it (§6.2) instead of waiting
     * for the old indices forever.
     *
     * <p>The receiver watches one slot only, the one of the index it expects, which the new stream's first message
     * rarely lands in: alone it would be heard only once the sender came round to that slot, up to t - 1 messages
     * later (a new client process's first requests then reached one replica only after several retransmissions, and
     * the others' request timeouts changed the view at every client start). So indices {@code firstIndex} to
     * {@code firstIndex + t - 2} are fillers ({@link TailChannelLayout#FLAG_FILLER}), posted with the first
     * {@link #flush}, and the first message gets {@code firstIndex + t - 1}: every slot then holds the new lap, the
     * receiver jumps to it from whatever slot it watches and steps over the fillers without delivering them.
     *
     * @throws IllegalStateException if a message was sent already
     */
    public void startAt(long firstIndex) {
        if (nextIndex != 0) {
            throw new IllegalStateException("the sender already sent messages");
        }
        if (firstIndex < 0 || firstIndex >= TailChannelLayout.MAX_INDEX / 2) {
            throw new IllegalArgumentException("first index " + firstIndex + " outside 0.." + TailChannelLayout.MAX_INDEX / 2);
        }
        final int t = layout.t();
        for (long index = firstIndex; index < firstIndex + t - 1; index++) {
            int slot = layout.slot(index);
            slotWriteBytes[slot] = layout.writeFiller(mirror, slot * layout.slotBytes(), index);
            fillerPending[slot] = true;
            fillersPending++;
        }
        nextIndex = firstIndex + t - 1;
    }

    /**
     * Sends {@code length} bytes of {@code src} from {@code offset} as the next message.
     *
     * @return the message's index
     * @throws IllegalArgumentException if the message is longer than the layout's maximum (a local error)
     */
    public long send(DirectBuffer src, int offset, int length) {
        if (length < 0 || length > layout.maxMessageBytes()) {
            throw new IllegalArgumentException("message of " + length + " bytes; at most " + layout.maxMessageBytes());
        }
        if (nextIndex >= TailChannelLayout.MAX_INDEX) {
            throw new IllegalStateException("channel exhausted its message indices");
        }
        long index = nextIndex++;
        if (staging.isEmpty() && canWrite(index)) {
            write(index, src, offset, length);
        } else if (staging.add(index, src, offset, length)) {
            evicted++; // §6.2: evict the oldest queued message to accommodate a newer one
        }
        flush();
        return index;
    }

    /** Takes the completion of one of this sender's WRITEs: frees its slot and forwards staged messages. */
    @Override
    public void onCompletion(long workRequestId, Status status) {
        long slot = CompletionRouter.sequenceOf(workRequestId);
        if (CompletionRouter.tagOf(workRequestId) != tag || slot >= inFlight.length || !inFlight[(int) slot]) {
            strayCompletions++;
            return;
        }
        inFlight[(int) slot] = false;
        inFlightCount--;
        switch (status) {
            case SUCCESS -> {
                written++;
                if (abandonedPending > 0) {
                    rearmAbandoned();
                }
            }
            case UNREACHABLE -> {
                // The receiver may have missed the message (the connection broke or the write timed out): write the
                // slot again, same index and incarnation, unless a newer message takes the slot first. Without this a
                // receiver would wait at that slot until lapped. ACCESS_DENIED is final and not retried.
                unreachable++;
                if (rewriteAttempts[(int) slot] < MAX_REWRITES) {
                    rewriteAttempts[(int) slot]++;
                    rewrite[(int) slot] = true;
                    rewritesPending++;
                } else {
                    abandoned++;
                    abandonedSlot[(int) slot] = true;
                    abandonedPending++;
                }
            }
            case ACCESS_DENIED -> denied++;
        }
        flush();
    }

    /**
     * Posts staged messages, oldest first, while their slots are free and the fabric takes more operations.
     * {@link #send} and {@link #onCompletion} call it; an owner sharing the fabric with others may call it
     * when room frees up.
     *
     * @return messages posted
     */
    public int flush() {
        int posted = 0;
        for (int slot = 0; fillersPending > 0 && slot < fillerPending.length; slot++) {
            if (fillerPending[slot] && !inFlight[slot] && fabric.outstanding() < fabric.maxOutstanding()) {
                fillerPending[slot] = false;
                fillersPending--;
                fillers++;
                post(slot, slotWriteBytes[slot]);
                posted++;
            }
        }
        while (!staging.isEmpty() && canWrite(staging.headIndex())) {
            write(staging.headIndex(), staging.payloads(), staging.headOffset(), staging.headLength());
            staging.removeHead();
            posted++;
        }
        for (int slot = 0; rewritesPending > 0 && slot < rewrite.length; slot++) {
            if (rewrite[slot] && !inFlight[slot] && fabric.outstanding() < fabric.maxOutstanding()) {
                rewrite[slot] = false;
                rewritesPending--;
                rewrites++;
                post(slot, slotWriteBytes[slot]);
                posted++;
            }
        }
        return posted;
    }

    /** A WRITE succeeded: the receiver is reachable again, so the abandoned slots are written again. */
    private void rearmAbandoned() {
        for (int slot = 0; slot < abandonedSlot.length; slot++) {
            if (abandonedSlot[slot]) {
                abandonedSlot[slot] = false;
                rewriteAttempts[slot] = 0;
                if (!rewrite[slot]) {
                    rewrite[slot] = true;
                    rewritesPending++;
                }
            }
        }
        abandonedPending = 0;
    }

    private boolean canWrite(long index) {
        return !inFlight[layout.slot(index)] && fabric.outstanding() < fabric.maxOutstanding();
    }

    private void write(long index, DirectBuffer src, int offset, int length) {
        int slot = layout.slot(index);
        int slotOffset = slot * layout.slotBytes();
        int bytes = layout.writeSlot(mirror, slotOffset, index, src, offset, length);
        if (rewrite[slot]) {
            rewrite[slot] = false; // a newer message supersedes the one to write again
            rewritesPending--;
            superseded++;
        }
        if (abandonedSlot[slot]) {
            abandonedSlot[slot] = false; // (the same: the abandoned message left the tail)
            abandonedPending--;
        }
        if (fillerPending[slot]) {
            fillerPending[slot] = false; // a message of the new lap moves the receiver as well as the filler would
            fillersPending--;
        }
        slotWriteBytes[slot] = bytes;
        rewriteAttempts[slot] = 0;
        post(slot, bytes);
    }

    private void post(int slot, int bytes) {
        int slotOffset = slot * layout.slotBytes();
        // §6.2: one WRITE of the whole slot (header and payload); the receiver's checksum catches torn ones. Nothing
        // waits for its completion but the slot's next message, t messages later: a lazy WRITE (the tcp fabric then
        // spares an answer frame per message), unless half the slots are in flight already.
        long id = CompletionRouter.compose(tag, slot);
        if (inFlightCount < lazyInFlight) {
            fabric.writeLazily(id, receiverNode, regionId, slotOffset, mirror, slotOffset, bytes);
        } else {
            fabric.write(id, receiverNode, regionId, slotOffset, mirror, slotOffset, bytes);
        }
        inFlight[slot] = true;
        inFlightCount++;
    }

    /** Messages whose WRITE ended UNREACHABLE and that a newer message replaced before they were written again. */
    public long superseded() {
        return superseded;
    }

    /** Messages given up after {@link #MAX_REWRITES} rewrites that all ended UNREACHABLE. */
    public long abandoned() {
        return abandoned;
    }

    /** Restart fillers posted ({@link #startAt}). */
    public long fillers() {
        return fillers;
    }

    /** Slot WRITEs posted again after ending UNREACHABLE. */
    public long rewrites() {
        return rewrites;
    }

    /** Index the next message will get (= messages sent so far). */
    public long nextIndex() {
        return nextIndex;
    }

    /** WRITEs posted and not yet completed. */
    public int inFlight() {
        return inFlightCount;
    }

    /** Messages waiting in the staging ring. */
    public int staged() {
        return staging.size();
    }

    /** True when nothing is in flight or staged. */
    public boolean isIdle() {
        return inFlightCount == 0 && staging.isEmpty() && rewritesPending == 0 && fillersPending == 0;
    }

    /** WRITEs that completed SUCCESS. */
    public long written() {
        return written;
    }

    /** WRITEs that ended UNREACHABLE (they may or may not have landed). */
    public long unreachableWrites() {
        return unreachable;
    }

    /** WRITEs the receiver's fabric refused (wrong region, size or permission: a set-up error or a Byzantine receiver). */
    public long deniedWrites() {
        return denied;
    }

    /** Messages evicted from the staging ring before they could be written. */
    public long evicted() {
        return evicted;
    }

    /** Completions under this tag that matched no WRITE in flight (ignored). */
    public long strayCompletions() {
        return strayCompletions;
    }

    public int tag() {
        return tag;
    }

    public TailChannelLayout layout() {
        return layout;
    }
}
