package org.ubft.consensus.runtime;

import org.agrona.concurrent.NanoClock;
import org.ubft.common.NodeId;
import org.ubft.common.config.ClusterConfig;
import org.ubft.common.crypto.ClusterKeys;
import org.ubft.common.crypto.CryptoPool;
import org.ubft.common.crypto.CryptoService;
import org.ubft.common.crypto.PerSignerCryptoService;
import org.ubft.common.crypto.PublicKeys;
import org.ubft.consensus.app.StateMachine;
import org.ubft.consensus.replica.DeferredChecks;
import org.ubft.consensus.replica.ReplicaConfig;
import org.ubft.ctbcast.core.SignedStatement;
import org.ubft.ctbcast.node.CtbcastNode;
import org.ubft.fabric.Fabric;
import org.ubft.fabric.Fabrics;

import java.util.function.UnaryOperator;

/**
 * A replica process's node from its cluster file ({@link ReplicaNode#open}): the fabric, the keys, the worker pool for
 * signature checks ({@code consensus.signature.workers}), the data directory's logs, and its outgoing indices.
 */
final class ReplicaLaunch {
    /** Checks of one peer's CTBcast signatures that may wait for a worker. */
    static final int CTBCAST_CHECKS_PER_PEER = 64;

    private ReplicaLaunch() {
    }

    /** See {@link ReplicaNode#open}. */
    static ReplicaNode open(ClusterConfig cluster, int self, StateMachine app, ReplicaConfig.Path path,
                                   NanoClock clock, java.nio.file.Path dataDir) {
        Fabric fabric = Fabrics.open(cluster, NodeId.replica(self));
        ReplicaNode node = null;
        CryptoPool pool = null;
        try {
            ReplicaConfig config = ReplicaNode.replicaConfig(cluster, path);
            int workers = cluster.consensus().signatureWorkers();
            PublicKeys keys = null;
            CryptoService ctbcastCrypto = CtbcastNode.synchronousCrypto(cluster, self);
            if (workers > 0) {
                keys = ClusterKeys.load(cluster, NodeId.replica(self)).publicKeys();
                pool = signatureWorkers(cluster, fabric, workers);
                ctbcastCrypto = ctbcastChecksOn(pool, keys, ctbcastCrypto, config.n(), self);
            }
            node = new ReplicaNode(fabric, true, cluster, self, app, config, ReplicaNode.ctbcastOptions(config),
                KeyedConsensusCrypto.load(cluster, self), ctbcastCrypto, clock, UnaryOperator.identity());
            if (pool != null) {
                // peers' TBcast and direct signatures on worker threads, one bounded queue per peer
                node.ownPool(pool);
                PublicKeys peerKeys = keys;
                CryptoPool workersPool = pool;
                node.checkSignaturesWith(p -> workersPool.newOwner(null, peerKeys, ReplicaNode.CHECKS_PER_PEER,
                    DeferredChecks.maxStatementBytes()));
                node.checkClientSignaturesWith(pool.newOwner(null, keys,
                    ClientPreverifier.capacityFor(config.clients()),
                    ClientPreverifier.statementBytes(config.maxRequestBytes())));
                pool.start();
            }
            if (dataDir == null) {
                node.startAt(CtbcastNode.wallClockEpoch());
            } else {
                String name = NodeId.toString(NodeId.replica(self));
                node.startAt(CtbcastNode.wallClockEpoch(),
                    ReplicaNode.ownStreamLog(config, dataDir.resolve(name + ".stream"), cluster.durabilityFsync()),
                    DecisionLog.open(dataDir.resolve(name + ".decisions"), dataDir.resolve(name + ".checkpoint"),
                        config.window(), config.maxBatchBytes(), cluster.durabilityFsync()));
            }
            return node;
        } catch (RuntimeException e) {
            if (node != null) {
                node.close();
            } else {
                if (pool != null) {
                    pool.close();
                }
                fabric.close();
            }
            throw e;
        }
    }

    /**
     * The signature workers of a replica on {@code fabric}: they idle with the cluster's idle strategy, and a worker
     * that handed back verdicts wakes the replica's thread ({@link Fabric#wakePoller}: on tcp it may be blocked on its
     * sockets, and saw a verdict only when a peer's bytes or its wait's 1 ms bound ended the wait; the slow path of a
     * quiet cluster is a chain of such verdicts). Not started.
     */
    static CryptoPool signatureWorkers(ClusterConfig cluster, Fabric fabric, int workers) {
        return new CryptoPool(workers, cluster::newIdleStrategy).onResults(fabric::wakePoller);
    }

    /**
     * CTBcast's signature service with its checks off the agent thread: it still signs inline ({@code inline}: the
     * replica waits for its own SIGNED, a hand-off would only add to that wait), and each peer's SIGNED and register
     * values are checked in that peer's own bounded queue of {@code pool} (docs/design.md §3.2). A peer whose checks
     * overflow its queue has its oldest dropped and submitted again by {@code CryptoSignaturePort}; the broadcaster's
     * {@code SignedCheckBudget} bounds how many it can start.
     */
    static CryptoService ctbcastChecksOn(CryptoPool pool, PublicKeys keys, CryptoService inline, int n, int self) {
        CryptoService[] perPeer = new CryptoService[n];
        for (int p = 0; p < n; p++) {
            if (p != self) {
                perPeer[p] = pool.newOwner(null, keys, CTBCAST_CHECKS_PER_PEER, SignedStatement.BYTES);
            }
        }
        return new PerSignerCryptoService(inline, perPeer);
    }
}
