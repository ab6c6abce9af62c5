package org.ubft.consensus.replica;

import org.ubft.consensus.app.StateMachine;

import java.nio.ByteBuffer;

/** Test app: replies with the request reversed; its state is a count and an order-sensitive hash. */
final class ReverseApp implements StateMachine {
    long executed;
    long hash = 17;

    @Override
    public byte[] execute(byte[] request) {
        byte[] reply = new byte[request.length];
        for (int i = 0; i < request.length; i++) {
            reply[request.length - 1 - i] = request[i];
            hash = hash * 31 + request[i];
        }
        hash = hash * 31 + request.length;
        executed++;
        return reply;
    }

    @Override
    public byte[] snapshot() {
        return ByteBuffer.allocate(16).putLong(executed).putLong(hash).array();
    }

    @Override
    public void restore(byte[] snapshot) {
        if (snapshot.length != 16) {
            throw new IllegalArgumentException("not a snapshot");
        }
        ByteBuffer b = ByteBuffer.wrap(snapshot);
        executed = b.getLong();
        hash = b.getLong();
    }
}
