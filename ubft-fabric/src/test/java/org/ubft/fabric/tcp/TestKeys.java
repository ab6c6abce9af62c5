package org.ubft.fabric.tcp;

import org.bouncycastle.crypto.params.Ed25519PrivateKeyParameters;

import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Test helper: Ed25519 identity keys of a test's nodes, made with Bouncy Castle when a node is first
 * given its key. A node that was never given one is unknown: {@link #publicKey} returns null for it.
 */
public final class TestKeys {
    private static final SecureRandom RANDOM = new SecureRandom();

    private record KeyPair(byte[] privateKey, byte[] publicKey) {
    }

    private final Map<Integer, KeyPair> keys = new ConcurrentHashMap<>();

    /** A fresh Ed25519 private key (32 bytes). */
    public static byte[] newPrivateKey() {
        byte[] key = new byte[Ed25519ConnectionAuthenticator.PRIVATE_KEY_LENGTH];
        RANDOM.nextBytes(key);
        return key;
    }

    /** The public key of {@code privateKey}. */
    public static byte[] publicKeyOf(byte[] privateKey) {
        return new Ed25519PrivateKeyParameters(privateKey, 0).generatePublicKey().getEncoded();
    }

    public static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }

    public static byte[] unhex(String hex) {
        return HexFormat.of().parseHex(hex);
    }

    /** {@code node}'s private key, made on first use (which makes the node known). */
    public byte[] privateKey(int node) {
        return pair(node).privateKey().clone();
    }

    /** {@code node}'s public key, or null if the node was never given a key. */
    public byte[] publicKey(int node) {
        KeyPair pair = keys.get(node);
        return pair == null ? null : pair.publicKey().clone();
    }

    /** An authenticator for {@code node} with its key, knowing every key given so far and later. */
    public Ed25519ConnectionAuthenticator authenticator(int node) {
        return new Ed25519ConnectionAuthenticator(node, privateKey(node), this::publicKey);
    }

    private KeyPair pair(int node) {
        return keys.computeIfAbsent(node, n -> {
            byte[] privateKey = newPrivateKey();
            return new KeyPair(privateKey, publicKeyOf(privateKey));
        });
    }
}
