package org.ubft.sim;

import org.ubft.fabric.sim.SimNetwork;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.function.IntFunction;
import java.util.function.LongSupplier;

/**
 * The trace of a run: one line per observed event, {@code <virtual ns> <node> <kind> <details> net=<hex>}, where
 * {@code net} is the network's {@link SimNetwork#fingerprint()} (a hash of every network event so far), so that two
 * traces are equal only if the executions underneath are. Two runs with the same seed write byte-identical traces.
 * Kinds: {@code submit}, {@code execute}, {@code restore}, {@code accept}, {@code view}, {@code fault},
 * {@code failed}.
 */
public final class Trace implements SimEvents {
    private final Writer out;
    private final LongSupplier fingerprint;
    private final IntFunction<String> replicaNames;
    private long lines;

    /** @param fingerprint the network's fingerprint (0 until the cluster exists) */
    public Trace(Writer out, LongSupplier fingerprint) {
        this(out, fingerprint, i -> "replica-" + i);
    }

    /**
     * @param replicaNames how to name replica slot i's events: {@code replica-i}, or which twin of a twin slot
     *                     ({@link org.ubft.sim.SimCluster#replicaName})
     */
    public Trace(Writer out, LongSupplier fingerprint, IntFunction<String> replicaNames) {
        this.out = out;
        this.fingerprint = fingerprint;
        this.replicaNames = replicaNames;
    }

    private void line(long time, String node, String kind, String details) {
        try {
            out.write(String.format("%012d %s %s %s net=%016x\n", time, node, kind, details, fingerprint.getAsLong()));
            lines++;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private String replica(int i) {
        return replicaNames.apply(i);
    }

    private static String client(int c) {
        return "client-" + c;
    }

    @Override
    public void submitted(long time, int client, long seq, long number, byte[] payload) {
        line(time, client(client), "submit", "c" + client + "#" + seq + " n=" + number + " d=" + Payloads.digest(payload));
    }

    @Override
    public void sent(long time, int client, long seq, long number, int replica, byte[] payload) {
        line(time, client(client), "send", "c" + client + "#" + seq + " n=" + number + " to=replica-" + replica
            + " d=" + Payloads.digest(payload));
    }

    @Override
    public void executed(long time, int replica, long position, byte[] payload) {
        Payloads.RequestId id = Payloads.id(payload);
        line(time, replica(replica), "execute", "pos=" + position + " " + (id == null ? "?" : id) + " d="
            + Payloads.digest(payload));
    }

    @Override
    public void restored(long time, int replica, long position) {
        line(time, replica(replica), "restore", "pos=" + position);
    }

    @Override
    public void accepted(long time, int client, long seq, long number, byte[] reply) {
        line(time, client(client), "accept", "c" + client + "#" + seq + " pos=" + Payloads.replyPosition(reply) + " d="
            + Payloads.digest(reply));
    }

    @Override
    public void fault(long time, String node, String what) {
        line(time, node, "fault", what);
    }

    @Override
    public void view(long time, int replica, long view) {
        line(time, replica(replica), "view", "v=" + view);
    }

    @Override
    public void failed(long time, int replica, RuntimeException error) {
        line(time, replica(replica), "failed", String.valueOf(error).replace('\n', ' '));
    }

    public long lines() {
        return lines;
    }

    public void flush() {
        try {
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
