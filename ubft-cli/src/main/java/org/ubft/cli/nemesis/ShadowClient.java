package org.ubft.cli.nemesis;

import org.ubft.common.config.ClusterConfig;
import org.ubft.consensus.app.StateMachine;
import org.ubft.consensus.client.ClientOptions;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.function.Supplier;

/**
 * A client whose every reply is checked against a local instance of the application (the shadow) fed the same
 * requests: the reply f+1 replicas agreed on must be the one a single correct execution gives. That holds when this
 * client is the service's only client (its requests execute in the order sent), or when the application is stateless
 * (Flip: the reply is the request reversed). A request that fails leaves the shadow unsure whether it ran: the client
 * stops there (the run reports the failure).
 */
final class ShadowClient extends NemesisClient {
    private final Supplier<byte[]> requests;
    private final StateMachine shadow;
    private volatile boolean done;
    private long checked;

    ShadowClient(int id, ClusterConfig cluster, ClientOptions options, Supplier<byte[]> requests,
        StateMachine shadow) {
        super(id, cluster, options);
        this.requests = requests;
        this.shadow = shadow;
    }

    @Override
    void step() {
        byte[] request = requests.get();
        byte[] expected = shadow.execute(request.clone());
        byte[] reply = invoke(request);
        if (reply == null) {
            if (!stopping()) {
                problem("client-" + id + ": request " + (checked + 1) + " got no reply within the client's timeout;"
                    + " the client stops (the shadow cannot tell whether it ran)");
            }
            done = true;
            return;
        }
        checked++;
        if (!Arrays.equals(reply, expected)) {
            problem("client-" + id + ": WRONG REPLY to request " + checked + ": got " + hex(reply) + ", a correct"
                + " execution gives " + hex(expected));
            done = true;
        }
    }

    @Override
    boolean finished() {
        return done;
    }

    /** Replies compared with the shadow's. */
    long checked() {
        return checked;
    }

    private static String hex(byte[] b) {
        return b.length + " bytes " + HexFormat.of().formatHex(b, 0, Math.min(b.length, 24))
            + (b.length > 24 ? "..." : "");
    }
}
