package org.ubft.consensus.runtime;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.common.NodeId;
import org.ubft.common.config.ClusterConfig;
import org.ubft.consensus.app.StateMachine;
import org.ubft.consensus.client.ClientLinks;
import org.ubft.consensus.wire.ClientWire;
import org.ubft.fabric.CompletionRouter;
import org.ubft.fabric.Fabric;
import org.ubft.fabric.Fabrics;
import org.ubft.ctbcast.link.LinkConfig;

/**
 * The baseline without replication: one {@link StateMachine} behind {@link ClientLinks#forReplica} as replica 0,
 * replying to each request directly (a client with {@code ClientOptions.unreplicated()} talks to it). It keeps the
 * replicas' client contract: a client's requests are executed at most once, in number order, and a retransmitted
 * request gets the cached reply again. Malformed requests, requests of unknown clients and old request numbers are
 * dropped and counted. Single-threaded: {@link #doWork()} (or the node as an {@link Agent}) on one thread.
 */
public final class UnreplicatedServer implements Agent, AutoCloseable {
    private final Fabric fabric;
    private final boolean ownsFabric;
    private final StateMachine app;
    private final ClientLinks links;
    private final int clients;
    private final int maxPayload;
    private final int maxReply;
    private final long[] lastNumber;
    private final byte[][] lastReply;
    private final UnsafeBuffer out;
    private final UnsafeBuffer wrap = new UnsafeBuffer(0, 0);
    private long executed;
    private long retransmitted;
    private long dropped;
    private boolean closed;

    /** Opens replica 0's fabric of {@code cluster} and serves its clients. */
    public static UnreplicatedServer open(ClusterConfig cluster, StateMachine app, NanoClock clock) {
        Fabric fabric = Fabrics.open(cluster, NodeId.replica(0));
        try {
            return new UnreplicatedServer(fabric, true, cluster, app, clock);
        } catch (RuntimeException e) {
            fabric.close();
            throw e;
        }
    }

    /** Serves on {@code fabric} (replica 0's), which stays the caller's. */
    public UnreplicatedServer(Fabric fabric, ClusterConfig cluster, StateMachine app, NanoClock clock) {
        this(fabric, false, cluster, app, clock);
    }

    private UnreplicatedServer(Fabric fabric, boolean ownsFabric, ClusterConfig cluster, StateMachine app,
                               NanoClock clock) {
        this.fabric = fabric;
        this.ownsFabric = ownsFabric;
        this.app = app;
        this.clients = cluster.clientCount();
        LinkConfig config = ClientLinks.defaultConfig(cluster);
        this.maxPayload = ClientLinks.maxRequestPayload(config.maxPayloadBytes());
        this.maxReply = ClientLinks.maxReplyBody(config.maxPayloadBytes());
        this.lastNumber = new long[clients];
        this.lastReply = new byte[clients][];
        this.out = new UnsafeBuffer(new byte[config.maxPayloadBytes()]);
        CompletionRouter router = new CompletionRouter(fabric, clients + 4);
        this.links = ClientLinks.forReplica(router, clock, 0, clients, config, this::onRequest);
    }

    private void onRequest(int client, DirectBuffer buffer, int offset, int length) {
        int encoded = ClientWire.requestLength(buffer, offset, length, maxPayload);
        if (encoded < 0 || client < 0 || client >= clients || ClientWire.client(buffer, offset) != client) {
            dropped++;
            return;
        }
        long number = ClientWire.number(buffer, offset);
        if (number == lastNumber[client] && lastReply[client] != null) {
            retransmitted++;
            reply(client, number, lastReply[client]);
            return;
        }
        if (number <= lastNumber[client]) {
            dropped++;
            return;
        }
        byte[] request = new byte[ClientWire.bodyLength(buffer, offset)];
        buffer.getBytes(offset + ClientWire.HEADER_BYTES, request);
        // unreplicated: this process's clock is the time (the application keeps it from going back)
        byte[] result = app.execute(new org.ubft.consensus.app.RequestContext(client, number,
            System.currentTimeMillis()), request);
        if (result.length > maxReply) {
            throw new IllegalStateException("the application replied with " + result.length
                + " bytes; client links carry at most " + maxReply + " (channel.max.message.bytes)");
        }
        executed++;
        lastNumber[client] = number;
        lastReply[client] = result;
        reply(client, number, result);
    }

    private void reply(int client, long number, byte[] result) {
        wrap.wrap(result);
        int length = ClientWire.putReply(out, 0, 0, client, number, wrap, 0, result.length);
        links.send(client, out, 0, length);
    }

    @Override
    public int doWork() {
        return links.doWork();
    }

    /** The idle strategy for the thread that runs this server ({@link Fabric#pollerIdleStrategy}). */
    public IdleStrategy idleStrategy(IdleStrategy configured) {
        return fabric.pollerIdleStrategy(configured);
    }

    @Override
    public String roleName() {
        return "unreplicated-server";
    }

    /** The one line the server logs when it is ready to serve. */
    public String readyLine() {
        return "server ready: unreplicated, " + NodeId.toString(fabric.localNode()) + ", " + clients + " clients";
    }

    /** Counters, one parseable line. */
    public String countersLine() {
        return "server counters: executed=" + executed + " retransmitted=" + retransmitted + " dropped=" + dropped
            + " link_malformed=" + links.malformed();
    }

    public long executed() {
        return executed;
    }

    public long dropped() {
        return dropped;
    }

    @Override
    public void onClose() {
        close();
    }

    @Override
    public void close() {
        if (!closed && ownsFabric) {
            closed = true;
            fabric.close();
        }
    }
}
