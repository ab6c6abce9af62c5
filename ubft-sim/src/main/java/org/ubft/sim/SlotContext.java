package org.ubft.sim;

import org.agrona.concurrent.NanoClock;
import org.ubft.common.config.ClusterConfig;
import org.ubft.common.crypto.SigningKey;
import org.ubft.fabric.sim.SimNetwork;

import java.util.SplittableRandom;

/**
 * What a {@link ReplicaBehaviour} is given when its slot's node is built: the slot (replica index) and incarnation,
 * the cluster, the slot's own signing key (a Byzantine replica can sign anything as itself, never as another), a
 * random source drawn from the run's seed (so a behaviour's choices replay with the seed), the virtual clock, and the
 * simulated network (for sim-only hooks such as {@link SimNetwork#writeTap}: a Byzantine register writer).
 */
public record SlotContext(int replica, int incarnation, ClusterConfig cluster, SigningKey key, SplittableRandom random,
                          NanoClock clock, SimNetwork network) {

    public long now() {
        return clock.nanoTime();
    }
}
