package org.ubft.sim;

import org.ubft.common.NodeId;
import org.ubft.common.config.ClusterConfig;
import org.ubft.common.crypto.CryptoPool;
import org.ubft.common.crypto.CryptoService;
import org.ubft.common.crypto.PublicKeys;
import org.ubft.common.crypto.SigningKey;
import org.ubft.consensus.runtime.KeyedConsensusCrypto;
import org.ubft.ctbcast.core.SignedStatement;

import java.util.SplittableRandom;

/**
 * The Ed25519 keys of a simulated cluster, made in memory from a seed (no key files): node {@code id}'s private key
 * is 32 bytes drawn from a {@link SplittableRandom} seeded with the simulation seed mixed with the node id, so the
 * same seed gives the same keys and hence the same signatures in every run. Only for simulation: these keys are
 * predictable by design.
 */
public final class SimKeys {
    private final ClusterConfig cluster;
    private final SigningKey[] replicas;
    private final SigningKey[] clients;
    private final PublicKeys publicKeys;

    public SimKeys(ClusterConfig cluster, long seed) {
        this.cluster = cluster;
        this.replicas = new SigningKey[cluster.n()];
        this.clients = new SigningKey[cluster.clientCount()];
        PublicKeys.Builder b = PublicKeys.builder();
        for (int i = 0; i < replicas.length; i++) {
            replicas[i] = key(seed, NodeId.replica(i));
            b.add(replicas[i].nodeId(), replicas[i].publicKey());
        }
        for (int c = 0; c < clients.length; c++) {
            clients[c] = key(seed, NodeId.client(c));
            b.add(clients[c].nodeId(), clients[c].publicKey());
        }
        this.publicKeys = b.build();
    }

    private static SigningKey key(long seed, int nodeId) {
        SplittableRandom random = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + nodeId);
        byte[] secret = new byte[SigningKey.SEED_BYTES];
        random.nextBytes(secret);
        return SigningKey.fromSeed(nodeId, secret);
    }

    public SigningKey replicaKey(int replica) {
        return replicas[replica];
    }

    public SigningKey clientKey(int client) {
        return clients[client];
    }

    public PublicKeys publicKeys() {
        return publicKeys;
    }

    /** Replica {@code replica}'s consensus signatures (synchronous). */
    public KeyedConsensusCrypto consensusCrypto(int replica) {
        return new KeyedConsensusCrypto(replicas[replica], publicKeys, cluster.n(), cluster.clientCount());
    }

    /**
     * Replica {@code replica}'s CTBcast signatures: synchronous, results at the next poll in submission order, as
     * {@link org.ubft.ctbcast.node.CtbcastNode#synchronousCrypto} gives them from key files.
     */
    public CryptoService ctbcastCrypto(int replica) {
        return CryptoPool.synchronous(replicas[replica], publicKeys, 64, SignedStatement.BYTES);
    }
}
