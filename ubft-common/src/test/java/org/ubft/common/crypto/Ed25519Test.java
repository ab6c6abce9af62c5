package org.ubft.common.crypto;

import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.ubft.common.NodeId;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class Ed25519Test {
    private static final HexFormat HEX = HexFormat.of();
    private static final int R0 = NodeId.replica(0);
    private static final int R1 = NodeId.replica(1);
    private static final int C0 = NodeId.client(0);

    private final SigningKey key0 = TestKeys.key(R0);
    private final SigningKey key1 = TestKeys.key(R1);
    private final PublicKeys keys = PublicKeys.builder()
            .add(R0, key0.publicKey()).add(R1, key1.publicKey()).build();

    /** RFC 8032 section 7.1, tests 1 and 2: the signatures are plain Ed25519. */
    @Test
    void signsTheRfc8032TestVectors() {
        checkVector("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
                "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", "",
                "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b");
        checkVector("4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
                "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", "72",
                "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00");
    }

    private static void checkVector(String seed, String publicKey, String message, String signature) {
        SigningKey key = SigningKey.fromSeed(C0, HEX.parseHex(seed));
        assertArrayEquals(HEX.parseHex(publicKey), key.publicKey());
        byte[] msg = HEX.parseHex(message);
        UnsafeBuffer sig = new UnsafeBuffer(new byte[64]);
        key.newSigner().sign(new UnsafeBuffer(msg), 0, msg.length, sig, 0);
        assertEquals(signature, HEX.formatHex(sig.byteArray()));
        PublicKeys table = PublicKeys.builder().add(C0, key.publicKey()).build();
        assertTrue(table.newVerifier().verify(C0, new UnsafeBuffer(msg), 0, msg.length, sig, 0));
    }

    @Test
    void roundTripOnHeapDirectAndOffsetBuffers() {
        byte[] text = "a CTBcast SIGNED message".getBytes(StandardCharsets.US_ASCII);
        for (MutableDirectBuffer message : buffers(100)) {
            for (MutableDirectBuffer signature : buffers(80)) {
                message.putBytes(7, text);
                key0.newSigner().sign(message, 7, text.length, signature, 9);
                Ed25519Verifier verifier = keys.newVerifier();
                assertTrue(verifier.verify(R0, message, 7, text.length, signature, 9));
                assertTrue(verifier.verify(R0, message, 7, text.length, signature, 9, 64));
                assertFalse(verifier.verify(R1, message, 7, text.length, signature, 9), "another node's key");
            }
        }
    }

    /** Heap, direct, and a heap ByteBuffer slice with an array offset. */
    private static MutableDirectBuffer[] buffers(int size) {
        ByteBuffer big = ByteBuffer.allocate(size + 13);
        big.position(13);
        return new MutableDirectBuffer[] {
            new UnsafeBuffer(new byte[size]),
            new UnsafeBuffer(ByteBuffer.allocateDirect(size)),
            new UnsafeBuffer(big.slice()),
        };
    }

    @Test
    void signaturesOfDifferentMessagesAndKeysDiffer() {
        assertFalse(HEX.formatHex(sign(key0, "m1")).equals(HEX.formatHex(sign(key0, "m2"))));
        assertFalse(HEX.formatHex(sign(key0, "m1")).equals(HEX.formatHex(sign(key1, "m1"))));
        assertArrayEquals(sign(key0, "m1"), sign(key0, "m1"), "Ed25519 is deterministic");
    }

    @Test
    void tamperedMessageOrSignatureFails() {
        UnsafeBuffer message = new UnsafeBuffer("pay 100 to alice".getBytes(StandardCharsets.US_ASCII));
        UnsafeBuffer signature = new UnsafeBuffer(new byte[64]);
        key0.newSigner().sign(message, 0, message.capacity(), signature, 0);
        Ed25519Verifier verifier = keys.newVerifier();
        assertTrue(verifier.verify(R0, message, 0, message.capacity(), signature, 0));
        for (int i = 0; i < message.capacity(); i++) {
            message.putByte(i, (byte) (message.getByte(i) ^ 1));
            assertFalse(verifier.verify(R0, message, 0, message.capacity(), signature, 0), "message byte " + i);
            message.putByte(i, (byte) (message.getByte(i) ^ 1));
        }
        assertFalse(verifier.verify(R0, message, 0, message.capacity() - 1, signature, 0), "truncated message");
        for (int i = 0; i < 64; i++) {
            signature.putByte(i, (byte) (signature.getByte(i) ^ 0x10));
            assertFalse(verifier.verify(R0, message, 0, message.capacity(), signature, 0), "signature byte " + i);
            signature.putByte(i, (byte) (signature.getByte(i) ^ 0x10));
        }
        assertTrue(verifier.verify(R0, message, 0, message.capacity(), signature, 0));
    }

    @Test
    void unknownNodesAndMalformedSignaturesAreFalseNotExceptions() {
        UnsafeBuffer message = new UnsafeBuffer(new byte[32]);
        UnsafeBuffer signature = new UnsafeBuffer(new byte[64]);
        key0.newSigner().sign(message, 0, 32, signature, 0);
        Ed25519Verifier v = keys.newVerifier();
        assertTrue(v.verify(R0, message, 0, 32, signature, 0));
        assertFalse(v.verify(NodeId.replica(2), message, 0, 32, signature, 0), "no key for replica-2");
        assertFalse(v.verify(NodeId.memnode(0), message, 0, 32, signature, 0), "no key registered for memnode-0");
        assertFalse(v.verify(0x7FFF_0000, message, 0, 32, signature, 0), "not a node id");
        assertFalse(v.verify(-1, message, 0, 32, signature, 0), "not a node id");
        assertFalse(v.verify(R0, message, 0, 32, signature, 0, 63), "short signature");
        assertFalse(v.verify(R0, message, 0, 32, signature, 0, 0), "empty signature");
        assertFalse(v.verify(R0, message, 0, 32, new UnsafeBuffer(new byte[100]), 0, 100), "long signature");
        assertFalse(v.verify(R0, message, 0, 32, new UnsafeBuffer(new byte[63]), 0), "signature past the buffer");
        assertFalse(v.verify(R0, message, 0, 32, signature, 1), "signature range past the buffer");
        assertFalse(v.verify(R0, message, 1, 32, signature, 0), "message range past the buffer");
        assertFalse(v.verify(R0, message, -1, 4, signature, 0), "negative offset");
        assertFalse(v.verify(R0, message, 0, -4, signature, 0), "negative length");
        assertFalse(v.verify(R0, message, 0, 32, signature, -1), "negative signature offset");
        assertFalse(v.verify(R0, null, 0, 32, signature, 0), "no message");
        assertFalse(v.verify(R0, message, 0, 32, null, 0), "no signature");
        byte[] ff = new byte[64];
        java.util.Arrays.fill(ff, (byte) 0xFF);
        assertFalse(v.verify(R0, message, 0, 32, new UnsafeBuffer(ff), 0), "all ones");
        assertFalse(v.verify(R0, message, 0, 32, new UnsafeBuffer(new byte[64]), 0), "all zeros");
        Random random = new Random(7);
        for (int i = 0; i < 200; i++) {
            byte[] garbage = new byte[64];
            random.nextBytes(garbage);
            assertFalse(v.verify(R0, message, 0, 32, new UnsafeBuffer(garbage), 0), "garbage " + i);
        }
        assertFalse(keys.verify(R0, new byte[32], 0, 32, ff, 0, 64));
        assertFalse(keys.verify(R0, new byte[32], 0, 33, signature.byteArray(), 0, 64));
    }

    @Test
    void signingOutsideTheBuffersIsTheCallersBug() {
        Ed25519Signer signer = key0.newSigner();
        UnsafeBuffer message = new UnsafeBuffer(new byte[8]);
        assertThrows(IndexOutOfBoundsException.class, () -> signer.sign(message, 0, 9, new UnsafeBuffer(new byte[64]), 0));
        assertThrows(IndexOutOfBoundsException.class, () -> signer.sign(message, 0, 8, new UnsafeBuffer(new byte[64]), 1));
        assertThrows(IndexOutOfBoundsException.class, () -> key0.sign(new byte[8], 0, 8, new byte[63], 0));
    }

    @Test
    void longMessagesFromOffHeapGrowTheScratchArrays() {
        Ed25519Signer signer = key0.newSigner();
        Ed25519Verifier verifier = keys.newVerifier();
        Random random = new Random(1);
        for (int size : new int[] {0, 1, 255, 256, 257, 5000, 70_000, 10}) {
            byte[] bytes = new byte[size];
            random.nextBytes(bytes);
            UnsafeBuffer direct = new UnsafeBuffer(ByteBuffer.allocateDirect(Math.max(size, 1)));
            direct.putBytes(0, bytes);
            UnsafeBuffer sig = new UnsafeBuffer(ByteBuffer.allocateDirect(64));
            signer.sign(direct, 0, size, sig, 0);
            byte[] expected = new byte[64];
            key0.sign(bytes, 0, size, expected, 0);
            byte[] got = new byte[64];
            sig.getBytes(0, got);
            assertArrayEquals(expected, got, "size " + size);
            assertTrue(verifier.verify(R0, direct, 0, size, sig, 0), "size " + size);
        }
    }

    @Test
    void publicKeyTableRejectsBadKeysAndDuplicates() {
        PublicKeys.Builder b = PublicKeys.builder().add(R0, key0.publicKey());
        assertThrows(IllegalArgumentException.class, () -> b.add(R0, key1.publicKey()));
        assertThrows(IllegalArgumentException.class, () -> b.add(R1, new byte[31]));
        assertThrows(IllegalArgumentException.class, () -> b.add(-1, key1.publicKey()));
        byte[] notAPoint = new byte[32];
        java.util.Arrays.fill(notAPoint, (byte) 0xFF);
        assertThrows(IllegalArgumentException.class, () -> b.add(R1, notAPoint));
        PublicKeys table = b.add(C0, key1.publicKey()).build();
        assertEquals(2, table.size());
        assertTrue(table.contains(C0));
        assertFalse(table.contains(R1));
        assertArrayEquals(key0.publicKey(), table.publicKey(R0));
    }

    @Test
    void generatedKeysAreDistinctAndToStringHidesTheSecret() {
        SigningKey a = SigningKey.generate(R0, new SecureRandom());
        SigningKey b = SigningKey.generate(R0, new SecureRandom());
        assertFalse(a.matchesPublicKey(b.publicKey()));
        assertEquals("SigningKey[replica-0]", a.toString());
        assertThrows(IllegalArgumentException.class, () -> SigningKey.fromSeed(R0, new byte[31]));
    }

    private static byte[] sign(SigningKey key, String message) {
        byte[] m = message.getBytes(StandardCharsets.US_ASCII);
        byte[] sig = new byte[64];
        key.sign(m, 0, m.length, sig, 0);
        return sig;
    }
}
