package org.ubft.consensus.replica;

import org.agrona.DirectBuffer;
import org.ubft.consensus.wire.Reader;
import org.ubft.consensus.wire.Writer;


/**
 * At-most-once execution (DESIGN.md §9): per client, the number of its last executed request and that request's reply,
 * cached so a retransmission is answered, not re-executed. One entry per configured client, sized at construction.
 * Part of the checkpointed state, so a replica restored by state transfer keeps the guarantee.
 */
public final class ClientTable {
    private final int clients;
    private final int maxReplyBytes;
    private final long[] last;
    private final int[] replyLength;
    private final byte[] replies;

    public ClientTable(int clients, int maxReplyBytes) {
        this.clients = clients;
        this.maxReplyBytes = maxReplyBytes;
        this.last = new long[clients];
        this.replyLength = new int[clients];
        this.replies = new byte[Math.multiplyExact(clients, maxReplyBytes)];
    }

    public int clients() {
        return clients;
    }

    /** Number of client {@code client}'s last executed request (0: none). */
    public long lastExecuted(int client) {
        return last[client];
    }

    /** Records the execution of request {@code number} of {@code client} and its reply (truncated to the bound). */
    public void record(int client, long number, byte[] reply) {
        last[client] = number;
        int length = Math.min(reply.length, maxReplyBytes);
        replyLength[client] = length;
        System.arraycopy(reply, 0, replies, client * maxReplyBytes, length);
    }

    public int replyLength(int client) {
        return replyLength[client];
    }

    /** The reply bytes of {@code client} as a view: buffer {@code replies()} from {@code replyOffset(client)}. */
    public byte[] replies() {
        return replies;
    }

    public int replyOffset(int client) {
        return client * maxReplyBytes;
    }

    /** Largest encoded size. */
    public int maxEncodedBytes() {
        return 4 + clients * (12 + maxReplyBytes);
    }

    /** Canonical encoding (part of the checkpointed state). */
    public void encode(Writer w) {
        w.i32(clients);
        for (int c = 0; c < clients; c++) {
            w.i64(last[c]).i32(replyLength[c]).bytes(replies, c * maxReplyBytes, replyLength[c]);
        }
    }

    /** Restores from {@link #encode}; returns false (and leaves the table unchanged) if the bytes are not one. */
    public boolean restore(DirectBuffer buffer, int offset, int length, Reader r) {
        r.wrap(buffer, offset, length);
        if (r.i32() != clients) {
            return false;
        }
        long[] newLast = new long[clients];
        int[] newLength = new int[clients];
        byte[] newReplies = new byte[replies.length];
        for (int c = 0; c < clients; c++) {
            newLast[c] = r.i64();
            newLength[c] = r.i32();
            if (newLast[c] < 0 || newLength[c] < 0 || newLength[c] > maxReplyBytes) {
                return false;
            }
            r.bytes(newReplies, c * maxReplyBytes, newLength[c]);
        }
        if (!r.complete()) {
            return false;
        }
        System.arraycopy(newLast, 0, last, 0, clients);
        System.arraycopy(newLength, 0, replyLength, 0, clients);
        System.arraycopy(newReplies, 0, replies, 0, replies.length);
        return true;
    }
}
