package org.ubft.fabric.tcp;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.ubft.fabric.Fabric;

import static org.junit.jupiter.api.Assertions.assertEquals;

class WireTest {
    private static final int ALL = (1 << Wire.HELLO) | (1 << Wire.READ_REQ) | (1 << Wire.WRITE_REQ) | (1 << Wire.RESPONSE);
    private final UnsafeBuffer b = new UnsafeBuffer(new byte[64]);

    private int check(int length, byte type, int expected, int max) {
        return check(length, type, expected, max, 0);
    }

    private int check(int length, byte type, int expected, int max, int trailer) {
        Wire.putHeader(b, 0, length, type);
        return Wire.checkHeader(b, 0, expected, max, trailer);
    }

    @Test
    void framesEncodeAndDecode() {
        Wire.putHello(b, 0, 0x0002_0001);
        assertEquals(Wire.HELLO_LENGTH, Wire.frameLength(b, 0));
        assertEquals(Wire.MAGIC, Wire.helloMagic(b, 0));
        assertEquals(Wire.VERSION, Wire.helloVersion(b, 0));
        assertEquals(0x0002_0001, Wire.helloNodeId(b, 0));
        assertEquals(Wire.FRAME_OK, Wire.checkHeader(b, 0, ALL, 1 << 20, 0));

        Wire.putRequest(b, 0, Wire.WRITE_REQ, 77L, 5, 40, 16);
        assertEquals(Wire.REQUEST_LENGTH + 16, Wire.frameLength(b, 0));
        assertEquals(Wire.WRITE_REQ, Wire.type(b, 0));
        assertEquals(77L, Wire.requestId(b, 0));
        assertEquals(5, Wire.requestRegionId(b, 0));
        assertEquals(40, Wire.requestOffset(b, 0));
        assertEquals(16, Wire.requestLength(b, 0));

        Wire.putResponse(b, 0, 78L, Wire.STATUS_ACCESS_DENIED, 0);
        assertEquals(Wire.RESPONSE_HEADER_LENGTH, Wire.frameLength(b, 0));
        assertEquals(78L, Wire.requestId(b, 0));
        assertEquals(Wire.STATUS_ACCESS_DENIED, Wire.responseStatus(b, 0));
        assertEquals(0, Wire.responseDataLength(b, 0));
    }

    @Test
    void theWireIsLittleEndianWhateverTheHost() {
        Wire.putHeader(b, 0, 0x0102_0304, Wire.READ_REQ);
        assertEquals(0x04, b.getByte(0));
        assertEquals(0x01, b.getByte(3));
        assertEquals(Wire.READ_REQ, b.getByte(4));
    }

    @Test
    void headersOutOfBoundsOrOfUnexpectedTypeAreMalformed() {
        int max = 1 << 20;
        assertEquals(Wire.FRAME_MALFORMED, check(Wire.HELLO_LENGTH + 1, Wire.HELLO, ALL, max), "HELLO has one size");
        assertEquals(Wire.FRAME_MALFORMED, check(Wire.REQUEST_LENGTH - 1, Wire.READ_REQ, ALL, max));
        assertEquals(Wire.FRAME_MALFORMED, check(Wire.REQUEST_LENGTH + 8, Wire.READ_REQ, ALL, max));
        assertEquals(Wire.FRAME_MALFORMED, check(Wire.REQUEST_LENGTH - 1, Wire.WRITE_REQ, ALL, max));
        assertEquals(Wire.FRAME_MALFORMED, check(Wire.RESPONSE_HEADER_LENGTH - 1, Wire.RESPONSE, ALL, max));
        assertEquals(Wire.FRAME_MALFORMED, check(max + 1, Wire.WRITE_REQ, ALL, max), "over the receiver's limit");
        assertEquals(Wire.FRAME_MALFORMED, check(-1, Wire.WRITE_REQ, ALL, max));
        assertEquals(Wire.FRAME_MALFORMED, check(Integer.MIN_VALUE, Wire.RESPONSE, ALL, max));
        assertEquals(Wire.FRAME_MALFORMED, check(Wire.REQUEST_LENGTH + Fabric.MAX_OPERATION_BYTES + 1, Wire.WRITE_REQ,
            ALL, Integer.MAX_VALUE), "no operation is larger than the SPI allows");
        assertEquals(Wire.FRAME_MALFORMED, check(Wire.HEADER_LENGTH, (byte) 0, ALL, max), "type 0");
        assertEquals(Wire.FRAME_MALFORMED, check(Wire.AUTH_HELLO_LENGTH, Wire.AUTH_HELLO, ALL, max), "not expected");
        assertEquals(Wire.FRAME_MALFORMED, check(Wire.HEADER_LENGTH, (byte) 7, -1, max), "type 7");
        assertEquals(Wire.FRAME_MALFORMED, check(Wire.HEADER_LENGTH, (byte) -1, ALL, max), "type 255");
        assertEquals(Wire.FRAME_MALFORMED, check(Wire.REQUEST_LENGTH, Wire.READ_REQ, 1 << Wire.HELLO, max),
            "a request where only HELLO is expected");
        assertEquals(Wire.FRAME_OK, check(Wire.REQUEST_LENGTH, Wire.READ_REQ, 1 << Wire.READ_REQ, max));
        assertEquals(Wire.FRAME_OK, check(max, Wire.WRITE_REQ, ALL, max), "exactly the limit");
        assertEquals(Wire.FRAME_OK, check(Wire.RESPONSE_HEADER_LENGTH, Wire.RESPONSE, ALL, max));
    }

    @Test
    void authenticationFramesHaveOneSizeEach() {
        int max = 1 << 20;
        int auth = (1 << Wire.AUTH_HELLO) | (1 << Wire.AUTH);
        assertEquals(Wire.FRAME_OK, check(Wire.AUTH_HELLO_LENGTH, Wire.AUTH_HELLO, auth, max));
        assertEquals(Wire.FRAME_OK, check(Wire.AUTH_LENGTH, Wire.AUTH, auth, max));
        assertEquals(Wire.FRAME_MALFORMED, check(Wire.AUTH_HELLO_LENGTH - 1, Wire.AUTH_HELLO, auth, max));
        assertEquals(Wire.FRAME_MALFORMED, check(Wire.AUTH_LENGTH + 1, Wire.AUTH, auth, max));
        assertEquals(Wire.FRAME_MALFORMED, check(Wire.AUTH_LENGTH, Wire.AUTH, 1 << Wire.AUTH_HELLO, max));

        byte[] nonce = new byte[Wire.NONCE_LENGTH];
        byte[] key = new byte[Wire.EPHEMERAL_KEY_LENGTH];
        nonce[0] = 1;
        key[31] = 2;
        UnsafeBuffer hello = new UnsafeBuffer(new byte[Wire.AUTH_HELLO_LENGTH]);
        Wire.putAuthHello(hello, 0, 0x0002_0001, nonce, key);
        assertEquals(Wire.AUTH_HELLO_LENGTH, Wire.frameLength(hello, 0));
        assertEquals(Wire.AUTH_HELLO, Wire.type(hello, 0));
        assertEquals(Wire.MAGIC, Wire.helloMagic(hello, 0));
        assertEquals(0x0002_0001, Wire.helloNodeId(hello, 0));
        assertEquals(1, hello.getByte(Wire.HELLO_LENGTH));
        assertEquals(2, hello.getByte(Wire.authHelloEphemeralKeyIndex(0) + 31));
    }

    @Test
    void aMacTrailerCountsInTheFrameLengthButNotInTheTypeSizes() {
        int max = 1 << 20;
        int mac = Wire.MAC_LENGTH;
        assertEquals(Wire.FRAME_OK, check(Wire.REQUEST_LENGTH + mac, Wire.READ_REQ, ALL, max, mac));
        assertEquals(Wire.FRAME_MALFORMED, check(Wire.REQUEST_LENGTH, Wire.READ_REQ, ALL, max, mac), "tag missing");
        assertEquals(Wire.FRAME_OK, check(Wire.RESPONSE_HEADER_LENGTH + 8 + mac, Wire.RESPONSE, ALL, max, mac));
        assertEquals(Wire.FRAME_MALFORMED, check(Wire.HEADER_LENGTH + mac - 1, Wire.RESPONSE, ALL, max, mac));
        assertEquals(Wire.FRAME_OK, check(Wire.REQUEST_LENGTH + Fabric.MAX_OPERATION_BYTES + mac, Wire.WRITE_REQ,
            ALL, Wire.DEFAULT_MAX_FRAME_BYTES, mac), "the largest operation fits the default limit with its tag");
        assertEquals(Wire.FRAME_MALFORMED, check(Wire.REQUEST_LENGTH + Fabric.MAX_OPERATION_BYTES + mac + 1,
            Wire.WRITE_REQ, ALL, Integer.MAX_VALUE, mac));
    }
}
