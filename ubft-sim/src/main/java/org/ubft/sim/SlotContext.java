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
 * simulated network (for sim-only hooks such as {@link SimNetwork#writeTap}: a Byzantine register writer), and a
 * read-only view of every replica's protocol state ({@link Omniscience}: an adversary that times its steps on the
 * correct replicas).
 */
public record SlotContext(int replica, int incarnation, ClusterConfig cluster, SigningKey key, SplittableRandom random,
                          NanoClock clock, SimNetwork network, Omniscience omniscience) {

    public long now() {
        return clock.nanoTime();
    }
}
