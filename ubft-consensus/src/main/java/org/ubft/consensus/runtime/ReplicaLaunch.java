package org.ubft.consensus.runtime;

import org.agrona.concurrent.NanoClock;
import org.ubft.common.NodeId;
import org.ubft.common.config.ClusterConfig;
import org.ubft.common.crypto.CryptoPool;
import org.ubft.consensus.app.StateMachine;
import org.ubft.consensus.replica.DeferredChecks;
import org.ubft.consensus.replica.ReplicaConfig;
import org.ubft.ctbcast.node.CtbcastNode;
import org.ubft.fabric.Fabric;
import org.ubft.fabric.Fabrics;

import java.util.function.UnaryOperator;

/**
 * A replica process's node from its cluster file ({@link ReplicaNode#open}): the fabric, the keys, the worker pool for
 * signature checks ({@code consensus.signature.workers}), the data directory's logs, and its outgoing indices.
 */
final class ReplicaLaunch {
    private ReplicaLaunch() {
    }

    /** See {@link ReplicaNode#open}. */
    static ReplicaNode open(ClusterConfig cluster, int self, StateMachine app, ReplicaConfig.Path path,
                                   NanoClock clock, java.nio.file.Path dataDir) {
        Fabric fabric = Fabrics.open(cluster, NodeId.replica(self));
        ReplicaNode node = null;
        try {
            ReplicaConfig config = ReplicaNode.replicaConfig(cluster, path);
            node = new ReplicaNode(fabric, true, cluster, self, app, config, ReplicaNode.ctbcastOptions(config),
                KeyedConsensusCrypto.load(cluster, self), CtbcastNode.synchronousCrypto(cluster, self), clock,
                UnaryOperator.identity());
            // peers' TBcast and direct signatures on worker threads, one bounded queue per peer
            int workers = cluster.consensus().signatureWorkers();
            if (workers > 0) {
                org.ubft.common.crypto.PublicKeys keys = org.ubft.common.crypto.ClusterKeys.load(cluster,
                    NodeId.replica(self)).publicKeys();
                CryptoPool pool = new CryptoPool(workers, cluster::newIdleStrategy);
                node.ownPool(pool);
                node.checkSignaturesWith(p -> pool.newOwner(null, keys, ReplicaNode.CHECKS_PER_PEER,
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
                fabric.close();
            }
            throw e;
        }
    }
}
