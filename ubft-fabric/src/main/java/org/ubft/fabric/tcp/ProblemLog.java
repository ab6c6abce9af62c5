package org.ubft.fabric.tcp;

import org.ubft.common.NodeId;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * What an operator must see about this node's connections: refused handshakes, peers that cannot prove their node
 * id, frames that fail their MAC or break the wire format, connections refused for want of room, and peers that close
 * the connection right after this node authenticated (they most likely refuse its key). Each line names this node,
 * the peer and the fix, and goes to {@link TcpOptions#problemLog()} (standard error by default, where a process's log
 * is), at most one line per kind and peer every {@link #INTERVAL_NANOS}, with the count of those held back; a flood
 * of bad connections costs a map lookup each. The last problem is kept for {@link TcpFabric#lastProblem()} (a client's
 * "no reply" says why). Used on the network thread only, but {@link #last()} from any.
 */
final class ProblemLog {
    /** At most one line per kind and peer in this long. */
    static final long INTERVAL_NANOS = 10_000_000_000L;
    /** Kinds and peers remembered; beyond, problems share one entry per kind (peers' addresses can be anything). */
    private static final int MAX_KEYS = 256;

    /** A kind of problem, with what to do about it. */
    enum Kind {
        HANDSHAKE("handshake refused", "check that both ends run the same uBFT-J version with the same cluster file "
            + "(fabric.tcp.authentication must be the same on every node)"),
        AUTHENTICATION("authentication failed", "the two nodes do not hold keys of one `ubft keygen` run: give every "
            + "node the key files of the cluster's keys.dir (a node's private key, everyone's public keys)"),
        REFUSED_AFTER_AUTH("connection closed right after this node authenticated", "the peer most likely refuses "
            + "this node's key (see its log): give this node the key files of the cluster's keys.dir"),
        MAC("frame failed its MAC", "a frame was altered on the way (a proxy, an attacker) or the connection is "
            + "broken; it was closed and is made again"),
        MALFORMED("malformed frame", "the peer does not speak this version of the uBFT-J tcp protocol (another "
            + "version, another program on that port)"),
        REJECTED("connection rejected", "more than fabric.tcp max connections are open at once: raise the limit or "
            + "find who opens them");

        final String what;
        final String fix;

        Kind(String what, String fix) {
            this.what = what;
            this.fix = fix;
        }
    }

    private final String self;
    private final Consumer<String> sink;
    private final Map<String, long[]> lastLogged = new HashMap<>();
    private volatile String last;

    ProblemLog(int localNode, Consumer<String> sink) {
        this.self = NodeId.isValid(localNode) ? NodeId.toString(localNode) : "node " + localNode;
        this.sink = sink;
    }

    /** Reports a problem with {@code peer} (a node name or an address); {@code reason} says what happened. */
    void report(Kind kind, String peer, String reason, long now) {
        String line = "ubft tcp " + self + ": " + kind.what + " with " + peer + ": " + reason + ". Fix: " + kind.fix;
        last = line;
        String key = lastLogged.size() < MAX_KEYS ? kind.name() + '|' + peer : kind.name();
        long[] entry = lastLogged.get(key);
        if (entry == null) {
            entry = new long[] {now - INTERVAL_NANOS, 0};
            lastLogged.put(key, entry);
        }
        if (now - entry[0] < INTERVAL_NANOS) {
            entry[1]++;
            return;
        }
        long held = entry[1];
        entry[0] = now;
        entry[1] = 0;
        sink.accept(held == 0 ? line : line + " (" + held + " more like it in the last " + INTERVAL_NANOS / 1_000_000_000L
            + " s)");
    }

    /** The last problem reported, or null. */
    String last() {
        return last;
    }
}
