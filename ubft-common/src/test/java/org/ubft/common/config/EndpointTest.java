package org.ubft.common.config;

import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class EndpointTest {
    @Test
    void acceptsNamesIpv4AndBracketedIpv6() {
        assertEquals(new Endpoint("node-1.example.org", 1), Endpoint.parse("node-1.example.org:1"));
        assertEquals(new Endpoint("255.255.255.255", 65535), Endpoint.parse("255.255.255.255:65535"));
        assertEquals(new Endpoint("::1", 17100), Endpoint.parse("[::1]:17100"));
        assertEquals("[::1]:17100", Endpoint.parse("[::1]:17100").toString());
    }

    @Test
    void rejectsWhatIsNotHostColonPort() {
        assertNull(Endpoint.parse("::1:17100"), "IPv6 needs brackets");
        assertNull(Endpoint.parse("-node:1"));
        assertNull(Endpoint.parse("node.:1"));
        assertNull(Endpoint.parse("node:+1"));
        assertNull(Endpoint.parse("node:017100x"));
    }

    @Test
    void socketAddressOfALiteralNeedsNoLookup() {
        InetSocketAddress a = Endpoint.parse("127.0.0.1:17100").toSocketAddress();
        assertEquals(17100, a.getPort());
        assertEquals("127.0.0.1", a.getAddress().getHostAddress());
    }
}
