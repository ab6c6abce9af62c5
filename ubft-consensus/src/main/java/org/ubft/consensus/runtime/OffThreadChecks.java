package org.ubft.consensus.runtime;

import org.agrona.DirectBuffer;
import org.ubft.common.crypto.CryptoPool;
import org.ubft.common.crypto.CryptoService;
import org.ubft.consensus.replica.MessageSizes;
import org.ubft.consensus.replica.Replica;
import org.ubft.consensus.replica.ReplicaConfig;

import java.util.function.IntFunction;

/**
 * Where a replica's signature checks run (docs/design.md §3.2): peers' messages and clients' requests go through the
 * off-thread checks when the node was given services for them ({@link Preverifier}, {@link ClientPreverifier}), else
 * straight to the replica, which checks on its own thread. Owns the worker pool a node made for them, if any.
 */
final class OffThreadChecks implements AutoCloseable {
    private final Replica replica;
    private final ReplicaConfig config;
    private final int self;
    private Preverifier peers;
    private StreamPreverifier streams;
    private ClientPreverifier clients;
    private CryptoPool ownPool;

    OffThreadChecks(Replica replica, ReplicaConfig config, int self) {
        this.replica = replica;
        this.config = config;
        this.self = self;
    }

    /**
     * Peers' shares, and the certificates of their CTBcast COMMITs, from now on through {@code perPeer.apply(p)} (called
     * twice per peer: one service for each) ({@link ReplicaNode#checkSignaturesWith}).
     */
    void checkPeersWith(IntFunction<CryptoService> perPeer) {
        peers = new Preverifier(replica, self, config.n(), perPeer, MessageSizes.maxMessageBytes(config));
        streams = new StreamPreverifier(replica.streamChecks(), self, config.n(), perPeer);
    }

    /** Clients' signed requests from now on through {@code service} ({@link ReplicaNode#checkClientSignaturesWith}). */
    void checkClientsWith(CryptoService service) {
        clients = new ClientPreverifier(replica, config.clients(), service, config.maxRequestBytes());
    }

    /** The pool the node made for these checks: closed with them. */
    void own(CryptoPool pool) {
        ownPool = pool;
    }

    Preverifier peers() {
        return peers;
    }

    ClientPreverifier clients() {
        return clients;
    }

    void onTbcast(int from, DirectBuffer m, int off, int len) {
        if (peers != null) {
            peers.onTbcast(from, m, off, len);
        } else {
            replica.onTbcastDeliver(from, m, off, len);
        }
    }

    void onDirect(int from, DirectBuffer m, int off, int len) {
        if (peers != null) {
            peers.onDirect(from, m, off, len);
        } else {
            replica.onDirect(from, m, off, len);
        }
    }

    void onRequest(int client, DirectBuffer m, int off, int len) {
        if (clients != null) {
            clients.onRequest(client, m, off, len);
        } else {
            replica.onClientRequest(client, m, off, len);
        }
    }

    /** Polls the verdicts of both kinds and hands their messages in again; returns how many. */
    int doWork() {
        return (clients == null ? 0 : clients.doWork()) + (peers == null ? 0 : peers.doWork() + streams.doWork());
    }

    /** The counters' part: nothing when every check runs on the agent thread. */
    String describe() {
        return (peers == null ? "" : " checks_off_thread=" + peers.submitted() + " checks_overflowed="
            + peers.overflowed() + " commit_checks_off_thread=" + streams.submitted() + " commits_parked="
            + (replica.streamChecks().parked() - replica.streamChecks().parkedCheckpoints()) + " commits_parked_in_bundles="
            + replica.streamChecks().parkedParts() + " checkpoints_parked="
            + replica.streamChecks().parkedCheckpoints() + " commits_forced=" + replica.streamChecks().forced()
            + " ctbcast_too_long=" + replica.streamChecks().tooLong() + " too_long_flushes="
            + replica.streamChecks().tooLongFlushes())
            + (clients == null ? "" : " client_checks_off_thread=" + clients.submitted()
            + " client_checks_not_done=" + clients.notChecked());
    }

    /** CTBcast's SIGNED and register checks done on the workers ({@code consensus.signature.workers}), if any. */
    static String describeCtbcast(CryptoService ctbcastCrypto) {
        return ctbcastCrypto instanceof org.ubft.common.crypto.PerSignerCryptoService s
            ? " ctbcast_checks_off_thread=" + s.routedVerifications() : "";
    }

    @Override
    public void close() {
        if (ownPool != null) {
            ownPool.close();
        }
    }
}
