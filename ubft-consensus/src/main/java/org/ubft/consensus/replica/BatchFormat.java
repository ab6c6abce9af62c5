package org.ubft.consensus.replica;

import org.agrona.DirectBuffer;
import org.ubft.consensus.wire.ClientWire;

/** The framing of a batch (u16 count, then that many client requests, nothing after), checked against the config. */
final class BatchFormat {
    private BatchFormat() {
    }

    /** Whether {@code buffer[at..at+length)} is a well-formed batch of at most the configured requests and clients. */
    static boolean valid(ReplicaConfig config, DirectBuffer buffer, int at, int length) {
        if (length < 2) {
            return false;
        }
        int count = buffer.getShort(at, ClientWire.ORDER) & 0xFFFF;
        if (count > config.maxBatchRequests()) {
            return false;
        }
        int pos = at + 2;
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
}
