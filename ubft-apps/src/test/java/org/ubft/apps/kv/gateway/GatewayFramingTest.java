package org.ubft.apps.kv.gateway;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

/** Requests split anywhere (one byte per write) still parse; replies come whole and in order. */
class GatewayFramingTest {
    private static void byteByByte(RawClient c, String request) throws Exception {
        for (byte b : request.getBytes(StandardCharsets.ISO_8859_1)) {
            c.send(new byte[] {b});
        }
    }

    @Test
    void respRequestsSplitIntoSingleBytes() throws Exception {
        try (GatewayHarness h = new GatewayHarness(GatewayOptions.defaults(GatewayOptions.Protocol.REDIS));
             RawClient c = new RawClient(h.port())) {
            byteByByte(c, "*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$5\r\nv\r\nxy\r\nGET k\r\n*2\r\n$6\r\nEXISTS\r\n$1\r\nk\r\n");
            c.expect("+OK\r\n$5\r\nv\r\nxy\r\n:1\r\n");
        }
    }

    @Test
    void memcachedRequestsSplitIntoSingleBytes() throws Exception {
        try (GatewayHarness h = new GatewayHarness(GatewayOptions.defaults(GatewayOptions.Protocol.MEMCACHED));
             RawClient c = new RawClient(h.port())) {
            byteByByte(c, "set k 3 0 4\r\na\r\nb\r\nget k\r\nincr n 1\r\n");
            c.expect("STORED\r\nVALUE k 3 4\r\na\r\nb\r\nEND\r\nNOT_FOUND\r\n");
        }
    }

    @Test
    void parsersNeverThrowOnRandomBytesAndAlwaysMakeProgressOrAskForMore() {
        java.util.Random random = new java.util.Random(13);
        for (int round = 0; round < 2_000; round++) {
            Parser parser = random.nextBoolean() ? new RespParser(1024, 4096, 8192) : new MemcacheParser(1024, 4096);
            byte[] buf = new byte[random.nextInt(300)];
            for (int i = 0; i < buf.length; i++) {
                // mostly protocol-like bytes, some junk
                String alphabet = "*$\r\n0123456789-: \"'abcsetgk";
                buf[i] = random.nextInt(5) == 0 ? (byte) random.nextInt(256)
                    : (byte) alphabet.charAt(random.nextInt(alphabet.length()));
            }
            int pos = 0;
            while (pos < buf.length) {
                Command c = parser.parse(buf, pos, buf.length);
                if (c == null && parser.consumed() == 0) {
                    org.junit.jupiter.api.Assertions.assertTrue(parser.needed() > buf.length - pos);
                    break;
                }
                pos += parser.consumed();
                if (c != null && c.close) {
                    break;
                }
            }
        }
    }
}
