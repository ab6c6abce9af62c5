package org.ubft.ctbcast.link;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * A point-to-point stream on {@link PeerLinks}: each message goes to one member, once, with the tail channel's
 * guarantees only (FIFO among the last t messages of the channel, no acknowledgement, no retransmission), and is
 * handed up as raw bytes. For protocol messages that repair themselves (the consensus core's direct messages).
 * Single-threaded, like the links; allocates nothing.
 */
public final class DirectStream implements LinkStream {
    /** Receives the messages of the stream. */
    @FunctionalInterface
    public interface Handler {
        /** A message from member {@code from}; the buffer is valid only during the call. */
        void onMessage(int from, DirectBuffer buffer, int offset, int length);
    }

    private final PeerLinks links;
    private final int streamId;
    private final Handler handler;
    private long sent;
    private long received;

    /** Creates the stream and registers it on {@code links}. */
    public DirectStream(PeerLinks links, int streamId, Handler handler) {
        this.links = links;
        this.streamId = streamId;
        this.handler = handler;
        links.register(this);
    }

    /**
     * Sends {@code length} bytes to member {@code to} (this member included, through the loopback).
     *
     * @throws IllegalArgumentException if the message is larger than the links carry or {@code to} is out of range
     */
    public void send(int to, DirectBuffer src, int offset, int length) {
        links.send(to, streamId, 0, sent++, src, offset, length);
    }

    @Override
    public int streamId() {
        return streamId;
    }

    @Override
    public int maxAckWords() {
        return 0;
    }

    @Override
    public void onData(int from, long index, int flags, long settledBelow, DirectBuffer buffer, int offset,
                       int length) {
        received++;
        handler.onMessage(from, buffer, offset, length);
    }

    @Override
    public void onAck(int from, long base, DirectBuffer buffer, int bitmapOffset, int words) {
        // never asked for: an ack entry for this stream is the peer's noise, and carries nothing
    }

    @Override
    public boolean hasAck(int to) {
        return false;
    }

    @Override
    public int writeAck(int to, MutableDirectBuffer dst, int entryOffset) {
        return 0;
    }

    @Override
    public int doWork(long nowNanos) {
        return 0;
    }

    /** Messages sent. */
    public long sent() {
        return sent;
    }

    /** Messages received. */
    public long received() {
        return received;
    }
}
