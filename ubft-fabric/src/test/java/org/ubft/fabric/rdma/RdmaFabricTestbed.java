package org.ubft.fabric.rdma;

import org.ubft.common.NodeId;
import org.ubft.fabric.FabricTestbed;
import org.ubft.fabric.rdma.emulation.EmulatedRdmaNetwork;
import org.ubft.fabric.tcp.TestKeys;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

/**
 * Contract-suite testbed: rdma fabrics on one {@link EmulatedRdmaNetwork}, every node with an Ed25519 key
 * ({@link TestKeys}) so that every connection runs the handshake. Crashing a node closes its fabric (its device
 * leaves the network: its queue pairs fail, connecting to it is refused).
 */
public final class RdmaFabricTestbed implements FabricTestbed {
    private final EmulatedRdmaNetwork network;
    private final TestKeys keys = new TestKeys();
    private final Map<Integer, InetSocketAddress> addresses = new ConcurrentHashMap<>();
    private final Map<Integer, RdmaFabric> fabrics = new ConcurrentHashMap<>();
    private final List<RdmaFabric> opened = new ArrayList<>();
    private final UnaryOperator<RdmaOptions.Builder> tweak;

    public RdmaFabricTestbed() {
        this(new EmulatedRdmaNetwork(), UnaryOperator.identity());
    }

    public RdmaFabricTestbed(EmulatedRdmaNetwork network, UnaryOperator<RdmaOptions.Builder> tweak) {
        this.network = network;
        this.tweak = tweak;
    }

    public EmulatedRdmaNetwork network() {
        return network;
    }

    public TestKeys keys() {
        return keys;
    }

    public static InetSocketAddress addressOf(int nodeId) {
        return InetSocketAddress.createUnresolved(NodeId.toString(nodeId), 4791);
    }

    public Map<Integer, InetSocketAddress> addresses() {
        return addresses;
    }

    public RdmaOptions.Builder options(int nodeId) {
        RdmaOptions.Builder b = RdmaOptions.builder(nodeId)
            .listenAddress(addressOf(nodeId))
            .peerResolver(addresses::get)
            .maxOutstanding(4096)
            .stagingBytes(8 << 20)
            .operationTimeout(2, TimeUnit.SECONDS)
            .authenticator(keys.authenticator(nodeId));
        return tweak.apply(b);
    }

    @Override
    public String name() {
        return "rdma-emulated";
    }

    @Override
    public RdmaFabric open(int nodeId) {
        RdmaFabric f = new RdmaFabric(options(nodeId).build(), network.open(NodeId.toString(nodeId)));
        opened.add(f);
        fabrics.put(nodeId, f);
        addresses.put(nodeId, addressOf(nodeId));
        return f;
    }

    public RdmaFabric fabric(int nodeId) {
        return fabrics.get(nodeId);
    }

    @Override
    public void crash(int nodeId) {
        RdmaFabric f = fabrics.remove(nodeId);
        if (f != null) {
            f.close();
        }
    }

    @Override
    public void progress() {
        Thread.onSpinWait();
        network.progress();
    }

    @Override
    public long nanoTime() {
        return System.nanoTime();
    }

    @Override
    public long completionBoundNanos() {
        return TimeUnit.SECONDS.toNanos(5);
    }

    @Override
    public void close() {
        for (RdmaFabric f : opened) {
            f.close();
        }
    }
}
