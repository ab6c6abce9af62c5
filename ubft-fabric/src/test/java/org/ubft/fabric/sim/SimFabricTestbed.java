package org.ubft.fabric.sim;

import org.ubft.fabric.Fabric;
import org.ubft.fabric.FabricTestbed;

/** Contract-suite testbed over one {@link SimNetwork}. */
public final class SimFabricTestbed implements FabricTestbed {
    private final SimNetwork network;

    public SimFabricTestbed(SimNetwork network) {
        this.network = network;
    }

    public SimNetwork network() {
        return network;
    }

    @Override
    public String name() {
        return "sim";
    }

    @Override
    public Fabric open(int nodeId) {
        return network.open(nodeId);
    }

    @Override
    public void crash(int nodeId) {
        network.crash(nodeId);
    }

    @Override
    public void progress() {
        if (!network.step()) {
            network.runFor(1_000);
        }
    }

    @Override
    public long nanoTime() {
        return network.nanoTime();
    }

    @Override
    public long completionBoundNanos() {
        return 10 * network.operationTimeoutNanos();
    }

    @Override
    public void close() {
    }
}
