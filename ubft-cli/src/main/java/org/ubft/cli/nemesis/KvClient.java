package org.ubft.cli.nemesis;

import org.ubft.common.config.ClusterConfig;
import org.ubft.consensus.client.ClientOptions;
import org.ubft.sim.linearizability.RedisOp;

import java.util.SplittableRandom;

/**
 * A key-value client: random GET, SET, DEL, INCR and APPEND commands on a few keys ({@link KvHistory#randomOp}), each
 * recorded in the shared history as invoked before it is sent and answered once its reply is accepted. A command
 * that fails stays pending (it may or may not have run); the client goes on as a new session.
 */
final class KvClient extends NemesisClient {
    private final KvHistory history;
    private final SplittableRandom random;
    private volatile boolean full;

    KvClient(int id, ClusterConfig cluster, ClientOptions options, KvHistory history, long seed) {
        super(id, cluster, options);
        this.history = history;
        this.random = new SplittableRandom(seed);
    }

    @Override
    void step() {
        RedisOp op = history.randomOp(random);
        int at = history.invoke(id, op);
        if (at < 0) {
            full = true;
            return;
        }
        byte[] reply = invoke(KvHistory.request(op));
        if (reply != null) {
            history.respond(at, KvHistory.output(reply));
        }
    }

    @Override
    boolean finished() {
        return full;
    }
}
