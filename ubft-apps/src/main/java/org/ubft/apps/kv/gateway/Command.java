package org.ubft.apps.kv.gateway;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * One command a parser read from a connection: either arguments for the store (ordered through the cluster) or a
 * reply the gateway gives itself (a protocol error, an unknown command, QUIT), possibly closing the connection after
 * it.
 */
public final class Command {
    /** The store's arguments, or null for a local reply. */
    public final List<byte[]> args;
    /** The reply the gateway sends itself (may be empty), or null for a store command. */
    public final byte[] localReply;
    /** Close the connection once the replies before and including this one are written. */
    public final boolean close;

    private Command(List<byte[]> args, byte[] localReply, boolean close) {
        this.args = args;
        this.localReply = localReply;
        this.close = close;
    }

    public static Command store(List<byte[]> args) {
        return new Command(args, null, false);
    }

    /** A reply the gateway gives itself; {@code text} is the whole reply, CRLF included. */
    public static Command local(String text, boolean close) {
        return new Command(null, text.getBytes(StandardCharsets.ISO_8859_1), close);
    }

    public boolean isLocal() {
        return args == null;
    }

    /** Encoded size in a batch. */
    int wireBytes() {
        int n = 2;
        for (byte[] a : args) {
            n += 4 + a.length;
        }
        return n;
    }
}
