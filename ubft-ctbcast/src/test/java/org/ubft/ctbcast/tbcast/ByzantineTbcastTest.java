package org.ubft.ctbcast.tbcast;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.ubft.common.Checksums;
import org.ubft.ctbcast.channel.TailChannelLayout;
import org.ubft.ctbcast.channel.TailChannelReceiver;
import org.ubft.ctbcast.channel.TailChannelSender;
import org.ubft.ctbcast.link.Envelope;
import org.ubft.ctbcast.link.LinkConfig;
import org.ubft.ctbcast.link.PeerLinks;
import org.ubft.fabric.CompletionRouter;
import org.ubft.fabric.Fabric;
import org.ubft.fabric.sim.LatencyModel;
import org.ubft.fabric.sim.SimFabricTestbed;
import org.ubft.fabric.sim.SimNetwork;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Replica 2 is Byzantine: it writes whatever it likes into its tail channels to replicas 0 and 1
 * (well-formed channel slots holding malformed envelopes, duplicates, huge and impossible indices,
 * oversized messages, absurd acknowledgements, garbage). The correct replicas drop and count all of it,
 * never throw, deliver from 2 at most once per index and only what 2 wrote in a valid envelope, and
 * keep TBcast's properties between themselves.
 */
class ByzantineTbcastTest {
    private static final int T = 4;
    private static final int MAX = 32;
    private static final int BYZ = 2;
    private static final long PERIOD = 30_000;

    private TbcastCluster c;
    private Fabric byzFabric;
    private CompletionRouter byzRouter;
    private final TailChannelSender[] byz = new TailChannelSender[2];
    private TailChannelLayout layout;
    private final UnsafeBuffer env = new UnsafeBuffer(new byte[1024]);
    /** (receiver, stream, index) -> hashes of the payloads 2 wrote there in valid DATA envelopes. */
    private final Map<String, Set<Long>> written = new HashMap<>();
    private final Envelope oracle = new Envelope();
    private long fromByz;

    private void setUp(SimNetwork net) {
        // Links carry up to MAX + 16 payload bytes, streams only MAX: an oversized message fits an envelope.
        c = new TbcastCluster(new SimFabricTestbed(net), net.clock(), new TbcastConfig(T, MAX, PERIOD),
            LinkConfig.defaults(T, MAX + 16).withAckDelayNanos(2_000), 3, BYZ);
        c.correct[BYZ] = false;
        byzFabric = c.fabrics[BYZ];
        byzRouter = new CompletionRouter(byzFabric, 4);
        layout = c.links[0].layout();
        for (int p = 0; p < 2; p++) {
            // Rings for 0 and 1 to write into, so that their traffic to 2 succeeds (2 never reads them).
            TailChannelReceiver.register(byzFabric, TailChannelLayout.regionId(TbcastCluster.MEMBERS[p]),
                TbcastCluster.MEMBERS[p], layout);
            byz[p] = new TailChannelSender(byzFabric, 1 + p, TbcastCluster.MEMBERS[p],
                TailChannelLayout.regionId(TbcastCluster.MEMBERS[BYZ]), layout, 64);
            byzRouter.register(1 + p, byz[p]);
        }
        c.observer = (r, s, b, k, buf, off, len) -> {
            if (b == BYZ && !written.getOrDefault(key(r, s, k), Set.of()).contains(Checksums.xxHash64(buf, off, len))) {
                fail("replica " + r + " delivered " + s + "#" + k + " from 2 with bytes 2 never sent there in a valid envelope");
            }
            if (b == BYZ) {
                fromByz++;
            }
        };
    }

    private static String key(int r, int s, long k) {
        return r + "/" + s + "/" + k;
    }

    private void pump() {
        byzRouter.poll(64);
        c.pump();
    }

    /** Writes the {@code length} bytes of {@link #env} to replica {@code to} as one channel message, noting valid DATA. */
    private void write(int to, int length) {
        if (oracle.wrap(env, 0, length).validate(3, LinkConfig.ackWords(2 * T)) == Envelope.VALID
            && oracle.type() == Envelope.TYPE_DATA) {
            written.computeIfAbsent(key(to, oracle.stream(), oracle.index()), x -> new HashSet<>())
                .add(Checksums.xxHash64(env, oracle.payloadOffset(), oracle.payloadLength()));
        }
        byz[to].send(env, 0, length);
    }

    /** Writes one envelope to {@code to} and pumps until the target's channel from 2 handed it over. */
    private void deliverOne(int to, int length) {
        long before = c.links[to].receiver(BYZ).delivered();
        write(to, length);
        assertTrue(c.runUntil(() -> {
            byzRouter.poll(64);
            return c.links[to].receiver(BYZ).delivered() > before;
        }, 1_000_000), "the channel did not deliver");
    }

    private int data(int stream, long index, int payloadLength, byte fill) {
        int at = Envelope.putHeader(env, 0, Envelope.TYPE_DATA, 0, stream, index);
        for (int i = 0; i < payloadLength; i++) {
            env.putByte(at + i, (byte) (fill + i));
        }
        Envelope.putLength(env, 0, payloadLength);
        return at + payloadLength;
    }

    private int ack(int stream, long base, long... words) {
        int at = Envelope.putHeader(env, 0, Envelope.TYPE_ACK, 0, 0, 0);
        Envelope.putAckEntry(env, at, stream, base, words.length);
        for (int i = 0; i < words.length; i++) {
            Envelope.putAckWord(env, at, i, words[i]);
        }
        Envelope.putAckCount(env, 0, 1);
        return at + Envelope.ackEntryBytes(words.length);
    }

    /**
     * The settle claim is the sender's word about its own stream: claims beyond what it sent, absurd distances, or
     * one on an ACK envelope change at most its own window at the receiver (or drop the envelope, counted), never
     * throw, and never touch what a correct broadcaster's messages do there.
     */
    @Test
    @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // hang guard only
    void settleClaimsOfAByzantineSenderMoveOnlyItsOwnWindow() {
        setUp(new SimNetwork(12).defaultLatency(LatencyModel.uniform(500, 1_500)));
        Tbcast s = c.stream(0, 1);
        int len = data(1, 10, 3, (byte) 'A');
        env.putInt(Envelope.SETTLE_OFFSET, -1); // d + 1 = 2^32 - 1: below index 10 - 2^32 + 2, taken as 1
        deliverOne(0, len);
        assertEquals(1, s.delivered());
        len = data(1, 20, 3, (byte) 'B');
        Envelope.putSettledBelow(env, 0, 20, 20); // everything below 20 settled, 13..19 never sent
        deliverOne(0, len);
        assertEquals(2, s.delivered());
        deliverOne(0, data(1, 15, 3, (byte) 'C')); // taken as settled: the claim only cost 2 its own index
        assertEquals(1, s.duplicates());
        assertEquals(2, s.delivered());
        len = ack(1, 1);
        env.putInt(Envelope.SETTLE_OFFSET, 7); // a claim on an ACK envelope: malformed, dropped whole
        deliverOne(0, len);
        assertEquals(1, c.links[0].malformed());
        assertEquals(0, s.malformed());
        // replica 1, correct, on the same stream: untouched by 2's claims
        for (int i = 0; i < 5; i++) {
            c.broadcast(1, 1);
        }
        assertTrue(c.runUntil(() -> {
            byzRouter.poll(64);
            return c.deliveredCount(0, 1, 1) == 5;
        }, 50 * PERIOD), "replica 1's messages");
    }

    /** Each kind of bad input, one at a time, with the exact counter it must land in. */
    @Test
    @Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // hang guard only
    void everyBadInputIsDroppedAndCounted() {
        setUp(new SimNetwork(11).defaultLatency(LatencyModel.uniform(500, 1_500)));
        for (int r = 0; r < 2; r++) {
            Tbcast s = c.stream(r, 1);
            PeerLinks l = c.links[r];

            deliverOne(r, data(1, 1, 5, (byte) 'A'));
            assertEquals(1, s.delivered());
            assertTrue(c.delivered(r, 1, BYZ, 1));

            deliverOne(r, data(1, 1, 5, (byte) 'B')); // the same index with other bytes
            assertEquals(1, s.duplicates());
            assertEquals(1, s.delivered());

            long[] impossible = {0, -1, Long.MIN_VALUE, Tbcast.MAX_INDEX, Long.MAX_VALUE};
            for (long index : impossible) {
                deliverOne(r, data(1, index, 3, (byte) 0));
            }
            assertEquals(impossible.length, s.malformed());
            deliverOne(r, data(1, 2, MAX + 1, (byte) 0)); // longer than the stream's maximum
            assertEquals(impossible.length + 1, s.malformed());
            assertEquals(1, s.delivered());

            deliverOne(r, data(1, Tbcast.MAX_INDEX - 1, 4, (byte) 'H')); // huge but legal: delivered once
            assertEquals(2, s.delivered());
            assertEquals(Tbcast.MAX_INDEX - 1, s.highestSeen(BYZ));
            deliverOne(r, data(1, Tbcast.MAX_INDEX - 1, 4, (byte) 'I'));
            assertEquals(2, s.duplicates());
            deliverOne(r, data(1, 3, 4, (byte) 'J')); // now far below 2's window: out of the tail
            assertEquals(1, s.outOfWindow());
            assertEquals(2, s.delivered());
            assertEquals(0, l.malformed());

            // Malformed envelopes: dropped whole by the links, no stream sees them.
            int len = data(1, 4, 6, (byte) 0);
            int malformed = 0;
            for (int defect = 0; defect < 12; defect++) {
                len = data(1, 4, 6, (byte) 0);
                switch (defect) {
                    case 0 -> len = 10;
                    case 1 -> env.putByte(Envelope.VERSION_OFFSET, (byte) 9);
                    case 2 -> env.putByte(Envelope.TYPE_OFFSET, (byte) 77);
                    case 3 -> env.putByte(Envelope.FLAGS_OFFSET, (byte) 0x40);
                    case 4 -> env.putShort(Envelope.RESERVED16_OFFSET, (short) 1);
                    case 5 -> Envelope.putAckCount(env, 0, 200);
                    case 6 -> Envelope.putAckCount(env, 0, 1); // an ack entry that does not fit
                    case 7 -> Envelope.putLength(env, 0, 7);
                    case 8 -> Envelope.putLength(env, 0, -6);
                    case 9 -> { // an ack entry with a bitmap larger than any stream's
                        len = ack(1, 1, new long[LinkConfig.ackWords(2 * T) + 1]);
                    }
                    case 10 -> { // an ACK that carries a payload
                        len = ack(1, 1);
                        env.putByte(len, (byte) 1);
                        Envelope.putLength(env, 0, 1);
                        len++;
                    }
                    default -> { // garbage
                        for (int i = 0; i < 40; i++) {
                            env.putByte(i, (byte) (i * 37 + 11));
                        }
                        len = 40;
                    }
                }
                deliverOne(r, len);
                assertEquals(++malformed, l.malformed(), "defect " + defect);
            }
            deliverOne(r, data(99, 1, 2, (byte) 0)); // a stream nobody registered
            deliverOne(r, ack(99, 1));
            assertEquals(malformed + 2, l.malformed());
            assertEquals(2, l.unknownStream());
            assertEquals(2, s.delivered());
            assertEquals(impossible.length + 1, s.malformed());

            // Absurd acknowledgements of r's own broadcasts (it broadcast 3 on stream 2): refused, counted,
            // and they change nothing: r still waits for 2's acknowledgements.
            Tbcast own = c.stream(r, 2);
            for (int i = 0; i < 3; i++) {
                c.broadcast(r, 2);
            }
            long[][] absurd = {{0}, {5}, {100}, {Long.MAX_VALUE}, {Long.MIN_VALUE}, {1, 1L << 3}, {3, 1L}, {4, 1L}};
            for (long[] a : absurd) {
                long[] words = new long[a.length - 1];
                System.arraycopy(a, 1, words, 0, words.length);
                deliverOne(r, ack(2, a[0], words));
            }
            assertEquals(absurd.length, own.malformed());
            assertEquals(3, own.unacknowledged(BYZ));
            assertEquals(malformed + 2, l.malformed(), "absurd acks are well-formed envelopes");
            // A sensible acknowledgement from 2 is taken like anyone's: it only speaks for 2.
            deliverOne(r, ack(2, 2, 1L)); // 1 settled, 2 missing, 3 delivered
            assertEquals(1, own.unacknowledged(BYZ));
        }
        assertTrue(c.runUntil(c::tailDelivered, 10_000_000));
    }

    static LongStream seeds() {
        return LongStream.rangeClosed(1, 10);
    }

    /**
     * A random mix of all the above, and random bit flips in valid envelopes, from 2 to 0 and 1 while 0
     * and 1 broadcast on every stream, with torn writes and jitter: nothing throws, every delivery from 2
     * is one of its valid envelopes and at most once per index, and 0 and 1 deliver each other's last 2t.
     */
    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    @Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // hang guard only
    void randomByzantineTraffic(long seed) {
        setUp(new SimNetwork(seed).defaultLatency(LatencyModel.exponential(300, 1_500)).tornWrites(0.3, 4_000));
        Random random = new Random(seed);
        int messages = 200;
        long near = 1;
        while (c.stream(0, 1).nextIndex() <= messages) {
            for (int s = 1; s <= 3; s++) {
                for (int r = 0; r < 2; r++) {
                    if (random.nextInt(3) == 0 && c.stream(r, s).nextIndex() <= messages) {
                        c.broadcast(r, s);
                    }
                }
            }
            int to = random.nextInt(2);
            int stream = 1 + random.nextInt(3);
            int len;
            switch (random.nextInt(6)) {
                case 0 -> { // a fresh or repeated index near the front
                    near += random.nextInt(3);
                    len = data(stream, Math.max(1, near - random.nextInt(2 * T)), random.nextInt(MAX + 1), (byte) random.nextInt());
                }
                case 1 -> len = data(stream, random.nextInt(3) == 0 ? random.nextLong() : 1 + random.nextLong(Tbcast.MAX_INDEX - 1),
                    random.nextInt(MAX + 2), (byte) random.nextInt());
                case 2 -> { // acknowledgements of anything
                    long[] words = new long[random.nextInt(LinkConfig.ackWords(2 * T) + 1)];
                    for (int i = 0; i < words.length; i++) {
                        words[i] = random.nextLong();
                    }
                    len = ack(stream, random.nextInt(4) == 0 ? random.nextLong() : random.nextInt(300), words);
                }
                case 3 -> { // a valid envelope with a few bits flipped
                    len = data(stream, near, random.nextInt(MAX + 1), (byte) random.nextInt());
                    for (int i = 1 + random.nextInt(3); i > 0; i--) {
                        int at = random.nextInt(len);
                        env.putByte(at, (byte) (env.getByte(at) ^ (1 << random.nextInt(8))));
                    }
                }
                case 4 -> { // garbage
                    len = random.nextInt(layout.maxMessageBytes() + 1);
                    for (int i = 0; i < len; i++) {
                        env.putByte(i, (byte) random.nextInt());
                    }
                }
                default -> len = random.nextInt(2) == 0 ? ack(stream, 1) : data(stream, near, 0, (byte) 0);
            }
            write(to, len);
            for (int i = random.nextInt(4); i >= 0; i--) {
                pump();
            }
        }
        for (int s = 1; s <= 3; s++) {
            for (int r = 0; r < 2; r++) {
                while (c.stream(r, s).nextIndex() <= messages) {
                    c.broadcast(r, s);
                }
            }
        }
        assertTrue(c.runUntil(() -> {
            byzRouter.poll(64);
            return c.tailDelivered();
        }, 200_000_000), () -> "tail-validity between correct replicas: " + c.missingFromTail());
        long dropped = 0;
        for (int r = 0; r < 2; r++) {
            dropped += c.links[r].malformed();
            for (int s = 1; s <= 3; s++) {
                Tbcast t = c.stream(r, s);
                dropped += t.malformed() + t.duplicates() + t.outOfWindow();
                assertTrue(t.buffered() <= 2 * T);
            }
        }
        assertTrue(dropped > 0, "nothing was dropped: the scenario does not exercise the checks");
        assertTrue(fromByz > 0, "nothing from 2 was delivered: the integrity check is not exercised");
    }
}
