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
}
