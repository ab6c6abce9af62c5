package org.ubft.cli;

import org.ubft.apps.kv.gateway.ClientBackend;
import org.ubft.apps.kv.gateway.Gateway;
import org.ubft.apps.kv.gateway.GatewayOptions;
import org.ubft.common.config.ClusterConfig;
import org.ubft.common.config.IdleStrategies;
import org.ubft.consensus.client.ClientOptions;
import org.ubft.consensus.client.UbftClient;
import org.ubft.consensus.replica.ReplicaConfig;
import org.ubft.consensus.runtime.ReplicaNode;

import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/** Connects a gateway's client sessions, starts it, prints where to point clients, and runs until stopped. */
public final class KvGatewayRunner {
    private KvGatewayRunner() {
    }

    /**
     * Connects clients {@code ids} of {@code cluster} (one session each) and starts a gateway on {@code listen}.
     * The caller closes the gateway, then the backend.
     */
    public static Started start(ClusterConfig cluster, List<Integer> ids, boolean unreplicated, GatewayOptions options,
                         InetSocketAddress listen) {
        ClientOptions client = (unreplicated ? ClientOptions.unreplicated() : ClientOptions.defaults())
            .withMaxInFlight(org.ubft.consensus.wire.ClientWire.MAX_IN_FLIGHT)
            // one client: idle as the cluster's processes do; several: each has its own thread, so they back off
            .withIdleStrategy(ids.size() == 1 ? cluster::newIdleStrategy : () -> IdleStrategies.of("backoff"))
            .withQueueCapacity(Math.max(1024, 2 * options.maxConnections()));
        List<UbftClient> clients = new ArrayList<>();
        try {
            for (int id : ids) {
                clients.add(UbftClient.connect(cluster, id, client));
            }
            int replicaMax = ReplicaNode.replicaConfig(cluster, ReplicaConfig.Path.FAST).maxRequestBytes();
            ClientBackend backend = new ClientBackend(clients, replicaMax);
            return new Started(Gateway.start(options, backend, listen), backend);
        } catch (RuntimeException e) {
            clients.forEach(UbftClient::close);
            throw e;
        }
    }

    /** A running gateway and its backend. */
    public record Started(Gateway gateway, ClientBackend backend) implements AutoCloseable {
        @Override
        public void close() {
            gateway.close();
            backend.close();
        }
    }

    /** The line that tells the user where to point a client. */
    static String readyLine(Gateway g, String sessions) {
        InetSocketAddress a = g.address();
        String host = a.getAddress().isAnyLocalAddress() ? "127.0.0.1" : a.getHostString();
        boolean redis = g.options().protocol() == GatewayOptions.Protocol.REDIS;
        return "gateway ready: protocol=" + (redis ? "redis" : "memcached") + " listen=" + host + ":" + a.getPort()
            + " sessions=" + sessions + "; point a client at it: "
            + (redis ? "redis-cli -h " + host + " -p " + a.getPort()
                : "memcstat --servers=" + host + ":" + a.getPort() + " (or: telnet " + host + " " + a.getPort() + ")");
    }

    /** Waits for SIGTERM or SIGINT. */
    static void awaitSignal() throws InterruptedException {
        CountDownLatch stop = new CountDownLatch(1);
        sun.misc.Signal.handle(new sun.misc.Signal("TERM"), s -> stop.countDown());
        sun.misc.Signal.handle(new sun.misc.Signal("INT"), s -> stop.countDown());
        stop.await();
    }

    static void printCounters(PrintWriter out, Gateway g) {
        out.println(g.countersLine());
        out.flush();
    }
}
