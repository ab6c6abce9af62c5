package org.ubft.common.crypto;

import org.ubft.common.NodeId;
import org.ubft.common.config.ClusterConfig;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.IntStream;

/**
 * Where the key files of a cluster live, under its {@code keys.dir}:
 * <ul>
 *   <li>{@code <keys.dir>/<node>.private.json}: the private key of one node, for example
 *       {@code replica-0.private.json}, as a <b>cleartext</b> Tink JSON key set. It is protected by its file
 *       permissions only (0600, owner read and write); it belongs on that node's host alone.</li>
 *   <li>{@code <keys.dir>/public/<node>.public.json}: the public key of every node, as a Tink JSON key set without
 *       secrets; every process of the cluster reads all of them.</li>
 * </ul>
 * Every replica and client has a key pair (Ed25519, Tink template {@value TinkKeySets#TEMPLATE}); memory nodes
 * have none, since they are crash-only and never sign.
 */
public final class KeyFiles {
    /** Sub-directory of {@code keys.dir} holding the public keys. */
    public static final String PUBLIC_DIR = "public";
    /** File name suffix of a private key. */
    public static final String PRIVATE_SUFFIX = ".private.json";
    /** File name suffix of a public key. */
    public static final String PUBLIC_SUFFIX = ".public.json";

    private KeyFiles() {
    }

    /** The private key file of node {@code nodeId} under {@code keysDir}. */
    public static Path privateKeyFile(Path keysDir, int nodeId) {
        return keysDir.resolve(NodeId.toString(nodeId) + PRIVATE_SUFFIX);
    }

    /** The public key file of node {@code nodeId} under {@code keysDir}. */
    public static Path publicKeyFile(Path keysDir, int nodeId) {
        return keysDir.resolve(PUBLIC_DIR).resolve(NodeId.toString(nodeId) + PUBLIC_SUFFIX);
    }

    /**
     * The nodes of {@code config} that have keys: every replica, every memory node, every client. Replicas and
     * clients sign protocol messages; memory nodes never do, but every node proves its identity with its key
     * when it opens an authenticated fabric connection (a memory node must know which replica is writing).
     */
    public static int[] keyedNodes(ClusterConfig config) {
        return IntStream.concat(IntStream.concat(Arrays.stream(config.replicaIds()), Arrays.stream(config.memnodeIds())),
            Arrays.stream(config.clientIds())).toArray();
    }

    /** The command that creates the keys of {@code config}'s cluster, for error messages. */
    static String keygenCommand(ClusterConfig config) {
        String file = ClusterConfig.BUILDER_SOURCE.equals(config.source()) ? "<cluster file>" : config.source();
        return "bin/ubft keygen --config " + file;
    }
}
