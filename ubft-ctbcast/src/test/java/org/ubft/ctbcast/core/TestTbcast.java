package org.ubft.ctbcast.core;

import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.fabric.sim.LatencyModel;
import org.ubft.fabric.sim.SimNetwork;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * A stand-in for TBcast between the CTBcast cores of a test cluster, on the simulation's clock: every message
 * reaches every other replica after a latency drawn from the seeded source (so messages overtake each other),
 * plus any extra delay set per link. What TBcast promises and no more: a message may be lost only once its
 * sender has sent 2t newer messages on the same CTBcast stream (with {@link #dropOld} probability). A
 * Byzantine sender's messages go through its {@link Behaviour} first.
 */
final class TestTbcast {
    private final SimNetwork network;
    private final SplittableRandom random;
    private final int n;
    private final int t;
    private final CtbcastReplica[] cores;
    private final Behaviour[] behaviours;
    private final Adversary[] adversaries;
    private final long[][] extraDelay;
    private final long[][] sent;
    private LatencyModel latency = LatencyModel.exponential(500, 1_500);
    private double dropOld;
    private long delivered;
    private long dropped;

    TestTbcast(SimNetwork network, int n, int t) {
        this.network = network;
        this.random = network.random();
        this.n = n;
        this.t = t;
        this.cores = new CtbcastReplica[n];
        this.behaviours = new Behaviour[n];
        this.adversaries = new Adversary[n];
        this.extraDelay = new long[n][n];
        this.sent = new long[n][n];
    }

    void attach(int replica, CtbcastReplica core, Behaviour behaviour, Adversary adversary) {
        cores[replica] = core;
        behaviours[replica] = behaviour;
        adversaries[replica] = adversary;
    }

    TestTbcast latency(LatencyModel model) {
        this.latency = model;
        return this;
    }

    /** Probability of losing a message its sender has since followed with 2t newer ones on the same stream. */
    TestTbcast dropOld(double probability) {
        this.dropOld = probability;
        return this;
    }

    /** Extra one-way delay from {@code from} to {@code to}. */
    TestTbcast delay(int from, int to, long nanos) {
        extraDelay[from][to] = nanos;
        return this;
    }

    /** Every link to and from {@code replica} is {@code nanos} slower. */
    TestTbcast slowReplica(int replica, long nanos) {
        for (int q = 0; q < n; q++) {
            if (q != replica) {
                extraDelay[replica][q] += nanos;
                extraDelay[q][replica] += nanos;
            }
        }
        return this;
    }

    long delivered() {
        return delivered;
    }

    long dropped() {
        return dropped;
    }

    /** The port of replica {@code sender}'s core. */
    TbcastPort port(int sender) {
        return (buffer, offset, length, addressed) -> {
            byte[] message = new byte[length];
            buffer.getBytes(offset, message, 0, length);
            int stream = streamOf(message);
            long seq = sent[sender][stream]++;
            for (int to = 0; to < n; to++) {
                if (to == sender || (addressed & (1L << to)) == 0) {
                    continue;
                }
                int destination = to;
                if (behaviours[sender] == null) {
                    schedule(sender, destination, message, stream, seq, 0);
                } else {
                    behaviours[sender].outbound(adversaries[sender], destination, message,
                        m -> schedule(sender, destination, m, streamOf(m), seq, 0));
                }
            }
        };
    }

    /** A message a Byzantine replica adds of its own. */
    void inject(int from, int to, byte[] message, long delayNanos) {
        int stream = streamOf(message);
        schedule(from, to, message.clone(), stream, sent[from][stream], delayNanos);
    }

    private void schedule(int from, int to, byte[] message, int stream, long seq, long extraNanos) {
        long delay = latency.sampleNanos(random) + extraDelay[from][to] + extraNanos;
        network.schedule(delay, () -> {
            if (sent[from][stream] - seq > 2L * t && dropOld > 0 && random.nextDouble() < dropOld) {
                dropped++;
                return;
            }
            delivered++;
            cores[to].onTbcastDeliver(from, new UnsafeBuffer(message), 0, message.length);
        });
    }

    private int streamOf(byte[] message) {
        if (message.length < CtbcastMessage.HEADER_BYTES) {
            return 0;
        }
        int stream = (message[CtbcastMessage.BROADCASTER_OFFSET] & 0xFF)
            | (message[CtbcastMessage.BROADCASTER_OFFSET + 1] & 0xFF) << 8;
        return stream < n ? stream : 0;
    }

    @Override
    public String toString() {
        return "TestTbcast{delivered=" + delivered + ", dropped=" + dropped + ", extraDelay="
            + Arrays.deepToString(extraDelay) + '}';
    }
}
