package org.ubft.apps.flip;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.ubft.consensus.app.RequestContext;
import org.ubft.consensus.app.StateMachine;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Flip, the latency probe of the uBFT paper (§7): replies to each request with its bytes in reverse order. Its state
 * is the number of requests executed and an order-sensitive running hash of them, so replicas that executed different
 * requests (or the same ones in another order) have different digests.
 */
public final class Flip implements StateMachine {
    private static final int SNAPSHOT_BYTES = 16;
    private static final long PRIME = 0x100000001B3L;

    private long executed;
    private long hash = 0xCBF29CE484222325L;

    @Override
    public byte[] execute(byte[] request) {
        byte[] reply = new byte[request.length];
        long h = hash;
        for (int i = 0; i < request.length; i++) {
            reply[request.length - 1 - i] = request[i];
            h = (h ^ (request[i] & 0xFF)) * PRIME;
        }
        hash = (h ^ request.length) * PRIME;
        executed++;
        return reply;
    }

    /** The same as {@link #execute(byte[])}, in the buffers: nothing allocated. */
    @Override
    public int execute(RequestContext context, DirectBuffer request, int offset, int length,
                       MutableDirectBuffer reply) {
        int kept = Math.min(length, reply.capacity()); // what the default keeps of a longer reply
        long h = hash;
        for (int i = 0; i < length; i++) {
            byte b = request.getByte(offset + i);
            int at = length - 1 - i;
            if (at < kept) {
                reply.putByte(at, b);
            }
            h = (h ^ (b & 0xFF)) * PRIME;
        }
        hash = (h ^ length) * PRIME;
        executed++;
        return kept;
    }

    @Override
    public byte[] snapshot() {
        return ByteBuffer.allocate(SNAPSHOT_BYTES).order(ByteOrder.LITTLE_ENDIAN).putLong(executed).putLong(hash).array();
    }

    @Override
    public void restore(byte[] snapshot) {
        if (snapshot.length != SNAPSHOT_BYTES) {
            throw new IllegalArgumentException("a Flip snapshot has " + SNAPSHOT_BYTES + " bytes, not " + snapshot.length);
        }
        ByteBuffer b = ByteBuffer.wrap(snapshot).order(ByteOrder.LITTLE_ENDIAN);
        executed = b.getLong();
        hash = b.getLong();
    }

    /** Requests executed so far. */
    public long executed() {
        return executed;
    }
}
