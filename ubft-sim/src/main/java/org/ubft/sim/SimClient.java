package org.ubft.sim;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.NanoClock;
import org.ubft.apps.kv.KvReplyCodec;
import org.ubft.apps.kv.KvRequestCodec;
import org.ubft.apps.kv.KvStatus;
import org.ubft.common.NodeId;
import org.ubft.common.config.ClusterConfig;
import org.ubft.common.crypto.SigningKey;
import org.ubft.consensus.client.ClientCore;
import org.ubft.consensus.client.ClientLinks;
import org.ubft.ctbcast.link.LinkConfig;
import org.ubft.fabric.CompletionRouter;
import org.ubft.fabric.sim.SimNetwork;
import org.ubft.sim.linearizability.KvOp;

import java.util.SplittableRandom;

/**
 * A closed-loop client of the simulation: the real sans-IO {@link ClientCore} on {@link ClientLinks} over the
 * simulated fabric, keeping {@code inFlight} workload requests outstanding while submissions are open
 * ({@link #stopSubmitting}). Its session is fixed (1), so request numbers do not depend on the wall clock; it signs
 * retransmissions with its simulated key, as {@link org.ubft.consensus.client.UbftClient} does.
 *
 * <p>The workload: random fill bytes, or with {@code kvKeys > 0} random key-value operations on keys 1..kvKeys
 * ({@link #nextKvOp}: 35% GET, 25% PUT, 25% INCR, 15% CAS, whose expected value is mostly the last value this client
 * saw for the key, so that some succeed), carried as the request's body ({@link Payloads#body}).
 *
 * <p>Its {@link ClientBehaviour} (correct by default) sees the core's REQUESTs on their way to each replica.
 */
public final class SimClient {
    private final int index;
    private final int inFlight;
    private final NanoClock clock;
    private final SimEvents events;
    private final SplittableRandom random;
    private final int maxFill;
    private final ClientLinks links;
    private final ClientCore core;
    /** Outstanding workload sequence by slot, with its library number; at most {@code inFlight}. */
    private final long[] outstandingSeq;
    private final long[] outstandingNumber;
    /** Per slot of the loop: when it may submit again (after a think time); {@code Long.MAX_VALUE} while in use. */
    private final long[] readyAt;
    private final long thinkNanos;
    /** Keys of the key-value workload (0: the payload workload); per slot the key of its request; last values seen. */
    private final int kvKeys;
    private final long[] outstandingKey;
    private final long[] lastSeen;
    private final ClientBehaviour behaviour;
    private long nextSeq = 1;
    /** The Redis workload instead ({@link SimOptions#withRedis}), or null. */
    private RedisWorkload redis;
    private long submitUntil = Long.MAX_VALUE;

    SimClient(SimNetwork net, ClusterConfig cluster, int index, int inFlight, SigningKey key, SimEvents events,
              SplittableRandom random, long initialTimeoutNanos, long maxTimeoutNanos, long thinkNanos, int kvKeys,
              ClientBehaviour behaviour, ClientContext context) {
        this.index = index;
        this.kvKeys = kvKeys;
        this.outstandingKey = new long[inFlight];
        this.lastSeen = new long[kvKeys + 1];
        this.inFlight = inFlight;
        this.clock = net.clock();
        this.events = events;
        this.random = random;
        this.outstandingSeq = new long[inFlight];
        this.outstandingNumber = new long[inFlight];
        this.readyAt = new long[inFlight];
        this.thinkNanos = thinkNanos;
        LinkConfig config = ClientLinks.defaultConfig(cluster);
        int maxPayload = ClientLinks.maxRequestPayload(config.maxPayloadBytes());
        this.maxFill = Math.max(0, Math.min(32, maxPayload - Payloads.HEADER_BYTES));
        if (kvKeys > 0 && maxFill < KvRequestCodec.CAS_BYTES) {
            throw new IllegalArgumentException("requests of " + maxPayload + " bytes cannot carry a key-value CAS");
        }
        CompletionRouter router = new CompletionRouter(net.open(NodeId.client(index)), 8);
        ClientCore[] ref = new ClientCore[1];
        this.links = ClientLinks.forClient(router, clock, index, cluster.n(), config,
            (replica, b, off, len) -> ref[0].onReply(replica, b, off, len));
        this.core = new ClientCore(new ClientCore.Config(index, cluster.n(), cluster.f() + 1, maxPayload,
            ClientLinks.maxReplyBody(config.maxPayloadBytes()), inFlight, initialTimeoutNanos, maxTimeoutNanos),
            clock, () -> 1, behaviour.wrapPort(links::send, context), key::sign, this::onComplete);
        ref[0] = core;
        this.behaviour = behaviour;
    }

    /** One duty cycle: the links, retransmissions, then new submissions up to the in-flight target. */
    int doWork() {
        int work = links.doWork() + core.doWork();
        long now = clock.nanoTime();
        if (now < submitUntil) {
            for (int s = 0; s < inFlight && core.hasRoom(); s++) {
                if (readyAt[s] <= now) {
                    readyAt[s] = Long.MAX_VALUE;
                    submit();
                    work++;
                }
            }
        }
        return work;
    }

    /** Frees one slot of the loop after a think time. */
    private void release(long now) {
        for (int s = 0; s < inFlight; s++) {
            if (readyAt[s] == Long.MAX_VALUE) {
                readyAt[s] = thinkNanos <= 0 ? now : now + (long) (-StrictMath.log(1.0 - random.nextDouble()) * thinkNanos);
                return;
            }
        }
    }

    private void submit() {
        long seq = nextSeq++;
        long key = 0;
        byte[] fill;
        if (redis != null) {
            fill = RedisWorkload.encode(redis.next(random));
        } else if (kvKeys > 0) {
            KvOp op = nextKvOp();
            key = op.key();
            fill = op.encode();
        } else {
            fill = new byte[random.nextInt(maxFill + 1)];
            random.nextBytes(fill);
        }
        byte[] payload = Payloads.request(index, seq, fill);
        long number = core.submit(payload);
        if (number < 0) {
            throw new IllegalStateException("client " + index + " refused a submit it had room for");
        }
        for (int s = 0; s < inFlight; s++) {
            if (outstandingSeq[s] == 0) {
                outstandingSeq[s] = seq;
                outstandingNumber[s] = number;
                outstandingKey[s] = key;
                break;
            }
        }
        events.submitted(clock.nanoTime(), index, seq, number, payload);
    }

    private void onComplete(long number, DirectBuffer reply, int offset, int length) {
        byte[] bytes = new byte[length];
        reply.getBytes(offset, bytes);
        for (int s = 0; s < inFlight; s++) {
            if (outstandingNumber[s] == number && outstandingSeq[s] != 0) {
                long seq = outstandingSeq[s];
                if (kvKeys > 0) {
                    observe(outstandingKey[s], Payloads.replyBody(bytes));
                }
                outstandingSeq[s] = 0;
                outstandingNumber[s] = 0;
                release(clock.nanoTime());
                events.accepted(clock.nanoTime(), index, seq, number, bytes);
                return;
            }
        }
    }

    /** Sends the Redis workload's commands instead (before the first submit). */
    void useRedis(RedisWorkload workload) {
        this.redis = workload;
    }

    /** The next random key-value operation (from this client's seeded random source). */
    private KvOp nextKvOp() {
        long key = 1 + random.nextInt(kvKeys);
        int kind = random.nextInt(100);
        if (kind < 35) {
            return KvOp.get(key);
        } else if (kind < 60) {
            return KvOp.put(key, random.nextInt(10));
        } else if (kind < 85) {
            return KvOp.incr(key, 1 + random.nextInt(3));
        }
        long expected = random.nextInt(4) == 0 ? random.nextInt(10) : lastSeen[(int) key];
        return KvOp.cas(key, expected, random.nextInt(10));
    }

    /** Remembers the value a reply reported for {@code key} (for the next CAS's expected value). */
    private void observe(long key, byte[] body) {
        if (key < 1 || key > kvKeys || body == null || body.length != KvReplyCodec.REPLY_BYTES) {
            return;
        }
        KvStatus status = KvStatus.ofCode(body[0]);
        if (status == KvStatus.OK || status == KvStatus.CAS_FAILED) {
            lastSeen[(int) key] = KvReplyCodec.decode(body).value();
        }
    }

    /** No submissions from {@code time} on (outstanding requests are still retransmitted). */
    void stopSubmitting(long time) {
        this.submitUntil = time;
    }

    public int index() {
        return index;
    }

    public ClientBehaviour behaviour() {
        return behaviour;
    }

    public ClientCore core() {
        return core;
    }

    /** Workload requests submitted so far. */
    public long submitted() {
        return nextSeq - 1;
    }
}
