package org.ubft.consensus.replica;

import org.ubft.consensus.app.RequestContext;
import org.ubft.consensus.app.StateMachine;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/** Test app: replies with the request reversed; its state is a count and an order-sensitive hash. */
final class ReverseApp implements StateMachine {
    long executed;
    long hash = 17;
    /** The context of every request executed (replicated time, issue 22), in order, while {@link #keepContexts}. */
    final List<RequestContext> contexts = new ArrayList<>();
    /** Off by default: a long run (HeapGrowthTest) would hold every context. */
    boolean keepContexts;
    /** Zero bytes after the count and hash in every snapshot: a larger state to checkpoint. */
    private final int padding;

    ReverseApp() {
        this(0);
    }

    ReverseApp(int padding) {
        this.padding = padding;
    }

    @Override
    public byte[] execute(RequestContext context, byte[] request) {
        if (keepContexts) {
            contexts.add(new RequestContext(context.client(), context.number(), context.timeMillis())); // the replica reuses its instance
        }
        return execute(request);
    }

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
        return ByteBuffer.allocate(16 + padding).putLong(executed).putLong(hash).array();
    }

    @Override
    public void restore(byte[] snapshot) {
        if (snapshot.length != 16 + padding) {
            throw new IllegalArgumentException("not a snapshot");
        }
        ByteBuffer b = ByteBuffer.wrap(snapshot);
        executed = b.getLong();
        hash = b.getLong();
    }
}
