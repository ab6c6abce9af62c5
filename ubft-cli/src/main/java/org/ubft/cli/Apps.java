package org.ubft.cli;

import org.ubft.apps.flip.Flip;
import org.ubft.apps.kv.machine.KvMachine;
import org.ubft.apps.kv.store.StoreLimits;
import org.ubft.apps.orderbook.OrderBook;
import org.ubft.apps.orderbook.OrderBookMachine;
import org.ubft.common.config.ClusterConfig;
import org.ubft.consensus.app.StateMachine;
import org.ubft.consensus.replica.ReplicaConfig;
import org.ubft.consensus.runtime.ReplicaNode;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

import java.util.Locale;

/** The applications and paths the commands accept, with the errors that name the accepted values. */
public final class Apps {
    static final String NAMES = "flip, orderbook or kv";
    /** What --app takes, for the options' descriptions. */
    static final String DESCRIPTION = "flip, orderbook, kv, or the fully qualified name of your own StateMachine class"
        + " (with --classpath JAR)";
    public static final String FLIP = "flip";
    public static final String ORDERBOOK = "orderbook";
    public static final String KV = "kv";

    private Apps() {
    }

    /** Exit 2 unless {@code name} is a built-in application. */
    static void check(CommandLine cmd, String name) {
        if (!builtIn(name)) {
            throw new ParameterException(cmd, "--app must be " + NAMES + ", got '" + name + "'");
        }
    }

    /** True for flip, orderbook and kv. */
    static boolean builtIn(String name) {
        return FLIP.equals(name) || ORDERBOOK.equals(name) || KV.equals(name);
    }

    /**
     * Exit 2 unless {@code name} is a built-in application or, with a dot in it, a loadable {@link StateMachine} class
     * ({@link AppClasses}); {@code --classpath} only goes with a class name.
     */
    static void check(CommandLine cmd, String name, java.nio.file.Path classpath) {
        if (AppClasses.isClassName(name)) {
            AppClasses.factory(cmd, name, classpath);
            return;
        }
        if (classpath != null) {
            throw new ParameterException(cmd, "--classpath " + classpath + " goes with --app CLASS (the fully qualified"
                + " name of your StateMachine class), not with --app " + name);
        }
        if (!builtIn(name)) {
            throw new ParameterException(cmd, "--app must be " + DESCRIPTION + ", got '" + name + "'");
        }
    }

    /**
     * A fresh instance of application {@code name}, built in or a class loaded from {@code classpath}, for a replica
     * (or the unreplicated server) of {@code cluster}.
     */
    static StateMachine create(CommandLine cmd, String name, java.nio.file.Path classpath, ClusterConfig cluster,
        StoreLimits kvLimits) {
        check(cmd, name, classpath);
        if (AppClasses.isClassName(name)) {
            return AppClasses.factory(cmd, name, classpath).get();
        }
        return create(cmd, name, cluster, kvLimits);
    }

    /** A fresh instance of built-in application {@code name} for a replica (or the unreplicated server) of {@code cluster}. */
    static StateMachine create(CommandLine cmd, String name, ClusterConfig cluster, StoreLimits kvLimits) {
        check(cmd, name);
        return switch (name) {
            case FLIP -> new Flip();
            case KV -> new KvMachine(kvConfig(cluster, kvLimits));
            default -> new OrderBookMachine(orderBookConfig(cluster));
        };
    }

    /** The key-value machine's settings in {@code cluster}: replies as large as the replicas send. */
    static KvMachine.Config kvConfig(ClusterConfig cluster, StoreLimits limits) {
        int maxReply = ReplicaNode.replicaConfig(cluster, ReplicaConfig.Path.FAST).maxReplyBytes();
        return KvMachine.Config.defaults(limits, maxReply);
    }

    /**
     * The order book's settings in {@code cluster}: the default book, replies as large as the replicas send (so that
     * replicated and unreplicated runs reply the same bytes, and a client's shadow book can compare them).
     */
    public static OrderBookMachine.Config orderBookConfig(ClusterConfig cluster) {
        int maxReply = ReplicaNode.replicaConfig(cluster, ReplicaConfig.Path.FAST).maxReplyBytes();
        return new OrderBookMachine.Config(OrderBook.Config.defaults(), maxReply);
    }

    /** {@code fast} or {@code slow}. */
    static ReplicaConfig.Path path(CommandLine cmd, String name) {
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "fast" -> ReplicaConfig.Path.FAST;
            case "slow" -> ReplicaConfig.Path.SLOW;
            default -> throw new ParameterException(cmd, "--path must be fast or slow, got '" + name + "'");
        };
    }
}
