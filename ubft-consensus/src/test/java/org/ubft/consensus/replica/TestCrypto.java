package org.ubft.consensus.replica;

import org.ubft.common.NodeId;
import org.ubft.common.crypto.PublicKeys;
import org.ubft.common.crypto.SigningKey;

/** Deterministic Ed25519 keys for replicas and clients of a test cluster. */
final class TestCrypto implements ConsensusCrypto {
    /** Replica signature verifications by all TestCrypto instances of this JVM's current test (reset by tests). */
    static final java.util.concurrent.atomic.AtomicLong REPLICA_VERIFICATIONS = new java.util.concurrent.atomic.AtomicLong();
    /** Client signature verifications by all TestCrypto instances (reset by tests). */
    static final java.util.concurrent.atomic.AtomicLong CLIENT_VERIFICATIONS = new java.util.concurrent.atomic.AtomicLong();
    /** Signatures made by all TestCrypto instances (reset by tests). */
    static final java.util.concurrent.atomic.AtomicLong SIGNATURES = new java.util.concurrent.atomic.AtomicLong();
    private final SigningKey key;
    private final PublicKeys keys;

    private TestCrypto(SigningKey key, PublicKeys keys) {
        this.key = key;
        this.keys = keys;
    }

    static SigningKey replicaKey(int i) {
        return SigningKey.fromSeed(NodeId.replica(i), seed(1, i));
    }

    static SigningKey clientKey(int i) {
        return SigningKey.fromSeed(NodeId.client(i), seed(2, i));
    }

    private static byte[] seed(int role, int i) {
        byte[] s = new byte[32];
        s[0] = (byte) role;
        s[1] = (byte) i;
        s[2] = 42;
        return s;
    }

    static PublicKeys publicKeys(int n, int clients) {
        PublicKeys.Builder b = PublicKeys.builder();
        for (int i = 0; i < n; i++) {
            b.add(NodeId.replica(i), replicaKey(i).publicKey());
        }
        for (int i = 0; i < clients; i++) {
            b.add(NodeId.client(i), clientKey(i).publicKey());
        }
        return b.build();
    }

    static TestCrypto forReplica(int i, PublicKeys keys) {
        return new TestCrypto(replicaKey(i), keys);
    }

    /** Signatures made with this instance (one replica's). */
    long signatures;

    @Override
    public void sign(byte[] message, int offset, int length, byte[] signature, int at) {
        SIGNATURES.incrementAndGet();
        signatures++;
        key.sign(message, offset, length, signature, at);
    }

    /** Verifications of replica signatures made with this instance (one replica's). */
    long verifications;

    /** A statement's bytes 17..48 (a CERTIFY's digest) to watch for, or null; {@link #watchedChecks} counts them. */
    byte[] watched;
    long watchedChecks;

    @Override
    public boolean verifyReplica(int replica, byte[] message, int offset, int length, byte[] signature, int at) {
        REPLICA_VERIFICATIONS.incrementAndGet();
        verifications++;
        if (watched != null && length >= 17 + watched.length
            && java.util.Arrays.equals(message, offset + 17, offset + 17 + watched.length, watched, 0, watched.length)) {
            watchedChecks++;
        }
        return keys.verify(NodeId.replica(replica), message, offset, length, signature, at, 64);
    }

    @Override
    public boolean verifyClient(int client, byte[] message, int offset, int length, byte[] signature, int at) {
        CLIENT_VERIFICATIONS.incrementAndGet();
        return keys.verify(NodeId.client(client), message, offset, length, signature, at, 64);
    }
}
