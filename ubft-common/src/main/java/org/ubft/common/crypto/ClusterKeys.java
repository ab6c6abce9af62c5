package org.ubft.common.crypto;

import org.ubft.common.NodeId;
import org.ubft.common.config.ClusterConfig;
import org.ubft.common.config.ConfigException;

import java.nio.file.Path;
import java.util.Arrays;

/**
 * The keys one process of a cluster works with, loaded once at start from the files {@code ubft keygen} wrote
 * (see {@link KeyFiles}): its own {@link SigningKey} and the {@link PublicKeys} of every replica and client.
 * Memory nodes have no keys.
 *
 * <p>{@link #load} checks everything before returning, so that a bad key stops the process at start rather than
 * making its signatures fail later: every key file must exist, be readable and hold one Ed25519 key of Tink template
 * {@code ED25519_RAW}; the private key must be accessible by its owner only (0600), belong to this node (its public
 * half is this node's public key file, not another node's) and be consistent; no two nodes may share a key. Each
 * failure is a {@link ConfigException} naming the file and the node and saying how to fix it, which the
 * {@code ubft} command prints as one line (exit code 2).
 *
 * <p>Immutable and safe to share between threads; make one {@link Ed25519Signer} and {@link Ed25519Verifier} per
 * thread.
 */
public final class ClusterKeys {
    private final SigningKey signingKey;
    private final PublicKeys publicKeys;

    private ClusterKeys(SigningKey signingKey, PublicKeys publicKeys) {
        this.signingKey = signingKey;
        this.publicKeys = publicKeys;
    }

    /**
     * Loads the private key of {@code selfNodeId} and the public key of every node of {@code config}.
     *
     * @throws IllegalArgumentException if {@code selfNodeId} is not a node of the cluster
     * @throws ConfigException          if a key file is missing, unreadable, malformed or does not match (see the
     *                                  class comment)
     */
    public static ClusterKeys load(ClusterConfig config, int selfNodeId) {
        if (!config.contains(selfNodeId)) {
            throw new IllegalArgumentException(NodeId.toString(selfNodeId) + " is not a node of cluster '"
                    + config.clusterName() + "' (" + config.source() + ")");
        }
        KeyFileReader reader = new KeyFileReader(config);
        int[] nodes = KeyFiles.keyedNodes(config);
        byte[][] publicKeys = new byte[nodes.length][];
        PublicKeys.Builder table = PublicKeys.builder();
        for (int i = 0; i < nodes.length; i++) {
            publicKeys[i] = reader.readPublic(nodes[i]);
            checkUnique(config, reader, nodes, publicKeys, i);
            try {
                table.add(nodes[i], publicKeys[i]);
            } catch (IllegalArgumentException e) {
                throw new ConfigException(KeyFiles.publicKeyFile(config.keysDir(), nodes[i]).toString(),
                        e.getMessage() + "; " + reader.regenerate());
            }
        }
        TinkKeySets.RawPrivateKey raw = reader.readPrivate(selfNodeId);
        SigningKey key = SigningKey.fromSeed(selfNodeId, raw.seed);
        Path privateFile = KeyFiles.privateKeyFile(config.keysDir(), selfNodeId);
        if (!key.matchesPublicKey(raw.publicKey)) {
            throw new ConfigException(privateFile.toString(), "the private key file of " + NodeId.toString(selfNodeId)
                    + " is corrupt: its public part does not belong to its private key; " + reader.regenerate());
        }
        checkOwnKey(config, reader, selfNodeId, key, nodes, publicKeys);
        return new ClusterKeys(key, table.build());
    }

    private static void checkUnique(ClusterConfig config, KeyFileReader reader, int[] nodes, byte[][] keys, int i) {
        for (int j = 0; j < i; j++) {
            if (Arrays.equals(keys[j], keys[i])) {
                throw new ConfigException(KeyFiles.publicKeyFile(config.keysDir(), nodes[i]).toString(),
                        "the public key of " + NodeId.toString(nodes[i]) + " is the same as that of "
                                + NodeId.toString(nodes[j]) + " (" + KeyFiles.publicKeyFile(config.keysDir(), nodes[j])
                                + "); every node needs its own key pair: " + reader.regenerate());
            }
        }
    }

    private static void checkOwnKey(ClusterConfig config, KeyFileReader reader, int self, SigningKey key,
                                    int[] nodes, byte[][] publicKeys) {
        Path privateFile = KeyFiles.privateKeyFile(config.keysDir(), self);
        Path publicFile = KeyFiles.publicKeyFile(config.keysDir(), self);
        for (int i = 0; i < nodes.length; i++) {
            if (key.matchesPublicKey(publicKeys[i])) {
                if (nodes[i] == self) {
                    return;
                }
                throw new ConfigException(privateFile.toString(), "the private key file of " + NodeId.toString(self)
                        + " holds the private key of " + NodeId.toString(nodes[i])
                        + ", not of " + NodeId.toString(self) + " (it matches " + KeyFiles.publicKeyFile(config.keysDir(),
                        nodes[i]) + "); put " + NodeId.toString(self) + "'s own private key file here");
            }
        }
        throw new ConfigException(privateFile.toString(), "the private key of " + NodeId.toString(self)
                + " does not match its public key " + publicFile + " (the two come from different keygen runs);"
                + " restore the matching pair, or " + reader.regenerate());
    }

    /** The node these keys were loaded for. */
    public int selfNodeId() {
        return signingKey.nodeId();
    }

    /** This node's private key. */
    public SigningKey signingKey() {
        return signingKey;
    }

    /** The public key of every replica and client, this node's included. */
    public PublicKeys publicKeys() {
        return publicKeys;
    }

    /** A signer with this node's key, for one thread. */
    public Ed25519Signer newSigner() {
        return signingKey.newSigner();
    }

    /** A verifier of every node's signatures, for one thread. */
    public Ed25519Verifier newVerifier() {
        return publicKeys.newVerifier();
    }

    @Override
    public String toString() {
        return "ClusterKeys[" + NodeId.toString(selfNodeId()) + ", " + publicKeys + "]";
    }
}
