package org.ubft.cli;

import org.ubft.apps.kv.gateway.GatewayOptions;
import picocli.CommandLine;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

import java.net.InetSocketAddress;
import java.time.Duration;

/** The bounds of a key-value gateway ({@code ubft gateway}, {@code ubft local --app kv --gateway}). */
public final class GatewayOptionsMixin {
    @Option(names = "--listen", paramLabel = "HOST:PORT",
            description = "Address the gateway listens on (default: 127.0.0.1:6379 for redis, 127.0.0.1:11211 for"
                + " memcached; port 0 picks a free port).")
    private String listen;

    @Option(names = "--max-connections", defaultValue = "256", paramLabel = "N",
            description = "Client connections at once; more are answered with the protocol's error and closed"
                + " (default: ${DEFAULT-VALUE}).")
    private int maxConnections;

    @Option(names = "--idle-timeout-s", defaultValue = "300", paramLabel = "SECONDS",
            description = "A connection idle this long (no bytes either way, no command in flight) is closed"
                + " (default: ${DEFAULT-VALUE}).")
    private long idleSeconds;

    @Option(names = "--max-value-bytes", defaultValue = "1048576", paramLabel = "BYTES",
            description = "Largest value (RESP bulk, memcached data block) a client may send; a larger RESP bulk"
                + " is a protocol error that closes the connection, a larger memcached block is answered"
                + " SERVER_ERROR object too large for cache and skipped (default: ${DEFAULT-VALUE}).")
    private int maxValueBytes;

    @Option(names = "--max-pipeline", defaultValue = "1024", paramLabel = "N",
            description = "Commands read from one connection and not yet answered; beyond, the gateway stops reading"
                + " it until replies go out (default: ${DEFAULT-VALUE}).")
    private int maxPipeline;

    @Option(names = "--max-output-bytes", defaultValue = "4194304", paramLabel = "BYTES",
            description = "Replies a connection has not read yet; beyond, the gateway stops reading it"
                + " (default: ${DEFAULT-VALUE}).")
    private int maxOutputBytes;

    /** Whether any of these options was given. */
    static boolean given(CommandLine cmd) {
        CommandLine.ParseResult r = cmd.getParseResult();
        for (String o : new String[] {"--listen", "--max-connections", "--idle-timeout-s", "--max-value-bytes",
            "--max-pipeline", "--max-output-bytes"}) {
            if (r.hasMatchedOption(o)) {
                return true;
            }
        }
        return false;
    }

    /** The options for {@code protocol} (redis or memcached); exit 2 naming the problem. */
    GatewayOptions options(CommandLine cmd, String protocol) {
        GatewayOptions.Protocol p = protocol(cmd, protocol);
        try {
            return new GatewayOptions(p, maxConnections, Duration.ofSeconds(idleSeconds), maxValueBytes, maxPipeline,
                maxOutputBytes, 65535);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(cmd, "--max-connections, --idle-timeout-s, --max-value-bytes, --max-pipeline"
                + " and --max-output-bytes must be positive (--max-output-bytes at least 1024): " + e.getMessage());
        }
    }

    static GatewayOptions.Protocol protocol(CommandLine cmd, String protocol) {
        return switch (protocol) {
            case "redis" -> GatewayOptions.Protocol.REDIS;
            case "memcached" -> GatewayOptions.Protocol.MEMCACHED;
            default -> throw new ParameterException(cmd, "the gateway protocol must be redis or memcached, got '"
                + protocol + "'");
        };
    }

    /** The address to listen on. */
    InetSocketAddress listen(CommandLine cmd, GatewayOptions.Protocol protocol) {
        String s = listen != null ? listen : protocol == GatewayOptions.Protocol.REDIS ? "127.0.0.1:6379"
            : "127.0.0.1:11211";
        int colon = s.lastIndexOf(':');
        try {
            if (colon <= 0) {
                throw new NumberFormatException();
            }
            int port = Integer.parseInt(s.substring(colon + 1));
            if (port < 0 || port > 65535) {
                throw new NumberFormatException();
            }
            return new InetSocketAddress(s.substring(0, colon), port);
        } catch (NumberFormatException e) {
            throw new ParameterException(cmd, "--listen must be HOST:PORT with a port of 0 to 65535, got '" + s + "'");
        }
    }
}
