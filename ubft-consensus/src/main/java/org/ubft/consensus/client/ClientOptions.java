package org.ubft.consensus.client;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.ubft.common.config.IdleStrategies;
import org.ubft.ctbcast.link.LinkConfig;

import java.time.Duration;
import java.util.function.Supplier;

/**
 * Options of a {@link UbftClient}; {@link #defaults()} and the {@code withX} methods make them.
 *
 * @param servers           replicas the requests go to ({@code 0 .. servers - 1}); 0 = every replica of the cluster (n)
 * @param quorum            identical replies that accept a reply; 0 = f + 1 of the cluster (capped at servers)
 * @param maxInFlight       most requests outstanding at once; more wait in the client, in submission order
 * @param retransmitInitial time before a request is first retransmitted (signed)
 * @param retransmitMax     bound of the doubling retransmission timeout
 * @param invokeTimeout     time a request may take, queueing included, before its future fails
 * @param queueCapacity     requests handed to the client's thread and not yet taken (beyond that, invokeAsync fails)
 * @param idleStrategy      makes the idle strategy of the client's thread
 * @param links             link sizes shared with the replicas; {@code null} = {@link ClientLinks#defaultConfig}
 */
public record ClientOptions(int servers, int quorum, int maxInFlight, Duration retransmitInitial,
                            Duration retransmitMax, Duration invokeTimeout, int queueCapacity,
                            Supplier<IdleStrategy> idleStrategy, LinkConfig links) {

    public ClientOptions {
        if (servers < 0 || quorum < 0 || (servers > 0 && quorum > servers)) {
            throw new IllegalArgumentException("servers " + servers + " and quorum " + quorum
                + " must not be negative, and quorum at most servers");
        }
        if (maxInFlight <= 0 || queueCapacity <= 0) {
            throw new IllegalArgumentException("maxInFlight (" + maxInFlight + ") and queueCapacity (" + queueCapacity
                + ") must be positive");
        }
        if (maxInFlight > org.ubft.consensus.wire.ClientWire.MAX_IN_FLIGHT) {
            throw new IllegalArgumentException("maxInFlight " + maxInFlight + " is more than replicas keep per client ("
                + org.ubft.consensus.wire.ClientWire.MAX_IN_FLIGHT + "): requests beyond would be dropped and their"
                + " replies could not be sent again; use at most " + org.ubft.consensus.wire.ClientWire.MAX_IN_FLIGHT);
        }
        if (retransmitInitial.isNegative() || retransmitInitial.isZero() || retransmitMax.compareTo(retransmitInitial) < 0
            || invokeTimeout.isNegative() || invokeTimeout.isZero()) {
            throw new IllegalArgumentException("need 0 < retransmitInitial <= retransmitMax and a positive invokeTimeout");
        }
        if (idleStrategy == null) {
            throw new IllegalArgumentException("null idle strategy supplier");
        }
    }

    /**
     * Every replica, quorum f + 1, 16 requests in flight, first retransmission after 1 ms until round trips are
     * measured, then after their smoothed value plus 4 deviations ({@link ClientCore#retransmissionTimeoutNanos()}),
     * at most every 100 ms,
     * 10 s per invocation, a queue of 1024, {@link BackoffIdleStrategy} (the cluster file's {@code backoff}
     * parameters), the cluster's default link sizes.
     */
    public static ClientOptions defaults() {
        return new ClientOptions(0, 0, 16, Duration.ofMillis(1), Duration.ofMillis(100), Duration.ofSeconds(10), 1024,
            () -> IdleStrategies.of("backoff"), null);
    }

    /** {@link #defaults()} for an unreplicated service: one server, replica 0, whose reply is accepted alone. */
    public static ClientOptions unreplicated() {
        return defaults().withServers(1, 1);
    }

    public ClientOptions withServers(int servers, int quorum) {
        return new ClientOptions(servers, quorum, maxInFlight, retransmitInitial, retransmitMax, invokeTimeout,
            queueCapacity, idleStrategy, links);
    }

    public ClientOptions withMaxInFlight(int max) {
        return new ClientOptions(servers, quorum, max, retransmitInitial, retransmitMax, invokeTimeout, queueCapacity,
            idleStrategy, links);
    }

    public ClientOptions withRetransmission(Duration initial, Duration max) {
        return new ClientOptions(servers, quorum, maxInFlight, initial, max, invokeTimeout, queueCapacity, idleStrategy,
            links);
    }

    public ClientOptions withInvokeTimeout(Duration timeout) {
        return new ClientOptions(servers, quorum, maxInFlight, retransmitInitial, retransmitMax, timeout, queueCapacity,
            idleStrategy, links);
    }

    public ClientOptions withQueueCapacity(int capacity) {
        return new ClientOptions(servers, quorum, maxInFlight, retransmitInitial, retransmitMax, invokeTimeout, capacity,
            idleStrategy, links);
    }

    public ClientOptions withIdleStrategy(Supplier<IdleStrategy> supplier) {
        return new ClientOptions(servers, quorum, maxInFlight, retransmitInitial, retransmitMax, invokeTimeout,
            queueCapacity, supplier, links);
    }

    public ClientOptions withLinks(LinkConfig config) {
        return new ClientOptions(servers, quorum, maxInFlight, retransmitInitial, retransmitMax, invokeTimeout,
            queueCapacity, idleStrategy, config);
    }

    /** Servers for a cluster of {@code n} replicas. */
    public int serversFor(int n) {
        int s = servers == 0 ? n : servers;
        if (s > n) {
            throw new IllegalArgumentException(s + " servers but the cluster has " + n + " replicas");
        }
        return s;
    }

    /** Quorum for a cluster tolerating {@code f} faults with {@code n} replicas. */
    public int quorumFor(int n, int f) {
        return quorum == 0 ? Math.min(f + 1, serversFor(n)) : quorum;
    }
}
