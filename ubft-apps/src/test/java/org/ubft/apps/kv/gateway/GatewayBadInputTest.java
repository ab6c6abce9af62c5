package org.ubft.apps.kv.gateway;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Bad input to both gateways: each malformed request gets the protocol's error; a connection that cannot be
 * resynchronised is closed; nothing is buffered beyond its bound; other connections carry on; connection and idle
 * limits hold.
 */
class GatewayBadInputTest {
    private GatewayHarness redis;
    private GatewayHarness memcached;

    @AfterEach
    void stop() {
        if (redis != null) {
            redis.close();
        }
        if (memcached != null) {
            memcached.close();
        }
    }

    private GatewayHarness redis() {
        redis = new GatewayHarness(GatewayOptions.defaults(GatewayOptions.Protocol.REDIS).withMaxValueBytes(4096));
        return redis;
    }

    private GatewayHarness memcached() {
        memcached = new GatewayHarness(GatewayOptions.defaults(GatewayOptions.Protocol.MEMCACHED)
            .withMaxValueBytes(4096));
        return memcached;
    }

    /** Sends {@code request} on a fresh connection, expects {@code reply} and then the connection closed. */
    private static void closesAfter(int port, String request, String reply) throws Exception {
        try (RawClient c = new RawClient(port)) {
            c.send(request).expect(reply).expectClosed();
        }
    }

    private static void stillServes(int port) throws Exception {
        try (RawClient c = new RawClient(port)) {
            c.send("PING\r\n").expect("+PONG\r\n");
        }
    }

    @Test
    void respFramingErrorsAnswerAndClose() throws Exception {
        int port = redis().port();
        try (RawClient watcher = new RawClient(port)) {
            watcher.send("SET survivor 1\r\n").expect("+OK\r\n");
            closesAfter(port, "*abc\r\n", "-ERR Protocol error: invalid multibulk length\r\n");
            closesAfter(port, "*99999999\r\n", "-ERR Protocol error: invalid multibulk length\r\n");
            closesAfter(port, "*1\r\n+PING\r\n", "-ERR Protocol error: expected '$', got '+'\r\n");
            closesAfter(port, "*1\r\n$-5\r\n", "-ERR Protocol error: invalid bulk length\r\n");
            closesAfter(port, "*1\r\n$x\r\n", "-ERR Protocol error: invalid bulk length\r\n");
            closesAfter(port, "*2\r\n$3\r\nGET\r\n$999999999999\r\n", "-ERR Protocol error: invalid bulk length"
                + " (999999999999 bytes; this gateway accepts at most 4096)\r\n");
            closesAfter(port, "*2\r\n$3\r\nGET\r\n$5000\r\n", "-ERR Protocol error: invalid bulk length (5000 bytes;"
                + " this gateway accepts at most 4096)\r\n");
            closesAfter(port, "*1\r\n$4\r\nPINGxx", "-ERR Protocol error: expected CRLF after a bulk of 4 bytes\r\n");
            closesAfter(port, "*1\r\n$123456789012345678901234567890123", "-ERR Protocol error: invalid bulk length\r\n");
            closesAfter(port, "SET k \"unbalanced\r\n", "-ERR Protocol error: unbalanced quotes in request\r\n");
            closesAfter(port, "SET k \"a\"b\r\n", "-ERR Protocol error: unbalanced quotes in request\r\n");
            closesAfter(port, "x".repeat(70_000), "-ERR Protocol error: too big inline request\r\n");
            closesAfter(port, "*" + "1".repeat(70_000), "-ERR Protocol error: too big mbulk count string\r\n");
            closesAfter(port, "PING\r\nQUIT\r\nPING\r\n", "+PONG\r\n+OK\r\n");
            watcher.send("GET survivor\r\n").expect("$1\r\n1\r\n");
        }
        stillServes(port);
        assertEquals(0, redis.gateway.refused());
    }

    @Test
    void respCommandErrorsAnswerAndKeepTheConnection() throws Exception {
        int port = redis().port();
        try (RawClient c = new RawClient(port)) {
            c.send("NOSUCH a b c d\r\n").expect("-ERR unknown command 'NOSUCH', with args beginning with: 'a' 'b' 'c' \r\n");
            c.send("GET\r\n").expect("-ERR wrong number of arguments for 'get' command\r\n");
            c.send("*0\r\n*-1\r\n\r\n   \r\n").send("*1\r\n$4\r\nPING\r\n").expect("+PONG\r\n");
            c.send("SET \"a b\" 'c\\'d' \r\nGET \"a b\"\r\n").expect("+OK\r\n$3\r\nc'd\r\n");
            c.send("SET \"\\x00\\xff\" v\r\nSTRLEN \"\\x00\\xff\"\r\n").expect("+OK\r\n:1\r\n");
            c.send("EXISTS \"\\x00\\xff\"\r\n").expect(":1\r\n");
            // binary junk: lines of random bytes are unknown commands (or, with a stray quote, a closing error)
            byte[] junk = new byte[4096];
            new Random(3).nextBytes(junk);
            for (int i = 0; i < junk.length; i++) {
                if (junk[i] == '"' || junk[i] == '\'' || junk[i] == '*') {
                    junk[i] = 'j';
                }
            }
            junk[0] = 'z';
            for (int i = 1; i < junk.length; i += 97) {
                junk[i - 1] = '\n';
                junk[i] = 'z';
            }
            c.send(junk).send("\r\nPING\r\n");
            String line;
            int errors = 0;
            while (!(line = c.line()).equals("+PONG\r\n")) {
                assertTrue(line.startsWith("-ERR unknown command"), line);
                errors++;
            }
            assertTrue(errors > 10, "junk lines answered: " + errors);
        }
    }

    @Test
    void aClientThatSendsWithoutReadingIsSlowedNotBufferedAndLosesNothing() throws Exception {
        redis = new GatewayHarness(GatewayOptions.defaults(GatewayOptions.Protocol.REDIS).withMaxPipeline(16)
            .withMaxOutputBytes(4096));
        try (RawClient c = new RawClient(redis.port())) {
            StringBuilder many = new StringBuilder();
            for (int i = 0; i < 20_000; i++) {
                many.append("INCR n\r\n");
            }
            Thread writer = new Thread(() -> {
                try {
                    c.send(many.toString());
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            });
            writer.start();
            Thread.sleep(300); // the gateway stops reading: its pipeline and output are full
            for (int i = 1; i <= 20_000; i++) {
                assertEquals(":" + i + "\r\n", c.line());
            }
            writer.join();
        }
    }

    @Test
    void memcachedBadLinesAnswerAndCloseOnlyWhenTheStreamIsLost() throws Exception {
        int port = memcached().port();
        try (RawClient watcher = new RawClient(port)) {
            watcher.send("set survivor 0 0 1\r\n1\r\n").expect("STORED\r\n");
            try (RawClient c = new RawClient(port)) {
                c.send("bogus command\r\n").expect("ERROR\r\n");
                c.send("\r\n").expect("ERROR\r\n");
                c.send("set k 0 0\r\n").expect("ERROR\r\n");
                c.send("set k abc 0 1\r\nx\r\n").expect("CLIENT_ERROR bad command line format\r\n");
                c.send("set " + "k".repeat(251) + " 0 0 1\r\nx\r\n")
                    .expect("CLIENT_ERROR bad command line format (key longer than 250 bytes)\r\n");
                // too large for this gateway: answered, the block skipped without being kept, the stream goes on
                c.send("set big 0 0 100000\r\n").expect("SERVER_ERROR object too large for cache\r\n");
                c.send("y".repeat(100_000) + "\r\n").send("get survivor\r\n").expect("VALUE survivor 0 1\r\n1\r\nEND\r\n");
                byte[] junk = new byte[2000];
                new Random(5).nextBytes(junk);
                for (int i = 0; i < junk.length; i++) {
                    junk[i] = junk[i] == '\n' ? (byte) 'j' : junk[i];
                }
                c.send(junk).send("\r\n").expect("ERROR\r\n");
                c.send("version\r\n").expect("VERSION 1.6.0-ubft\r\n");
            }
            closesAfter(port, "set k 0 0 abc\r\n", "CLIENT_ERROR bad command line format\r\n");
            closesAfter(port, "set k 0 0 -1\r\n", "CLIENT_ERROR bad command line format\r\n");
            closesAfter(port, "set k 0 0 99999999999\r\n", "CLIENT_ERROR bad command line format\r\n");
            closesAfter(port, "set k 0 0 2000000000\r\n", "SERVER_ERROR object too large for cache\r\n");
            closesAfter(port, "set k 0 0 3\r\nabcde\r\n", "CLIENT_ERROR bad data chunk\r\n");
            closesAfter(port, "get " + "k".repeat(70_000), "CLIENT_ERROR line too long (more than 65536 bytes)\r\n");
            closesAfter(port, "version\r\nquit\r\nversion\r\n", "VERSION 1.6.0-ubft\r\n");
            watcher.send("get survivor\r\n").expect("VALUE survivor 0 1\r\n1\r\nEND\r\n");
        }
    }

    @Test
    void connectionsBeyondTheLimitAreRefusedInEachProtocol() throws Exception {
        redis = new GatewayHarness(GatewayOptions.defaults(GatewayOptions.Protocol.REDIS).withMaxConnections(2));
        memcached = new GatewayHarness(GatewayOptions.defaults(GatewayOptions.Protocol.MEMCACHED)
            .withMaxConnections(1));
        try (RawClient a = new RawClient(redis.port()); RawClient b = new RawClient(redis.port())) {
            a.send("PING\r\n").expect("+PONG\r\n");
            b.send("PING\r\n").expect("+PONG\r\n");
            closesAfter(redis.port(), "PING\r\n", "-ERR max number of clients reached\r\n");
            a.send("PING\r\n").expect("+PONG\r\n");
        }
        try (RawClient a = new RawClient(memcached.port())) {
            a.send("version\r\n").expect("VERSION 1.6.0-ubft\r\n");
            closesAfter(memcached.port(), "version\r\n", "SERVER_ERROR too many open connections\r\n");
        }
        assertEquals(1, redis.gateway.refused());
        assertEquals(1, memcached.gateway.refused());
        // the closed ones make room again
        for (int i = 0; i < 50 && redis.gateway.openConnections() > 0; i++) {
            Thread.sleep(20);
        }
        stillServes(redis.port());
    }

    @Test
    void idleConnectionsAreClosed() throws Exception {
        redis = new GatewayHarness(GatewayOptions.defaults(GatewayOptions.Protocol.REDIS)
            .withIdleTimeout(Duration.ofMillis(300)));
        try (RawClient idle = new RawClient(redis.port()); RawClient busy = new RawClient(redis.port())) {
            idle.send("PING\r\n").expect("+PONG\r\n");
            for (int i = 0; i < 10; i++) {
                Thread.sleep(100);
                busy.send("PING\r\n").expect("+PONG\r\n");
            }
            idle.expectClosed();
            busy.send("PING\r\n").expect("+PONG\r\n");
        }
        assertTrue(redis.gateway.idleClosed() >= 1, redis.gateway.countersLine());
    }
}
