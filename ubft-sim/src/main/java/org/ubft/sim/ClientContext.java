package org.ubft.sim;

import org.agrona.concurrent.NanoClock;
import org.ubft.common.config.ClusterConfig;
import org.ubft.common.crypto.SigningKey;

import java.util.SplittableRandom;

/**
 * What a {@link ClientBehaviour} is given when its client is built: the client index, the cluster, the client's own
 * signing key (it can sign anything as itself), a random source drawn from the run's seed, the virtual clock, and the
 * events, to report each payload it really sends for a workload request ({@link SimEvents#sent}).
 */
public record ClientContext(int client, ClusterConfig cluster, SigningKey key, SplittableRandom random,
                            NanoClock clock, SimEvents events) {

    public long now() {
        return clock.nanoTime();
    }
}
