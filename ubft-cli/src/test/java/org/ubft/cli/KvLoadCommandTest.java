package org.ubft.cli;

import org.junit.jupiter.api.Test;
import org.ubft.apps.kv.gateway.DirectBackend;
import org.ubft.apps.kv.gateway.Gateway;
import org.ubft.apps.kv.gateway.GatewayOptions;
import org.ubft.apps.kv.machine.KvMachine;
import org.ubft.apps.kv.store.StoreLimits;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code ubft kv-load}: one load tool for Redis and memcached servers and the replicated store's gateways. */
class KvLoadCommandTest {
    private static Gateway gateway(GatewayOptions.Protocol protocol) {
        KvMachine machine = new KvMachine(KvMachine.Config.defaults(StoreLimits.defaults(), 1024));
        return Gateway.start(GatewayOptions.defaults(protocol), new DirectBackend(machine, 1024, 4),
            new InetSocketAddress("127.0.0.1", 0));
    }

    @Test
    void loadsAGatewayInEitherProtocolWithTheGetSetMix() {
        for (GatewayOptions.Protocol protocol : GatewayOptions.Protocol.values()) {
            try (Gateway g = gateway(protocol)) {
                CommandRun run = CommandRun.of("kv-load", "--protocol", protocol.name().toLowerCase(),
                    "--target", "127.0.0.1:" + g.address().getPort(), "--connections", "3", "--requests", "300",
                    "--warmup", "50", "--keys", "20");
                assertEquals(0, run.exitCode, run.toString());
                assertTrue(run.out.contains("connections=3 get_share=0.3 commands=900"), run.toString());
                assertTrue(run.out.matches("(?s).*\nops_per_s=[1-9][0-9]*\np50_us=[0-9.]+\np90_us=[0-9.]+\n.*"),
                    run.toString());
            }
        }
    }

    @Test
    void aServerThatAnswersWronglyFailsTheRun() throws Exception {
        wrongReply("-ERR no\r\n", "0", "expected '+OK'");
        wrongReply("$x1\r\n", "1", "a bad value length: '$x1'");
        wrongReply("$-5\r\n", "1", "a bad value length: '$-5'");
    }

    private static void wrongReply(String reply, String getShare, String named) throws Exception {
        try (ServerSocket server = new ServerSocket(0, 4, java.net.InetAddress.getLoopbackAddress())) {
            Thread t = new Thread(() -> {
                try (Socket s = server.accept()) {
                    InputStream in = s.getInputStream();
                    OutputStream out = s.getOutputStream();
                    while (in.read() >= 0) {
                        out.write(reply.getBytes(StandardCharsets.US_ASCII));
                    }
                } catch (Exception e) {
                    // the client hung up
                }
            });
            t.setDaemon(true);
            t.start();
            CommandRun run = CommandRun.of("kv-load", "--protocol", "redis", "--target",
                "127.0.0.1:" + server.getLocalPort(), "--requests", "10", "--warmup", "0", "--get-share", getShare);
            assertEquals(1, run.exitCode, run.toString());
            assertTrue(run.err.contains("a wrong reply") && run.err.contains(named), run.toString());
        }
    }

    @Test
    void badOptionsAreNamed() {
        CommandRun protocol = CommandRun.of("kv-load", "--protocol", "http", "--target", "127.0.0.1:1");
        assertEquals(2, protocol.exitCode, protocol.toString());
        assertTrue(protocol.err.contains("--protocol must be redis or memcached, got 'http'"), protocol.toString());
        CommandRun share = CommandRun.of("kv-load", "--protocol", "redis", "--target", "127.0.0.1:1",
            "--get-share", "1.5");
        assertEquals(2, share.exitCode, share.toString());
        assertTrue(share.err.contains("--get-share must be in 0..1"), share.toString());
        CommandRun target = CommandRun.of("kv-load", "--protocol", "redis", "--target", "localhost");
        assertEquals(2, target.exitCode, target.toString());
        assertTrue(target.err.contains("--target must be HOST:PORT"), target.toString());
        CommandRun port = CommandRun.of("kv-load", "--protocol", "redis", "--target", "127.0.0.1:70000");
        assertEquals(2, port.exitCode, port.toString());
        assertTrue(port.err.contains("a port in 1..65535"), port.toString());
        CommandRun host = CommandRun.of("kv-load", "--protocol", "redis", "--target", "no-such-host.invalid:6379");
        assertEquals(2, host.exitCode, host.toString());
        assertTrue(host.err.contains("cannot resolve the host 'no-such-host.invalid'"), host.toString());
    }
}
