package org.ubft.apps.kv.gateway;

import org.ubft.apps.kv.machine.KvMachine;

import java.util.concurrent.CompletableFuture;

/**
 * A backend that runs requests on one {@link KvMachine} in this process, unreplicated (tests, and a way to try the
 * gateways without a cluster). Requests run one at a time, in the order they come; requests and replies are bounded
 * as a cluster bounds them, so large values travel in pieces just as they would.
 */
public final class DirectBackend implements KvBackend {
    private final KvMachine machine;
    private final int maxRequestBytes;
    private final int sessions;

    public DirectBackend(KvMachine machine, int maxRequestBytes, int sessions) {
        this.machine = machine;
        this.maxRequestBytes = maxRequestBytes;
        this.sessions = sessions;
    }

    @Override
    public CompletableFuture<byte[]> invoke(int session, byte[] request) {
        if (request.length > maxRequestBytes) {
            return CompletableFuture.failedFuture(new IllegalArgumentException("request of " + request.length
                + " bytes; at most " + maxRequestBytes));
        }
        byte[] reply;
        synchronized (machine) {
            // unreplicated: this process's clock is the store's time (never back: the store keeps the largest)
            reply = machine.execute(new org.ubft.consensus.app.RequestContext(session, 0, System.currentTimeMillis()),
                request);
        }
        if (reply.length > machine.config().maxReplyBytes()) {
            return CompletableFuture.failedFuture(new IllegalStateException("reply of " + reply.length
                + " bytes; at most " + machine.config().maxReplyBytes()));
        }
        return CompletableFuture.completedFuture(reply);
    }

    @Override
    public int sessions() {
        return sessions;
    }

    @Override
    public int maxRequestBytes() {
        return maxRequestBytes;
    }
}
