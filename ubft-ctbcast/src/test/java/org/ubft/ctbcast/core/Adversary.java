package org.ubft.ctbcast.core;

import org.ubft.common.crypto.Fingerprints;
import org.agrona.concurrent.UnsafeBuffer;
import org.bouncycastle.math.ec.rfc8032.Ed25519;

import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * What a {@link Behaviour} can use: its replica's index and private key (so it can sign whatever it likes as
 * itself, never as another), encoders of every CTBcast message, and the test TBcast to send extra messages.
 */
final class Adversary {
    final int me;
    final CtbcastConfig config;
    private final byte[] privateKey;
    private final TestTbcast tbcast;
    private final SplittableRandom random;
    private final Fingerprints fingerprints;
    private CtbcastCluster.ByzantineRegisters registers;

    Adversary(int me, CtbcastConfig config, byte[] privateKey, TestTbcast tbcast, SplittableRandom random) {
        this.me = me;
        this.config = config;
        this.privateKey = privateKey.clone();
        this.tbcast = tbcast;
        this.random = random;
        this.fingerprints = new Fingerprints();
    }

    void registers(CtbcastCluster.ByzantineRegisters registers) {
        this.registers = registers;
    }

    /** Writes {@code value} with timestamp k into this replica's register (broadcaster, k mod t), if k is new. */
    boolean writeRegister(int broadcaster, long k, byte[] value) {
        return registers.forceWrite(broadcaster, k, value);
    }

    SplittableRandom random() {
        return random;
    }

    /** Sends {@code message} to replica {@code to} as this replica, {@code delayNanos} later than TBcast would. */
    void inject(int to, byte[] message, long delayNanos) {
        tbcast.inject(me, to, message, delayNanos);
    }

    /** Sends {@code message} to every other replica. */
    void injectToAll(byte[] message, long delayNanos) {
        for (int q = 0; q < config.n(); q++) {
            if (q != me) {
                inject(q, message, delayNanos);
            }
        }
    }

    // ---- reading messages -------------------------------------------------------------------------------

    static byte type(byte[] message) {
        return message[CtbcastMessage.TYPE_OFFSET];
    }

    static int stream(byte[] message) {
        return buffer(message).getShort(CtbcastMessage.BROADCASTER_OFFSET, ByteOrder.LITTLE_ENDIAN) & 0xFFFF;
    }

    static long k(byte[] message) {
        return buffer(message).getLong(CtbcastMessage.K_OFFSET, ByteOrder.LITTLE_ENDIAN);
    }

    /** m of a LOCK or SIGNED. */
    static byte[] payload(byte[] message) {
        int from = CtbcastMessage.HEADER_BYTES + (type(message) == CtbcastMessage.SIGNED
            ? CtbcastMessage.SIGNATURE_BYTES : 0);
        return Arrays.copyOfRange(message, from, message.length);
    }

    // ---- writing messages -------------------------------------------------------------------------------

    byte[] lock(int stream, long k, byte[] m) {
        UnsafeBuffer out = out();
        return bytes(out, CtbcastMessage.encodeLock(out, 0, stream, k, new UnsafeBuffer(m), 0, m.length));
    }

    /** LOCKED(k, m) for {@code stream}, m inline or as its fingerprint per the configuration. */
    byte[] locked(int stream, long k, byte[] m) {
        UnsafeBuffer out = out();
        UnsafeBuffer body = new UnsafeBuffer(m);
        if (config.lockedByFingerprint(m.length)) {
            body = new UnsafeBuffer(fingerprint(m));
        }
        return bytes(out, CtbcastMessage.encodeLocked(out, 0, stream, k, m.length, body, 0,
            config.lockedBodyBytes(m.length)));
    }

    /** SIGNED(k, m, sig) of this replica's stream with a valid signature. */
    byte[] signed(long k, byte[] m) {
        return signedWith(me, k, m, signature(k, fingerprint(m)));
    }

    /** SIGNED(k, m, sig) claiming {@code stream}, with the given signature bytes. */
    byte[] signedWith(int stream, long k, byte[] m, byte[] signature) {
        UnsafeBuffer out = out();
        return bytes(out, CtbcastMessage.encodeSigned(out, 0, stream, k, new UnsafeBuffer(signature), 0,
            new UnsafeBuffer(m), 0, m.length));
    }

    /** A register value (k, fingerprint, signature). */
    static byte[] registerValue(long k, byte[] fingerprint, byte[] signature) {
        UnsafeBuffer v = new UnsafeBuffer(new byte[RegisterValue.BYTES]);
        RegisterValue.encode(v, 0, k, new UnsafeBuffer(fingerprint), 0, new UnsafeBuffer(signature), 0);
        return v.byteArray();
    }

    /** This replica's valid signature over (me, k, fingerprint). */
    byte[] signature(long k, byte[] fingerprint) {
        UnsafeBuffer statement = new UnsafeBuffer(new byte[SignedStatement.BYTES]);
        SignedStatement.encode(statement, 0, me, k, new UnsafeBuffer(fingerprint), 0);
        byte[] sig = new byte[SignedStatement.SIGNATURE_BYTES];
        Ed25519.sign(privateKey, 0, statement.byteArray(), 0, SignedStatement.BYTES, sig, 0);
        return sig;
    }

    byte[] fingerprint(byte[] m) {
        UnsafeBuffer fp = new UnsafeBuffer(new byte[Fingerprints.FINGERPRINT_BYTES]);
        fingerprints.fingerprint(new UnsafeBuffer(m), 0, m.length, fp, 0);
        return fp.byteArray();
    }

    byte[] randomBytes(int length) {
        byte[] b = new byte[length];
        for (int i = 0; i < length; i++) {
            b[i] = (byte) random.nextInt(256);
        }
        return b;
    }

    /** A message other than m, different for each {@code variant}, of the same length when m is not empty. */
    static byte[] variant(byte[] m, int variant) {
        byte[] v = m.length == 0 ? new byte[1] : m.clone();
        v[v.length - 1] ^= (byte) (variant + 1);
        return v;
    }

    private UnsafeBuffer out() {
        return new UnsafeBuffer(new byte[CtbcastMessage.maxEncodedBytes(config)]);
    }

    private static byte[] bytes(UnsafeBuffer out, int length) {
        return Arrays.copyOf(out.byteArray(), length);
    }

    private static UnsafeBuffer buffer(byte[] message) {
        return new UnsafeBuffer(message);
    }
}
