package org.ubft.common.crypto;

import org.bouncycastle.crypto.params.Ed25519PublicKeyParameters;
import org.bouncycastle.math.ec.rfc8032.Ed25519;
import org.ubft.common.NodeId;

import java.util.Map;
import java.util.TreeMap;

/**
 * The Ed25519 public key of every node that signs (replicas and clients), each decoded once into Bouncy Castle's
 * {@link Ed25519PublicKeyParameters} and looked up by {@link NodeId} through arrays (no boxing, no hashing).
 * Immutable and safe to share between threads; build one with {@link #builder()} or load the cluster's with
 * {@link ClusterKeys#load}.
 *
 * <p>{@link #verify} treats everything it is given as peer data: an unknown or invalid node id, a signature of
 * the wrong length, a range outside its array or a signature that does not verify all return {@code false};
 * nothing a peer sends makes it throw.
 */
public final class PublicKeys {
    /** Bytes of an Ed25519 public key. */
    public static final int PUBLIC_KEY_BYTES = Ed25519.PUBLIC_KEY_SIZE;

    private static final int ROLES = NodeId.Role.values().length;

    /** By role ordinal, then node index; a null entry is a node without a key. */
    private final Ed25519PublicKeyParameters[][] keys;
    private final int size;

    private PublicKeys(Ed25519PublicKeyParameters[][] keys, int size) {
        this.keys = keys;
        this.size = size;
    }

    /** A builder of a key table. */
    public static Builder builder() {
        return new Builder();
    }

    /** Number of nodes with a key. */
    public int size() {
        return size;
    }

    /** Whether node {@code nodeId} has a key here. */
    public boolean contains(int nodeId) {
        return lookup(nodeId) != null;
    }

    /** A copy of node {@code nodeId}'s public key, or {@code null} if it has none here. */
    public byte[] publicKey(int nodeId) {
        Ed25519PublicKeyParameters key = lookup(nodeId);
        return key == null ? null : key.getEncoded();
    }

    /**
     * Whether {@code signature} (from {@code signatureOffset}, {@code signatureLength} bytes) is node
     * {@code nodeId}'s Ed25519 signature of {@code length} bytes of {@code message} from {@code offset}.
     * Thread-safe. Never throws on bad input: see the class comment.
     */
    public boolean verify(int nodeId, byte[] message, int offset, int length,
                          byte[] signature, int signatureOffset, int signatureLength) {
        Ed25519PublicKeyParameters key = lookup(nodeId);
        if (key == null || signatureLength != Ed25519Signer.SIGNATURE_BYTES
                || !BufferRanges.inBounds(message, offset, length)
                || !BufferRanges.inBounds(signature, signatureOffset, signatureLength)) {
            return false;
        }
        try {
            return key.verify(Ed25519.Algorithm.Ed25519, null, message, offset, length, signature, signatureOffset);
        } catch (RuntimeException e) {
            return false; // a malformed signature is data, not an error
        }
    }

    /** A verifier over Agrona buffers for one thread. */
    public Ed25519Verifier newVerifier() {
        return new Ed25519Verifier(this);
    }

    private Ed25519PublicKeyParameters lookup(int nodeId) {
        NodeId.Role role = NodeId.role(nodeId);
        if (role == null) {
            return null;
        }
        Ed25519PublicKeyParameters[] ofRole = keys[role.ordinal()];
        int index = NodeId.index(nodeId);
        return index < ofRole.length ? ofRole[index] : null;
    }

    @Override
    public String toString() {
        return "PublicKeys[" + size + " nodes]";
    }

    /** Collects node ids and their encoded public keys; {@link #build()} makes the immutable table. */
    public static final class Builder {
        private final Map<Integer, Ed25519PublicKeyParameters> keys = new TreeMap<>();

        private Builder() {
        }

        /**
         * Adds node {@code nodeId}'s {@value #PUBLIC_KEY_BYTES}-byte encoded public key.
         *
         * @throws IllegalArgumentException if the node id is not valid, the node already has a key, or the bytes
         *                                  are not an Ed25519 public key (wrong length or not a curve point)
         */
        public Builder add(int nodeId, byte[] publicKey) {
            if (!NodeId.isValid(nodeId)) {
                throw new IllegalArgumentException("not a node id: " + NodeId.toString(nodeId));
            }
            if (keys.containsKey(nodeId)) {
                throw new IllegalArgumentException(NodeId.toString(nodeId) + " already has a public key");
            }
            keys.put(nodeId, decode(nodeId, publicKey));
            return this;
        }

        private static Ed25519PublicKeyParameters decode(int nodeId, byte[] publicKey) {
            if (publicKey == null || publicKey.length != PUBLIC_KEY_BYTES) {
                throw new IllegalArgumentException("the public key of " + NodeId.toString(nodeId) + " has "
                        + (publicKey == null ? "no" : String.valueOf(publicKey.length)) + " bytes; an Ed25519 public key has "
                        + PUBLIC_KEY_BYTES);
            }
            try {
                return new Ed25519PublicKeyParameters(publicKey, 0);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("the public key of " + NodeId.toString(nodeId)
                        + " is not a point of Ed25519", e);
            }
        }

        /** The table of every key added so far. */
        public PublicKeys build() {
            int[] counts = new int[ROLES];
            for (int nodeId : keys.keySet()) {
                int r = NodeId.role(nodeId).ordinal();
                counts[r] = Math.max(counts[r], NodeId.index(nodeId) + 1);
            }
            Ed25519PublicKeyParameters[][] table = new Ed25519PublicKeyParameters[ROLES][];
            for (int r = 0; r < ROLES; r++) {
                table[r] = new Ed25519PublicKeyParameters[counts[r]];
            }
            keys.forEach((nodeId, key) -> table[NodeId.role(nodeId).ordinal()][NodeId.index(nodeId)] = key);
            return new PublicKeys(table, keys.size());
        }
    }
}
