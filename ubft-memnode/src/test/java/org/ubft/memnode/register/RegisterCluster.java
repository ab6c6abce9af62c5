package org.ubft.memnode.register;

import org.ubft.common.NodeId;
import org.ubft.fabric.CompletionHandler;
import org.ubft.fabric.Fabric;
import org.ubft.fabric.FabricTestbed;
import org.ubft.fabric.LocalRegion;
import org.ubft.fabric.Status;
import org.ubft.fabric.sim.SimFabricTestbed;
import org.ubft.fabric.sim.SimNetwork;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * Test rig: 3 replicas and 3 memory nodes (f_m = 1) on one {@link FabricTestbed}, memory nodes exposing the
 * register regions of every replica, and a pump that polls each replica's fabric, routes completions to the
 * register clients by tag (what the integrator's CompletionRouter will do) and calls their doWork.
 */
final class RegisterCluster implements AutoCloseable {
    static final int REPLICAS = 3;
    static final int MEMNODES = 3;
    static final long SIM_STEP_NANOS = 1_000;

    final FabricTestbed testbed;
    final RegisterLayout layout;
    final RegisterClientConfig config;
    final Fabric[] memnodes = new Fabric[MEMNODES];
    final LocalRegion[][] regions = new LocalRegion[MEMNODES][];
    final Fabric[] replicas = new Fabric[REPLICAS];
    private final List<Runnable> workers = new ArrayList<>();
    private final TagDispatch[] dispatch = new TagDispatch[REPLICAS];
    private int nextTag = 1;

    RegisterCluster(FabricTestbed testbed, RegisterLayout layout, long cooldownNanos, long backoffNanos,
                    int maxConcurrentOps) {
        this.testbed = testbed;
        this.layout = layout;
        int[] memnodeIds = new int[MEMNODES];
        int[] replicaIds = new int[REPLICAS];
        for (int j = 0; j < MEMNODES; j++) {
            memnodeIds[j] = NodeId.memnode(j);
        }
        for (int i = 0; i < REPLICAS; i++) {
            replicaIds[i] = NodeId.replica(i);
        }
        this.config = new RegisterClientConfig(memnodeIds, cooldownNanos, backoffNanos, maxConcurrentOps);
        for (int j = 0; j < MEMNODES; j++) {
            memnodes[j] = testbed.open(memnodeIds[j]);
            regions[j] = RegisterRegions.registerAll(memnodes[j], layout, replicaIds);
        }
        for (int i = 0; i < REPLICAS; i++) {
            replicas[i] = testbed.open(replicaIds[i]);
            dispatch[i] = new TagDispatch();
        }
    }

    RegisterWriter writer(int replica, int writerIndex, WriteListener listener) {
        int tag = nextTag++;
        RegisterWriter w = new RegisterWriter(replicas[replica], testbed::nanoTime, layout, writerIndex, config,
            tag, listener);
        dispatch[replica].add(tag, w::onCompletion);
        workers.add(w::doWork);
        return w;
    }

    RegisterReader reader(int replica, ReadListener listener) {
        int tag = nextTag++;
        RegisterReader r = new RegisterReader(replicas[replica], testbed::nanoTime, layout, config, tag, listener);
        dispatch[replica].add(tag, r::onCompletion);
        workers.add(r::doWork);
        return r;
    }

    /** Routes completions with a fresh tag on {@code replica} to {@code handler}; returns the tag. */
    int handler(int replica, CompletionHandler handler) {
        int tag = nextTag++;
        dispatch[replica].add(tag, handler);
        return tag;
    }

    /** One round: deliver completions, let clients work, let the fabric progress a little. */
    void pump() {
        for (int i = 0; i < REPLICAS; i++) {
            while (replicas[i].poll(dispatch[i], 256) > 0) {
                // drain
            }
        }
        for (Runnable w : workers) {
            w.run();
        }
        if (testbed instanceof SimFabricTestbed sim) {
            // One event, or 1 µs of virtual time if none is due sooner: the clients' timers (cooldown δ,
            // backoff) must get their turn; SimFabricTestbed.progress() would jump to the next event.
            SimNetwork network = sim.network();
            long events = network.eventsRun();
            network.runUntil(() -> network.eventsRun() > events, SIM_STEP_NANOS);
        } else {
            testbed.progress();
        }
    }

    boolean runUntil(BooleanSupplier condition, long maxNanos) {
        long deadline = testbed.nanoTime() + maxNanos;
        while (!condition.getAsBoolean()) {
            if (testbed.nanoTime() > deadline) {
                return false;
            }
            pump();
        }
        return true;
    }

    void runFor(long nanos) {
        long deadline = testbed.nanoTime() + nanos;
        while (testbed.nanoTime() < deadline) {
            pump();
        }
    }

    long now() {
        return testbed.nanoTime();
    }

    @Override
    public void close() {
        testbed.close();
    }

    /** Routes completions by the tag in the high bits of the work-request id. */
    private static final class TagDispatch implements CompletionHandler {
        private final CompletionHandler[] byTag = new CompletionHandler[64];

        void add(int tag, CompletionHandler handler) {
            byTag[tag] = handler;
        }

        @Override
        public void onCompletion(long workRequestId, Status status) {
            CompletionHandler h = byTag[WorkRequestIds.tag(workRequestId)];
            if (h == null) {
                throw new AssertionError("completion with unknown tag: " + Long.toHexString(workRequestId));
            }
            h.onCompletion(workRequestId, status);
        }
    }
}
