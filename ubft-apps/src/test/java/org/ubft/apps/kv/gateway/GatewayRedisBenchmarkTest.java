package org.ubft.apps.kv.gateway;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * redis-benchmark (Debian redis-tools) against a Redis gateway: 50 connections, pipelines of 16, SET, GET, INCR and
 * MSET, with no error; skipped with a message naming the package when it is not installed.
 */
class GatewayRedisBenchmarkTest {
    @Test
    void redisBenchmarkRunsWithoutErrors() throws Exception {
        String bench = ExternalTool.require("redis-tools", "redis-benchmark");
        try (GatewayHarness h = new GatewayHarness(GatewayOptions.defaults(GatewayOptions.Protocol.REDIS))) {
            ExternalTool.Result r = ExternalTool.run(ExternalTool.cmd(bench, "-h", "127.0.0.1", "-p",
                Integer.toString(h.port()), "-t", "set,get,incr,mset", "-c", "50", "-n", "20000", "-P", "16", "-r",
                "1000", "--csv"), null, 300);
            assertEquals(0, r.exitCode(), r.out());
            for (String test : new String[] {"\"SET\"", "\"GET\"", "\"INCR\"", "\"MSET (10 keys)\""}) {
                assertTrue(r.out().contains(test), r.out());
            }
            assertFalse(r.out().toLowerCase().contains("error"), r.out());
            assertEquals(0, h.gateway.refused(), h.gateway.countersLine());
        }
    }
}
