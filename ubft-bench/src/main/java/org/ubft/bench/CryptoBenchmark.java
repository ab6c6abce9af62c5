package org.ubft.bench;

import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.ubft.common.NodeId;
import org.ubft.common.crypto.Ed25519Signer;
import org.ubft.common.crypto.Ed25519Verifier;
import org.ubft.common.crypto.Fingerprints;
import org.ubft.common.crypto.PublicKeys;
import org.ubft.common.crypto.SigningKey;

import java.security.SecureRandom;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * The crypto of the slow path through the project's API ({@code org.ubft.common.crypto}): Ed25519 signing and
 * verification (Bouncy Castle) of a 32 B message (a fingerprint) and a 1 KiB one, and SHA-256 fingerprints
 * (JDK) of 32 B, 1 KiB and 8 KiB (the default largest channel message). Heap buffers, one thread.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class CryptoBenchmark {
    private static final int SIGNER = NodeId.replica(0);

    /** A key pair, a message of each size and its signature. */
    @State(Scope.Thread)
    public static class Keys {
        Ed25519Signer signer;
        Ed25519Verifier verifier;
        final UnsafeBuffer msg32 = new UnsafeBuffer(new byte[32]);
        final UnsafeBuffer msg1k = new UnsafeBuffer(new byte[1024]);
        final UnsafeBuffer msg8k = new UnsafeBuffer(new byte[8192]);
        final UnsafeBuffer sig32 = new UnsafeBuffer(new byte[Ed25519Signer.SIGNATURE_BYTES]);
        final UnsafeBuffer sig1k = new UnsafeBuffer(new byte[Ed25519Signer.SIGNATURE_BYTES]);
        final UnsafeBuffer out = new UnsafeBuffer(new byte[Ed25519Signer.SIGNATURE_BYTES]);
        final Fingerprints fingerprints = new Fingerprints();

        @Setup(Level.Trial)
        public void setUp() {
            SigningKey key = SigningKey.generate(SIGNER, new SecureRandom());
            signer = key.newSigner();
            verifier = PublicKeys.builder().add(SIGNER, key.publicKey()).build().newVerifier();
            Random random = new Random(1);
            for (UnsafeBuffer b : new UnsafeBuffer[] {msg32, msg1k, msg8k}) {
                byte[] bytes = new byte[b.capacity()];
                random.nextBytes(bytes);
                b.putBytes(0, bytes);
            }
            signer.sign(msg32, 0, 32, sig32, 0);
            signer.sign(msg1k, 0, 1024, sig1k, 0);
        }
    }

    @Benchmark
    public UnsafeBuffer sign32(Keys k) {
        k.signer.sign(k.msg32, 0, 32, k.out, 0);
        return k.out;
    }

    @Benchmark
    public UnsafeBuffer sign1k(Keys k) {
        k.signer.sign(k.msg1k, 0, 1024, k.out, 0);
        return k.out;
    }

    @Benchmark
    public boolean verify32(Keys k) {
        return k.verifier.verify(SIGNER, k.msg32, 0, 32, k.sig32, 0);
    }

    @Benchmark
    public boolean verify1k(Keys k) {
        return k.verifier.verify(SIGNER, k.msg1k, 0, 1024, k.sig1k, 0);
    }

    @Benchmark
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    public UnsafeBuffer fingerprint32(Keys k) {
        k.fingerprints.fingerprint(k.msg32, 0, 32, k.out, 0);
        return k.out;
    }

    @Benchmark
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    public UnsafeBuffer fingerprint1k(Keys k) {
        k.fingerprints.fingerprint(k.msg1k, 0, 1024, k.out, 0);
        return k.out;
    }

    @Benchmark
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    public UnsafeBuffer fingerprint8k(Keys k) {
        k.fingerprints.fingerprint(k.msg8k, 0, 8192, k.out, 0);
        return k.out;
    }
}
