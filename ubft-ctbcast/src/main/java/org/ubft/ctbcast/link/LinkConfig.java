package org.ubft.ctbcast.link;

import org.ubft.ctbcast.channel.TailChannelLayout;
import org.ubft.fabric.CompletionRouter;
import org.ubft.fabric.Fabric;

/**
 * Sizes and timings of a {@link PeerLinks}; everything it allocates follows from them.
 *
 * @param channelSlots     t of each tail channel: slots of the ring a peer writes (paper §6.2)
 * @param stagingCapacity  messages a channel sender queues while their slot's WRITE is in flight
 *                         (the oldest is evicted beyond that)
 * @param loopbackCapacity messages to itself waiting for the next poll (the oldest is evicted beyond that)
 * @param maxPayloadBytes  largest payload of one stream message
 * @param maxStreams       most streams sharing the links (each may put one ack entry in an envelope)
 * @param maxWindow        largest delivery window (TBcast: 2t) of a stream; bounds an ack's bitmap
 * @param ackDelayNanos    how long a pending acknowledgement waits for a message to ride on before it
 *                         goes alone in an ACK envelope
 * @param tagBase          {@link CompletionRouter} tags {@code tagBase .. tagBase + n - 1} go to the
 *                         channel senders (one per member; the own one stays unused)
 * @param pollLimit        most messages taken from one channel (and from the loopback) per duty cycle
 */
public record LinkConfig(int channelSlots, int stagingCapacity, int loopbackCapacity, int maxPayloadBytes,
                         int maxStreams, int maxWindow, long ackDelayNanos, int tagBase, int pollLimit) {

    public LinkConfig {
        positive("channelSlots", channelSlots);
        positive("stagingCapacity", stagingCapacity);
        positive("loopbackCapacity", loopbackCapacity);
        positive("maxPayloadBytes", maxPayloadBytes);
        positive("pollLimit", pollLimit);
        positive("maxWindow", maxWindow);
        if (maxStreams <= 0 || maxStreams > Envelope.MAX_ACK_COUNT) {
            throw new IllegalArgumentException("maxStreams " + maxStreams + " outside 1.." + Envelope.MAX_ACK_COUNT);
        }
        if (ackDelayNanos < 0) {
            throw new IllegalArgumentException("ackDelayNanos must not be negative, got " + ackDelayNanos);
        }
        if (tagBase < 0 || tagBase > CompletionRouter.MAX_TAG) {
            throw new IllegalArgumentException("tagBase " + tagBase + " outside 0.." + CompletionRouter.MAX_TAG);
        }
        long envelope = Envelope.HEADER_BYTES
            + (long) maxStreams * Envelope.ackEntryBytes(ackWords(maxWindow)) + maxPayloadBytes;
        if (envelope > Fabric.MAX_OPERATION_BYTES - TailChannelLayout.HEADER_BYTES) {
            throw new IllegalArgumentException("an envelope of " + envelope + " bytes does not fit a channel slot");
        }
    }

    /**
     * Defaults for streams of tail {@code t} (window 2t): channels of t slots, staging and loopback of 4t
     * messages, standalone acknowledgements after 1 ms, tags from 16, 4 streams.
     *
     * <p>An acknowledgement only stops retransmissions (whose timeout adapts to it, {@code Tbcast}), so it can wait
     * for a message to ride on: with a 20 µs delay nearly every one went alone (on tcp loopback, 3 to 5 envelopes
     * per request and replica), with 1 ms most ride on the next messages (0.6 per request; 2 writes and 2 reads
     * per request and replica fewer, measured with {@code perf stat} on {@code ubft local --fabric tcp}).
     */
    public static LinkConfig defaults(int t, int maxPayloadBytes) {
        return new LinkConfig(t, 4 * t, 4 * t, maxPayloadBytes, 4, 2 * t, 1_000_000, 16, 4 * t);
    }

    public LinkConfig withAckDelayNanos(long nanos) {
        return new LinkConfig(channelSlots, stagingCapacity, loopbackCapacity, maxPayloadBytes, maxStreams, maxWindow,
            nanos, tagBase, pollLimit);
    }

    public LinkConfig withTagBase(int base) {
        return new LinkConfig(channelSlots, stagingCapacity, loopbackCapacity, maxPayloadBytes, maxStreams, maxWindow,
            ackDelayNanos, base, pollLimit);
    }

    public LinkConfig withMaxStreams(int streams) {
        return new LinkConfig(channelSlots, stagingCapacity, loopbackCapacity, maxPayloadBytes, streams, maxWindow,
            ackDelayNanos, tagBase, pollLimit);
    }

    public LinkConfig withStagingCapacity(int capacity) {
        return new LinkConfig(channelSlots, capacity, loopbackCapacity, maxPayloadBytes, maxStreams, maxWindow,
            ackDelayNanos, tagBase, pollLimit);
    }

    /** Bitmap words of an ack entry for a window of {@code window} indices (the base is never a bit). */
    public static int ackWords(int window) {
        return (window - 1 + 63) / 64;
    }

    /** Largest bitmap of an ack entry. */
    public int maxAckWords() {
        return ackWords(maxWindow);
    }

    /** Largest envelope, the channels' maximum message size. */
    public int maxEnvelopeBytes() {
        return Envelope.maxBytes(maxStreams, maxAckWords(), maxPayloadBytes);
    }

    private static void positive(String name, int value) {
        if (value <= 0) {
            throw new IllegalArgumentException(name + " must be positive, got " + value);
        }
    }
}
