package org.ubft.consensus.runtime;

import org.ubft.common.NodeId;
import org.ubft.common.config.ClusterConfig;
import org.ubft.common.crypto.ClusterKeys;
import org.ubft.common.crypto.PublicKeys;
import org.ubft.common.crypto.SigningKey;
import org.ubft.consensus.replica.ConsensusCrypto;

/**
 * {@link ConsensusCrypto} over the cluster's key files: signs with replica {@code self}'s key, verifies with the
 * public key of replica i ({@link NodeId#replica}) or client i ({@link NodeId#client}). Synchronous (Bouncy
 * Castle, on the replica's thread). An index outside the cluster, a range outside its array or a malformed signature
 * verifies as false: peers' bytes are data, never an exception.
 */
public final class KeyedConsensusCrypto implements ConsensusCrypto {
    private final SigningKey key;
    private final PublicKeys keys;
    private final int replicas;
    private final int clients;

    public KeyedConsensusCrypto(SigningKey key, PublicKeys keys, int replicas, int clients) {
        this.key = key;
        this.keys = keys;
        this.replicas = replicas;
        this.clients = clients;
    }

    /** Loads replica {@code self}'s private key and every node's public key from the cluster's key directory. */
    public static KeyedConsensusCrypto load(ClusterConfig cluster, int self) {
        ClusterKeys k = ClusterKeys.load(cluster, NodeId.replica(self));
        return new KeyedConsensusCrypto(k.signingKey(), k.publicKeys(), cluster.n(), cluster.clientCount());
    }

    @Override
    public void sign(byte[] message, int offset, int length, byte[] signature, int at) {
        key.sign(message, offset, length, signature, at);
    }

    @Override
    public boolean verifyReplica(int replica, byte[] message, int offset, int length, byte[] signature, int at) {
        return replica >= 0 && replica < replicas
            && keys.verify(NodeId.replica(replica), message, offset, length, signature, at, SIGNATURE_BYTES);
    }

    @Override
    public boolean verifyClient(int client, byte[] message, int offset, int length, byte[] signature, int at) {
        return client >= 0 && client < clients
            && keys.verify(NodeId.client(client), message, offset, length, signature, at, SIGNATURE_BYTES);
    }
}
