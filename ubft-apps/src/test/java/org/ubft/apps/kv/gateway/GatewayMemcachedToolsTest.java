package org.ubft.apps.kv.gateway;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * memcapable's text-protocol tests and memcslap (Debian libmemcached-tools) against a memcached gateway; skipped with
 * a message naming the package when they are not installed.
 */
class GatewayMemcachedToolsTest {
    @Test
    void memcapablePassesEveryAsciiTest() throws Exception {
        String memcapable = ExternalTool.require("libmemcached-tools", "memcapable", "memccapable");
        try (GatewayHarness h = new GatewayHarness(GatewayOptions.defaults(GatewayOptions.Protocol.MEMCACHED))) {
            ExternalTool.Result r = ExternalTool.run(ExternalTool.cmd(memcapable, "-a", "-h", "127.0.0.1", "-p",
                Integer.toString(h.port()), "-t", "10"), null, 120);
            assertEquals(0, r.exitCode(), r.out());
            assertTrue(r.out().contains("All tests passed"), r.out());
            assertFalse(r.out().contains("[FAIL]"), r.out());
            assertEquals(27, r.out().lines().filter(l -> l.endsWith("[pass]")).count(), r.out());
        }
    }

    @Test
    void memcslapSetsAndGetsToCompletion() throws Exception {
        String memcslap = ExternalTool.require("libmemcached-tools", "memcslap");
        try (GatewayHarness h = new GatewayHarness(GatewayOptions.defaults(GatewayOptions.Protocol.MEMCACHED))) {
            String servers = "127.0.0.1:" + h.port();
            for (String test : List.of("set", "get")) {
                ExternalTool.Result r = ExternalTool.run(ExternalTool.cmd(memcslap, "--servers=" + servers,
                    "--test=" + test, "--concurrency=4", "--execute-number=300"), null, 180);
                assertEquals(0, r.exitCode(), r.out());
                assertTrue(r.out().contains("Time to " + test), r.out());
                assertFalse(r.out().toLowerCase().contains("fail"), r.out());
                assertFalse(r.out().contains("ERROR"), r.out());
            }
            assertTrue(h.machine.store().size() > 0, "memcslap stored nothing");
        }
    }
}
