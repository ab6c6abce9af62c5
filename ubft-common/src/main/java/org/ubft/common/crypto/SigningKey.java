package org.ubft.common.crypto;

import org.bouncycastle.math.ec.rfc8032.Ed25519;
import org.ubft.common.NodeId;

import java.security.SecureRandom;
import java.util.Arrays;

/**
 * One node's Ed25519 private key (the 32-byte RFC 8032 seed) with its public key, immutable and safe to share
 * between threads. Signatures are plain RFC 8032 Ed25519 (no context, no prehash, no prefix), made by Bouncy
 * Castle's low-level {@link Ed25519}; the public key is computed once here, so signing does not recompute it.
 *
 * <p>Load a node's key with {@link ClusterKeys#load}; {@link #fromSeed} and {@link #generate} are for tests
 * and the simulator. {@link #toString()} never shows the secret.
 */
public final class SigningKey {
    /** Bytes of an Ed25519 private key (seed). */
    public static final int SEED_BYTES = Ed25519.SECRET_KEY_SIZE;

    private final int nodeId;
    private final byte[] seed;
    private final byte[] publicKey;

    private SigningKey(int nodeId, byte[] seed) {
        this.nodeId = nodeId;
        this.seed = seed;
        this.publicKey = new byte[PublicKeys.PUBLIC_KEY_BYTES];
        Ed25519.generatePublicKey(seed, 0, publicKey, 0);
    }

    /**
     * The key of node {@code nodeId} with the RFC 8032 private key {@code seed} (copied).
     *
     * @throws IllegalArgumentException if {@code seed} is not {@value #SEED_BYTES} bytes
     */
    public static SigningKey fromSeed(int nodeId, byte[] seed) {
        if (seed == null || seed.length != SEED_BYTES) {
            throw new IllegalArgumentException("an Ed25519 private key has " + SEED_BYTES + " bytes, got "
                    + (seed == null ? "none" : seed.length));
        }
        return new SigningKey(nodeId, seed.clone());
    }

    /** A fresh key for node {@code nodeId} drawn from {@code random}. */
    public static SigningKey generate(int nodeId, SecureRandom random) {
        byte[] seed = new byte[SEED_BYTES];
        Ed25519.generatePrivateKey(random, seed);
        return new SigningKey(nodeId, seed);
    }

    /** The node this key belongs to, a {@link NodeId} value. */
    public int nodeId() {
        return nodeId;
    }

    /**
     * A copy of the {@value #SEED_BYTES}-byte private key, for the one component outside this package that needs
     * it raw: the tcp fabric's connection authenticator, which signs its key agreement with it. Clear the copy
     * once it has been handed over.
     */
    public byte[] seed() {
        return seed.clone();
    }

    /** A copy of the {@value PublicKeys#PUBLIC_KEY_BYTES}-byte public key. */
    public byte[] publicKey() {
        return publicKey.clone();
    }

    /** Whether {@code candidate} is this key's public key. */
    public boolean matchesPublicKey(byte[] candidate) {
        return Arrays.equals(publicKey, candidate);
    }

    /**
     * Signs {@code length} bytes of {@code message} from {@code offset} and writes the
     * {@value Ed25519Signer#SIGNATURE_BYTES}-byte signature into {@code signature} at {@code signatureOffset}.
     * Thread-safe; Bouncy Castle allocates a little working memory per call.
     *
     * @throws IndexOutOfBoundsException if a range lies outside its array
     */
    public void sign(byte[] message, int offset, int length, byte[] signature, int signatureOffset) {
        if (!BufferRanges.inBounds(message, offset, length)) {
            throw new IndexOutOfBoundsException("message range " + offset + "+" + length + " outside "
                    + (message == null ? "null" : message.length + " bytes"));
        }
        if (!BufferRanges.inBounds(signature, signatureOffset, Ed25519Signer.SIGNATURE_BYTES)) {
            throw new IndexOutOfBoundsException("no room for a " + Ed25519Signer.SIGNATURE_BYTES
                    + "-byte signature at " + signatureOffset);
        }
        Ed25519.sign(seed, 0, publicKey, 0, message, offset, length, signature, signatureOffset);
    }

    /** A signer over Agrona buffers for one thread. */
    public Ed25519Signer newSigner() {
        return new Ed25519Signer(this);
    }

    @Override
    public String toString() {
        return "SigningKey[" + NodeId.toString(nodeId) + "]";
    }
}
