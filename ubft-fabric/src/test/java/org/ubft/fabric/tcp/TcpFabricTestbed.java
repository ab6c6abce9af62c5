package org.ubft.fabric.tcp;

import org.ubft.common.NodeId;
import org.ubft.fabric.Fabric;
import org.ubft.fabric.FabricTestbed;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.UnaryOperator;

/**
 * Contract-suite testbed: in-JVM tcp fabrics on 127.0.0.1 ephemeral ports that find each other
 * through a shared address book. Crashing a node closes its fabric. The operation timeout is generous
 * (the test machine is small and shared); tests never depend on it being short. An
 * {@link #authenticated()} testbed gives every node it opens an Ed25519 key ({@link TestKeys}) and an
 * {@link Ed25519ConnectionAuthenticator} that knows the keys of all the nodes the testbed has opened.
 */
public final class TcpFabricTestbed implements FabricTestbed {
    static final long OPERATION_TIMEOUT_MS = 1_000;

    private final Map<Integer, InetSocketAddress> addresses = new ConcurrentHashMap<>();
    private final Map<Integer, TcpFabric> fabrics = new ConcurrentHashMap<>();
    private final List<TcpFabric> opened = new ArrayList<>();
    private final UnaryOperator<TcpOptions.Builder> tweak;
    private final TestKeys keys;
    private boolean sharedThreads;

    public TcpFabricTestbed() {
        this(UnaryOperator.identity());
    }

    /** A testbed whose fabrics' options are adjusted by {@code tweak}. */
    public TcpFabricTestbed(UnaryOperator<TcpOptions.Builder> tweak) {
        this(null, tweak);
    }

    private TcpFabricTestbed(TestKeys keys, UnaryOperator<TcpOptions.Builder> tweak) {
        this.keys = keys;
        this.tweak = tweak;
    }

    /** A testbed whose nodes authenticate their connections with keys of {@link #keys()}. */
    public static TcpFabricTestbed authenticated() {
        return authenticated(UnaryOperator.identity());
    }

    /** An authenticated testbed whose fabrics' options are adjusted by {@code tweak} (after the keys). */
    public static TcpFabricTestbed authenticated(UnaryOperator<TcpOptions.Builder> tweak) {
        return new TcpFabricTestbed(new TestKeys(), tweak);
    }

    /**
     * A testbed whose replicas and clients run their network inside {@code poll} ({@link TcpOptions#sharedThread()});
     * memory nodes keep a network thread, as {@code Fabrics.open} does.
     */
    public static TcpFabricTestbed sharedThreads() {
        TcpFabricTestbed testbed = new TcpFabricTestbed();
        testbed.sharedThreads = true;
        return testbed;
    }

    /** The nodes' keys, or null if this testbed does not authenticate. */
    public TestKeys keys() {
        return keys;
    }

    /** The address book the fabrics resolve peers with; tests may add foreign endpoints. */
    public Map<Integer, InetSocketAddress> addresses() {
        return addresses;
    }

    public TcpOptions.Builder options(int nodeId) {
        TcpOptions.Builder builder = TcpOptions.builder(nodeId)
            .bindAddress(new InetSocketAddress("127.0.0.1", 0))
            .peerResolver(addresses::get)
            .operationTimeout(OPERATION_TIMEOUT_MS, TimeUnit.MILLISECONDS)
            .sharedThread(sharedThreads && NodeId.role(nodeId) != NodeId.Role.MEMNODE);
        if (keys != null) {
            builder.authenticator(keys.authenticator(nodeId));
        }
        return tweak.apply(builder);
    }

    @Override
    public String name() {
        return (keys == null ? "tcp" : "tcp-authenticated") + (sharedThreads ? "-shared-thread" : "");
    }

    @Override
    public TcpFabric open(int nodeId) {
        TcpFabric fabric = new TcpFabric(options(nodeId).build());
        opened.add(fabric);
        fabrics.put(nodeId, fabric);
        addresses.put(nodeId, fabric.localAddress());
        return fabric;
    }

    /** Makes the testbed close {@code fabric} at the end and count its internal errors. */
    public TcpFabric track(TcpFabric fabric) {
        opened.add(fabric);
        return fabric;
    }

    /** The fabric last opened for {@code nodeId}. */
    public TcpFabric fabric(int nodeId) {
        return fabrics.get(nodeId);
    }

    @Override
    public void crash(int nodeId) {
        TcpFabric f = fabrics.remove(nodeId);
        if (f != null) {
            f.close();
        }
    }

    @Override
    public void progress() {
        LockSupport.parkNanos(100_000);
    }

    @Override
    public long nanoTime() {
        return System.nanoTime();
    }

    @Override
    public long completionBoundNanos() {
        return TimeUnit.MILLISECONDS.toNanos(10 * OPERATION_TIMEOUT_MS);
    }

    /** Internal errors caught on any network thread, for tests to assert there were none. */
    public long internalErrors() {
        return sum(TcpCounters.Counter.INTERNAL_ERRORS);
    }

    /** Closes every fabric, after checking (a test failure otherwise) that no network thread caught an error. */
    public void closeCheckingNoInternalErrors() {
        try {
            org.junit.jupiter.api.Assertions.assertEquals(0, internalErrors(), "errors caught on a network thread");
        } finally {
            close();
        }
    }

    /** {@code counter} summed over every fabric this testbed opened or tracks. */
    public long sum(TcpCounters.Counter counter) {
        long n = 0;
        for (TcpFabric f : opened) {
            n += f.counters().get(counter);
        }
        return n;
    }

    @Override
    public void close() {
        for (Fabric f : opened) {
            f.close();
        }
        opened.clear();
        fabrics.clear();
    }
}
