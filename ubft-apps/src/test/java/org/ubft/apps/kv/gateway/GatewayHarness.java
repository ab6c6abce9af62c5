package org.ubft.apps.kv.gateway;

import org.ubft.apps.kv.machine.KvMachine;
import org.ubft.apps.kv.store.StoreLimits;

import java.net.InetSocketAddress;

/**
 * A gateway on a free loopback port over an in-process {@link KvMachine} ({@link DirectBackend}) bounded like a
 * default cluster: requests and replies of at most 1024 bytes, so large values travel in pieces as they would.
 */
final class GatewayHarness implements AutoCloseable {
    static final int CLUSTER_BYTES = 1024;
    final KvMachine machine;
    final Gateway gateway;

    GatewayHarness(GatewayOptions options) {
        this(options, StoreLimits.defaults());
    }

    GatewayHarness(GatewayOptions options, StoreLimits limits) {
        machine = new KvMachine(KvMachine.Config.defaults(limits, CLUSTER_BYTES));
        gateway = Gateway.start(options, new DirectBackend(machine, CLUSTER_BYTES, 2),
            new InetSocketAddress("127.0.0.1", 0));
    }

    int port() {
        return gateway.address().getPort();
    }

    @Override
    public void close() {
        gateway.close();
    }
}
