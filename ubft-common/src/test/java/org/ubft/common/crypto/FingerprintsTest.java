package org.ubft.common.crypto;

import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class FingerprintsTest {
    private static final HexFormat HEX = HexFormat.of();

    /** FIPS 180-2 / NIST example vectors for SHA-256. */
    @Test
    void knownVectorsOnHeapDirectAndOffsetBuffers() {
        check("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
        check("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        check("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
                "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    }

    @Test
    void aMillionAsOffHeapCrossesManyChunks() {
        byte[] a = new byte[1_000_000];
        Arrays.fill(a, (byte) 'a');
        String expected = "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0";
        Fingerprints fingerprints = new Fingerprints();
        UnsafeBuffer direct = new UnsafeBuffer(ByteBuffer.allocateDirect(a.length + 3));
        direct.putBytes(3, a);
        UnsafeBuffer out = new UnsafeBuffer(ByteBuffer.allocateDirect(32));
        fingerprints.fingerprint(direct, 3, a.length, out, 0);
        assertEquals(expected, hex(out, 0));
        byte[] heapOut = new byte[40];
        fingerprints.fingerprint(a, 0, a.length, heapOut, 8);
        assertEquals(expected, HEX.formatHex(heapOut, 8, 40));
    }

    private static void check(String text, String expected) {
        byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
        Fingerprints fingerprints = new Fingerprints();
        for (MutableDirectBuffer in : buffers(bytes.length + 5)) {
            for (MutableDirectBuffer out : buffers(40)) {
                in.putBytes(5, bytes);
                fingerprints.fingerprint(in, 5, bytes.length, out, 3);
                assertEquals(expected, hex(out, 3), "'" + text + "' " + in + " -> " + out);
                fingerprints.fingerprint(in, 5, bytes.length, out, 8);
                assertEquals(expected, hex(out, 8), "the instance is reusable");
            }
        }
    }

    private static MutableDirectBuffer[] buffers(int size) {
        ByteBuffer big = ByteBuffer.allocate(size + 11);
        big.position(11);
        return new MutableDirectBuffer[] {
            new UnsafeBuffer(new byte[size]),
            new UnsafeBuffer(ByteBuffer.allocateDirect(size)),
            new UnsafeBuffer(big.slice()),
        };
    }

    private static String hex(MutableDirectBuffer buffer, int offset) {
        byte[] bytes = new byte[Fingerprints.FINGERPRINT_BYTES];
        buffer.getBytes(offset, bytes);
        return HEX.formatHex(bytes);
    }

    @Test
    void rangesOutsideTheBuffersThrowAndLeaveTheInstanceUsable() {
        Fingerprints fingerprints = new Fingerprints();
        UnsafeBuffer in = new UnsafeBuffer("abc".getBytes(StandardCharsets.US_ASCII));
        UnsafeBuffer out = new UnsafeBuffer(new byte[32]);
        assertThrows(IndexOutOfBoundsException.class, () -> fingerprints.fingerprint(in, 0, 4, out, 0));
        assertThrows(IndexOutOfBoundsException.class, () -> fingerprints.fingerprint(in, 0, 3, out, 1));
        fingerprints.fingerprint(in, 0, 3, out, 0);
        assertEquals("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", hex(out, 0));
    }
}
