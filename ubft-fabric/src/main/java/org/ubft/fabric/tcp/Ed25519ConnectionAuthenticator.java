package org.ubft.fabric.tcp;

import org.bouncycastle.crypto.params.Ed25519PrivateKeyParameters;
import org.bouncycastle.crypto.params.Ed25519PublicKeyParameters;
import org.bouncycastle.crypto.signers.Ed25519Signer;
import org.ubft.common.NodeId;

import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Objects;
import java.util.function.IntFunction;

/**
 * Authenticates tcp fabric connections with the nodes' Ed25519 identity keys (RFC 8032): every node
 * holds its own private key and knows the other nodes' public keys. When a connection opens, both
 * ends exchange fresh nonces and X25519 ephemeral keys and each signs the whole exchange with its
 * identity key ({@link Handshake}); the connection is bound to the peer's node id only once that
 * signature verifies under the public key known for that id, and every later frame carries a MAC
 * under a key derived from the ephemeral key agreement ({@link FrameMac}).
 *
 * <p>Refused, closed and counted ({@link TcpCounters.Counter#AUTH_FAILURES}) before any request is
 * served or sent: a peer announcing a node id with no known public key, a peer whose signature does
 * not verify (it does not hold that id's private key), an owner that answers with another node id
 * than the one dialled, and an unauthenticated peer. The dialling side verifies the owner before it
 * signs or sends anything but its hello, so an impostor owner learns no request.
 *
 * <p>What it does not give: confidentiality (frames are authenticated, not encrypted; region bytes
 * cross the network in clear, as on RDMA), and protection from an attacker that can open
 * connections and claim a known id: each such connection costs the owner one X25519 agreement and
 * one Ed25519 signature before it is refused, bounded by {@link TcpOptions#maxConnections()} and
 * {@link TcpOptions#handshakeTimeoutNanos()}.
 *
 * <p>Immutable and thread-safe; the private key is copied at construction.
 */
public final class Ed25519ConnectionAuthenticator implements ConnectionAuthenticator {
    /** Bytes of an Ed25519 private key (the RFC 8032 seed). */
    public static final int PRIVATE_KEY_LENGTH = Ed25519PrivateKeyParameters.KEY_SIZE;
    /** Bytes of an Ed25519 public key (RFC 8032 encoding). */
    public static final int PUBLIC_KEY_LENGTH = Ed25519PublicKeyParameters.KEY_SIZE;

    private final int localNode;
    private final Ed25519PrivateKeyParameters privateKey;
    private final Ed25519PublicKeyParameters publicKey;
    private final IntFunction<byte[]> peerPublicKeys;
    private final SecureRandom random = new SecureRandom();

    /**
     * @param localNode      this node's id; must be the {@link TcpOptions#localNode()} of the fabric that
     *                       uses this authenticator
     * @param privateKey     this node's Ed25519 private key, {@value #PRIVATE_KEY_LENGTH} bytes (copied)
     * @param peerPublicKeys node id → that node's Ed25519 public key ({@value #PUBLIC_KEY_LENGTH} bytes), or
     *                       null if the id is not a known node. Asked on the network thread at every
     *                       handshake, so it must be thread-safe and quick; a key of the wrong length,
     *                       an invalid key or an exception counts as unknown.
     * @throws IllegalArgumentException if {@code localNode} is not a valid node id, the private key does
     *                                  not have {@value #PRIVATE_KEY_LENGTH} bytes, or
     *                                  {@code peerPublicKeys} knows a public key for {@code localNode}
     *                                  that is not the one of {@code privateKey}
     */
    public Ed25519ConnectionAuthenticator(int localNode, byte[] privateKey, IntFunction<byte[]> peerPublicKeys) {
        if (!NodeId.isValid(localNode)) {
            throw new IllegalArgumentException("invalid node id " + localNode);
        }
        Objects.requireNonNull(privateKey, "privateKey");
        this.peerPublicKeys = Objects.requireNonNull(peerPublicKeys, "peerPublicKeys");
        if (privateKey.length != PRIVATE_KEY_LENGTH) {
            throw new IllegalArgumentException("an Ed25519 private key has " + PRIVATE_KEY_LENGTH + " bytes, not "
                + privateKey.length);
        }
        this.localNode = localNode;
        this.privateKey = new Ed25519PrivateKeyParameters(privateKey.clone(), 0);
        this.publicKey = this.privateKey.generatePublicKey();
        byte[] configured = peerPublicKeys.apply(localNode);
        if (configured != null && !Arrays.equals(configured, publicKey.getEncoded())) {
            throw new IllegalArgumentException("the private key of " + NodeId.toString(localNode)
                + " does not match the public key known for it");
        }
    }

    /** The node whose key this is. */
    public int localNode() {
        return localNode;
    }

    /**
     * Checks that these are the keys of {@code node}, the node of the fabric they are set on (tcp and rdma options);
     * otherwise throws {@link IllegalArgumentException}: "{@code what} holds the key of X, not of Y".
     */
    public void requireKeyOf(int node, String what) {
        if (localNode != node) {
            throw new IllegalArgumentException(what + " holds the key of " + NodeId.toString(localNode) + ", not of "
                + NodeId.toString(node));
        }
    }

    /** This node's public key (a copy), as the other nodes must know it. */
    public byte[] publicKey() {
        return publicKey.getEncoded();
    }

    @Override
    public boolean authenticates() {
        return true;
    }

    /** Public key of {@code node}, or null if unknown or unusable. */
    Ed25519PublicKeyParameters peerKey(int node) {
        try {
            byte[] key = peerPublicKeys.apply(node);
            if (key == null || key.length != PUBLIC_KEY_LENGTH) {
                return null;
            }
            return new Ed25519PublicKeyParameters(key, 0);
        } catch (RuntimeException e) {
            return null;
        }
    }

    SecureRandom random() {
        return random;
    }

    /** Signs {@code message} with this node's private key (64 bytes). */
    byte[] sign(byte[] message) {
        Ed25519Signer signer = new Ed25519Signer();
        signer.init(true, privateKey);
        signer.update(message, 0, message.length);
        return signer.generateSignature();
    }

    /** True if {@code signature} is {@code key}'s signature of {@code message}. */
    static boolean verify(Ed25519PublicKeyParameters key, byte[] message, byte[] signature) {
        Ed25519Signer verifier = new Ed25519Signer();
        verifier.init(false, key);
        verifier.update(message, 0, message.length);
        return verifier.verifySignature(signature);
    }

    @Override
    public String toString() {
        return "Ed25519ConnectionAuthenticator{" + NodeId.toString(localNode) + "}";
    }
}
