package org.ubft.fabric.tcp;

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
 * (the test machine is small and shared); tests never depend on it being short.
 */
public final class TcpFabricTestbed implements FabricTestbed {
    static final long OPERATION_TIMEOUT_MS = 1_000;

    private final Map<Integer, InetSocketAddress> addresses = new ConcurrentHashMap<>();
    private final Map<Integer, TcpFabric> fabrics = new ConcurrentHashMap<>();
    private final List<TcpFabric> opened = new ArrayList<>();
    private final UnaryOperator<TcpOptions.Builder> tweak;

    public TcpFabricTestbed() {
        this(UnaryOperator.identity());
    }

    /** A testbed whose fabrics' options are adjusted by {@code tweak}. */
    public TcpFabricTestbed(UnaryOperator<TcpOptions.Builder> tweak) {
        this.tweak = tweak;
    }

    /** The address book the fabrics resolve peers with; tests may add foreign endpoints. */
    public Map<Integer, InetSocketAddress> addresses() {
        return addresses;
    }

    public TcpOptions.Builder options(int nodeId) {
        return tweak.apply(TcpOptions.builder(nodeId)
            .bindAddress(new InetSocketAddress("127.0.0.1", 0))
            .peerResolver(addresses::get)
            .operationTimeout(OPERATION_TIMEOUT_MS, TimeUnit.MILLISECONDS));
    }

    @Override
    public String name() {
        return "tcp";
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
        long n = 0;
        for (TcpFabric f : opened) {
            n += f.counters().get(TcpCounters.Counter.INTERNAL_ERRORS);
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
