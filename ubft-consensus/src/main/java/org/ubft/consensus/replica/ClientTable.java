package org.ubft.consensus.replica;

import org.agrona.DirectBuffer;
import org.ubft.consensus.wire.Reader;
import org.ubft.consensus.wire.Writer;

import java.util.Arrays;


/**
 * At-most-once execution (docs/design.md §9): per client, the number of its last executed request and the replies of its
 * last {@code depth} executed requests, cached so a retransmission is answered, not re-executed. A client may have up
 * to {@code depth} requests in flight (the replica keeps as many pending per client), so the reply of any of them
 * whose first copy was lost can still be sent again. Sized at construction (clients × depth × the largest reply).
 * Part of the checkpointed state, so a replica restored by state transfer keeps the guarantee. Numbers carry the
 * client's session ({@link org.ubft.consensus.wire.RequestNumbers}): an entry matches one number exactly, so a reply
 * of an earlier session is never taken for one of a later session with the same sequence.
 */
public final class ClientTable {
    private final int clients;
    private final int depth;
    private final int maxReplyBytes;
    private final long[] last;
    private final long[] entryNumber;
    private final int[] entryLength;
    private final byte[] replies;

    public ClientTable(int clients, int depth, int maxReplyBytes) {
        if (clients < 1 || depth < 1 || maxReplyBytes < 0) {
            throw new IllegalArgumentException("client table of " + clients + " clients, depth " + depth);
        }
        this.clients = clients;
        this.depth = depth;
        this.maxReplyBytes = maxReplyBytes;
        this.last = new long[clients];
        this.entryNumber = new long[Math.multiplyExact(clients, depth)];
        this.entryLength = new int[entryNumber.length];
        this.replies = new byte[Math.multiplyExact(entryNumber.length, maxReplyBytes)];
    }

    public int clients() {
        return clients;
    }

    /** Replies kept per client. */
    public int depth() {
        return depth;
    }

    /** Number of client {@code client}'s last executed request (0: none). */
    public long lastExecuted(int client) {
        return last[client];
    }

    /** Records the execution of request {@code number} of {@code client} and its reply (truncated to the bound). */
    /** Records the reply {@code reply[0, length)} of request {@code number} of {@code client}, at most maxReplyBytes of it. */
    public void record(int client, long number, org.agrona.DirectBuffer reply, int length) {
        last[client] = number;
        int e = entry(client, number);
        int kept = Math.min(length, maxReplyBytes);
        entryNumber[e] = number;
        entryLength[e] = kept;
        reply.getBytes(0, replies, e * maxReplyBytes, kept);
    }

    public void record(int client, long number, byte[] reply) {
        last[client] = number;
        int e = entry(client, number);
        int length = Math.min(reply.length, maxReplyBytes);
        entryNumber[e] = number;
        entryLength[e] = length;
        System.arraycopy(reply, 0, replies, e * maxReplyBytes, length);
    }

    /**
     * The cache entry holding the reply of request {@code number} of {@code client}, or -1 if it is not cached (never
     * executed, or more than {@code depth} requests ago). Its bytes: {@link #replies()} from {@link #replyOffset(int)},
     * {@link #replyLength(int)} long.
     */
    public int cached(int client, long number) {
        if (number < 1) {
            return -1;
        }
        int e = entry(client, number);
        return entryNumber[e] == number ? e : -1;
    }

    private int entry(int client, long number) {
        return client * depth + (int) Math.floorMod(number, (long) depth);
    }

    public int replyLength(int entry) {
        return entryLength[entry];
    }

    public byte[] replies() {
        return replies;
    }

    public int replyOffset(int entry) {
        return entry * maxReplyBytes;
    }

    /** Largest encoded size. */
    public int maxEncodedBytes() {
        return 8 + clients * 8 + entryNumber.length * (12 + maxReplyBytes);
    }

    /** Canonical encoding (part of the checkpointed state). */
    public void encode(Writer w) {
        w.i32(clients).i32(depth);
        for (int c = 0; c < clients; c++) {
            w.i64(last[c]);
        }
        for (int e = 0; e < entryNumber.length; e++) {
            w.i64(entryNumber[e]).i32(entryLength[e]).bytes(replies, e * maxReplyBytes, entryLength[e]);
        }
    }

    /** Restores from {@link #encode}; returns false (and leaves the table unchanged) if the bytes are not one. */
    public boolean restore(DirectBuffer buffer, int offset, int length, Reader r) {
        r.wrap(buffer, offset, length);
        if (r.i32() != clients || r.i32() != depth) {
            return false;
        }
        long[] newLast = new long[clients];
        long[] newNumber = new long[entryNumber.length];
        int[] newLength = new int[entryNumber.length];
        byte[] newReplies = new byte[replies.length];
        for (int c = 0; c < clients; c++) {
            newLast[c] = r.i64();
            if (newLast[c] < 0) {
                return false;
            }
        }
        for (int e = 0; e < entryNumber.length; e++) {
            newNumber[e] = r.i64();
            newLength[e] = r.i32();
            int client = e / depth;
            if (r.bad() || newNumber[e] < 0 || newNumber[e] > newLast[client] || newLength[e] < 0
                || newLength[e] > maxReplyBytes
                || (newNumber[e] > 0 && entry(client, newNumber[e]) != e)) {
                return false;
            }
            r.bytes(newReplies, e * maxReplyBytes, newLength[e]);
        }
        if (!r.complete()) {
            return false;
        }
        System.arraycopy(newLast, 0, last, 0, clients);
        System.arraycopy(newNumber, 0, entryNumber, 0, entryNumber.length);
        System.arraycopy(newLength, 0, entryLength, 0, entryLength.length);
        System.arraycopy(newReplies, 0, replies, 0, replies.length);
        return true;
    }

    @Override
    public String toString() {
        return "ClientTable[clients=" + clients + ", depth=" + depth + ", last=" + Arrays.toString(
            Arrays.copyOf(last, Math.min(clients, 8))) + "]";
    }
}
