package org.ubft.ctbcast.core;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.bouncycastle.math.ec.rfc8032.Ed25519;

/**
 * A {@link SignaturePort} that signs and verifies with Bouncy Castle's Ed25519 on the caller's thread, for
 * tests and for wiring before the crypto worker pool exists. Requests wait in a bounded queue (refused when it
 * is full, like the pool's) and run in {@link #doWork()}, which hands results to the bound listener, so the
 * core sees results as later events, as it will with the pool. Allocates nothing per request.
 */
public final class InlineEd25519Signatures implements SignaturePort {
    /** Longest data a request may carry. */
    public static final int MAX_DATA_BYTES = 256;
    private static final int SIG = SignedStatement.SIGNATURE_BYTES;
    private static final byte SIGN = 1;
    private static final byte VERIFY = 2;

    private final byte[] privateKey;
    private final byte[][] publicKeys;
    private final int capacity;
    private final byte[] kind;
    private final long[] token;
    private final int[] signer;
    private final int[] dataLength;
    private final byte[] data;
    private final byte[] signatures;
    private final byte[] signatureOut = new byte[SIG];
    private final UnsafeBuffer signatureView = new UnsafeBuffer(signatureOut);
    private int head;
    private int size;
    private SignatureListener listener;
    private long signed;
    private long verified;

    /**
     * @param privateKey this replica's 32-byte Ed25519 private key
     * @param publicKeys every replica's 32-byte Ed25519 public key, by replica index
     * @param capacity   requests that may wait at once
     */
    public InlineEd25519Signatures(byte[] privateKey, byte[][] publicKeys, int capacity) {
        if (privateKey.length != Ed25519.SECRET_KEY_SIZE) {
            throw new IllegalArgumentException("private key must be " + Ed25519.SECRET_KEY_SIZE + " bytes");
        }
        for (byte[] key : publicKeys) {
            if (key.length != Ed25519.PUBLIC_KEY_SIZE) {
                throw new IllegalArgumentException("public keys must be " + Ed25519.PUBLIC_KEY_SIZE + " bytes");
            }
        }
        this.privateKey = privateKey.clone();
        this.publicKeys = new byte[publicKeys.length][];
        for (int i = 0; i < publicKeys.length; i++) {
            this.publicKeys[i] = publicKeys[i].clone();
        }
        this.capacity = capacity;
        kind = new byte[capacity];
        token = new long[capacity];
        signer = new int[capacity];
        dataLength = new int[capacity];
        data = new byte[capacity * MAX_DATA_BYTES];
        signatures = new byte[capacity * SIG];
    }

    /** The public key of a 32-byte Ed25519 private key. */
    public static byte[] publicKey(byte[] privateKey) {
        byte[] pk = new byte[Ed25519.PUBLIC_KEY_SIZE];
        Ed25519.generatePublicKey(privateKey, 0, pk, 0);
        return pk;
    }

    public void bind(SignatureListener listener) {
        this.listener = listener;
    }

    @Override
    public boolean requestSign(long requestToken, DirectBuffer source, int offset, int length) {
        int i = enqueue(SIGN, requestToken, -1, source, offset, length);
        return i >= 0;
    }

    @Override
    public boolean requestVerify(long requestToken, int signerIndex, DirectBuffer source, int offset, int length,
                                 DirectBuffer signature, int sigOffset) {
        int i = enqueue(VERIFY, requestToken, signerIndex, source, offset, length);
        if (i < 0) {
            return false;
        }
        signature.getBytes(sigOffset, signatures, i * SIG, SIG);
        return true;
    }

    /** Runs the requests waiting now and hands their results to the listener; returns how many. */
    public int doWork() {
        int work = size;
        for (int done = 0; done < work; done++) {
            int i = head;
            head = (head + 1) % capacity;
            size--;
            if (kind[i] == SIGN) {
                Ed25519.sign(privateKey, 0, data, i * MAX_DATA_BYTES, dataLength[i], signatureOut, 0);
                signed++;
                listener.onSigned(token[i], signatureView, 0);
            } else {
                int s = signer[i];
                boolean ok = s >= 0 && s < publicKeys.length
                    && Ed25519.verify(signatures, i * SIG, publicKeys[s], 0, data, i * MAX_DATA_BYTES, dataLength[i]);
                verified++;
                listener.onVerified(token[i], ok);
            }
        }
        return work;
    }

    /** Requests waiting. */
    public int pending() {
        return size;
    }

    public long signedCount() {
        return signed;
    }

    public long verifiedCount() {
        return verified;
    }

    private int enqueue(byte what, long requestToken, int signerIndex, DirectBuffer source, int offset, int length) {
        if (length < 0 || length > MAX_DATA_BYTES) {
            throw new IllegalArgumentException("data of " + length + " bytes; at most " + MAX_DATA_BYTES);
        }
        if (size == capacity) {
            return -1;
        }
        int i = (head + size) % capacity;
        size++;
        kind[i] = what;
        token[i] = requestToken;
        signer[i] = signerIndex;
        dataLength[i] = length;
        source.getBytes(offset, data, i * MAX_DATA_BYTES, length);
        return i;
    }
}
