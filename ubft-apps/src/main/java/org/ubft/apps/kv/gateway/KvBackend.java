package org.ubft.apps.kv.gateway;

import java.util.concurrent.CompletableFuture;

/** Where a gateway sends its requests: the replicated service (sessions of {@code UbftClient}s) or, in tests, a local machine. */
public interface KvBackend extends AutoCloseable {
    /**
     * Sends {@code request} on session {@code session} (0 .. {@link #sessions()} - 1); the future completes with the
     * service's reply, possibly on another thread (callbacks must not block), or fails.
     */
    CompletableFuture<byte[]> invoke(int session, byte[] request);

    /** Sessions (client identities) requests may use. */
    int sessions();

    /** Largest request the service accepts, in bytes. */
    int maxRequestBytes();

    @Override
    default void close() {
    }
}
