package org.ubft.apps.kv.gateway;

import org.ubft.consensus.client.UbftClient;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The replicated service as a gateway's backend: one {@link UbftClient} per session (each a client identity of the
 * cluster, with its own key). Requests are bounded by what the replicas accept, which may be less than what the
 * clients' links carry.
 */
public final class ClientBackend implements KvBackend {
    private final List<UbftClient> clients;
    private final int maxRequestBytes;

    /**
     * @param clients         connected clients, one per session; closed by {@link #close()}
     * @param replicaMaxBytes largest request the replicas accept
     */
    public ClientBackend(List<UbftClient> clients, int replicaMaxBytes) {
        if (clients.isEmpty()) {
            throw new IllegalArgumentException("a gateway needs at least one client session");
        }
        this.clients = List.copyOf(clients);
        int max = replicaMaxBytes;
        for (UbftClient c : clients) {
            max = Math.min(max, c.maxRequestBytes());
        }
        this.maxRequestBytes = max;
    }

    @Override
    public CompletableFuture<byte[]> invoke(int session, byte[] request) {
        return clients.get(session).invokeAsync(request);
    }

    @Override
    public int sessions() {
        return clients.size();
    }

    @Override
    public int maxRequestBytes() {
        return maxRequestBytes;
    }

    @Override
    public void close() {
        for (UbftClient c : clients) {
            c.close();
        }
    }
}
