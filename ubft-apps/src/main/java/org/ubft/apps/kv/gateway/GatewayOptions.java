package org.ubft.apps.kv.gateway;

import java.time.Duration;

/**
 * Bounds of a gateway; each one is a documented command-line option of {@code ubft gateway}.
 *
 * @param protocol        redis or memcached
 * @param maxConnections  connections at once; more are answered with the protocol's error and closed
 * @param idleTimeout     a connection with no bytes in either direction and no command in flight for this long is closed
 * @param maxValueBytes   largest value (RESP bulk or memcached data block) a connection may send
 * @param maxPipeline     commands read from a connection and not yet answered; beyond, the gateway stops reading it
 * @param maxOutputBytes  replies not yet taken by the client; beyond, the gateway stops reading the connection
 * @param maxArgs         most arguments of one Redis command
 */
public record GatewayOptions(Protocol protocol, int maxConnections, Duration idleTimeout, int maxValueBytes,
                             int maxPipeline, int maxOutputBytes, int maxArgs) {
    /** The protocols a gateway speaks. */
    public enum Protocol { REDIS, MEMCACHED }

    public GatewayOptions {
        if (maxConnections < 1 || maxPipeline < 1 || maxOutputBytes < 1024 || maxValueBytes < 1 || maxArgs < 2
            || maxArgs > 65535 || idleTimeout.isNegative() || idleTimeout.isZero()) {
            throw new IllegalArgumentException("bad gateway options " + this + ": connections, pipeline and value size"
                + " must be positive, output at least 1024 bytes, arguments 2 to 65535, idle timeout positive");
        }
    }

    /** 256 connections, 300 s idle, values up to 1 MiB, 1024 commands in a pipeline, 4 MiB of output, 65535 args. */
    public static GatewayOptions defaults(Protocol protocol) {
        return new GatewayOptions(protocol, 256, Duration.ofSeconds(300), 1 << 20, 1024, 4 << 20, 65535);
    }

    public GatewayOptions withMaxConnections(int n) {
        return new GatewayOptions(protocol, n, idleTimeout, maxValueBytes, maxPipeline, maxOutputBytes, maxArgs);
    }

    public GatewayOptions withIdleTimeout(Duration d) {
        return new GatewayOptions(protocol, maxConnections, d, maxValueBytes, maxPipeline, maxOutputBytes, maxArgs);
    }

    public GatewayOptions withMaxValueBytes(int n) {
        return new GatewayOptions(protocol, maxConnections, idleTimeout, n, maxPipeline, maxOutputBytes, maxArgs);
    }

    public GatewayOptions withMaxPipeline(int n) {
        return new GatewayOptions(protocol, maxConnections, idleTimeout, maxValueBytes, n, maxOutputBytes, maxArgs);
    }

    public GatewayOptions withMaxOutputBytes(int n) {
        return new GatewayOptions(protocol, maxConnections, idleTimeout, maxValueBytes, maxPipeline, n, maxArgs);
    }

    /** Largest command a connection may send (its value plus room for the key and the other arguments). */
    public int maxCommandBytes() {
        return maxValueBytes + 64 * 1024;
    }

    /** Longest memcached command line. */
    public int maxLineBytes() {
        return 64 * 1024;
    }

    /** A fresh parser of this protocol for one connection. */
    public Parser newParser() {
        return protocol == Protocol.REDIS ? new RespParser(maxArgs, maxValueBytes, maxCommandBytes())
            : new MemcacheParser(maxLineBytes(), maxValueBytes);
    }

    /** The protocol's error reply for {@code message} (one line). */
    public String errorReply(String message) {
        return protocol == Protocol.REDIS ? "-ERR " + message + "\r\n" : "SERVER_ERROR " + message + "\r\n";
    }
}
