package org.ubft.ctbcast.link;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * A protocol stream multiplexed on {@link PeerLinks} (a TBcast instance, later direct consensus
 * messages). {@link PeerLinks} calls these methods from its duty cycle, on its thread, with envelopes
 * that passed {@link Envelope#validate}; everything else in them (indices, ack contents) is the
 * sender's word and the stream must check it. Members are named by their position 0..n-1.
 */
public interface LinkStream {
    /** This stream's id on the wire, 0..{@link Envelope#MAX_STREAM_ID}. */
    int streamId();

    /** Largest ack bitmap, in 64-bit words, this stream writes (0 if it never acknowledges). */
    int maxAckWords();

    /**
     * A DATA envelope of this stream from member {@code from}.
     *
     * @param settledBelow the sender's claim that nothing below it on this stream is still to come to this member
     *                     ({@link Envelope#settledBelow()}; 0: none)
     * @param buffer       holds the payload; valid only during the call
     */
    void onData(int from, long index, int flags, long settledBelow, DirectBuffer buffer, int offset, int length);

    /**
     * An ack entry for this stream from member {@code from}: {@code words} little-endian bitmap words
     * at {@code bitmapOffset} of {@code buffer}, valid only during the call (see {@link Envelope}).
     */
    void onAck(int from, long base, DirectBuffer buffer, int bitmapOffset, int words);

    /**
     * Whether this stream has acknowledgement state for member {@code to} (it received something from it).
     * {@link PeerLinks} then puts this stream's ack entry on every envelope to {@code to}, so a lost
     * acknowledgement is repaired by the next envelope that arrives.
     */
    boolean hasAck(int to);

    /**
     * Writes this stream's current ack entry for member {@code to} at {@code entryOffset} of {@code dst}
     * (room for {@link Envelope#ackEntryBytes(int) ackEntryBytes(maxAckWords())} is guaranteed).
     *
     * @return the entry's size
     */
    int writeAck(int to, MutableDirectBuffer dst, int entryOffset);

    /** Timers (retransmissions); {@code nowNanos} is the links' clock. @return work done */
    int doWork(long nowNanos);
}
