package org.ubft.consensus.replica;

import org.agrona.DirectBuffer;
import org.ubft.consensus.wire.ClientWire;

/**
 * The framing of a batch, checked against the config: u16 count, i64 replicated time (milliseconds since the epoch,
 * the leader's timestamp, docs/design.md "Replicated time"), then that many client requests, nothing after. The empty
 * batch (⊥) is canonical: count 0 and time 0, ten zero bytes.
 */
final class BatchFormat {
    /** Bytes before the first request: the count and the time. */
    static final int HEADER = 2 + 8;
    /** Where the time is. */
    static final int TIME_OFFSET = 2;

    private BatchFormat() {
    }

    /** Whether {@code buffer[at..at+length)} is a well-formed batch of at most the configured requests and clients. */
    static boolean valid(ReplicaConfig config, DirectBuffer buffer, int at, int length) {
        if (length < HEADER) {
            return false;
        }
        int count = buffer.getShort(at, ClientWire.ORDER) & 0xFFFF;
        if (count > config.maxBatchRequests()) {
            return false;
        }
        long time = time(buffer, at);
        if (count == 0 ? time != 0 : time < 0) {
            return false; // ⊥ carries no time; a batch's time is not before the epoch
        }
        int pos = at + HEADER;
        int end = at + length;
        for (int r = 0; r < count; r++) {
            int len = ClientWire.requestLength(buffer, pos, end - pos, config.maxRequestBytes());
            if (len < 0 || ClientWire.client(buffer, pos) >= config.clients()) {
                return false;
            }
            pos += len;
        }
        return pos == end;
    }

    /** The time of the batch at {@code at}. */
    static long time(DirectBuffer buffer, int at) {
        return buffer.getLong(at + TIME_OFFSET, ClientWire.ORDER);
    }

    /** The number of requests of the batch at {@code at}. */
    static int count(DirectBuffer buffer, int at) {
        return buffer.getShort(at, ClientWire.ORDER) & 0xFFFF;
    }
}
