package org.ubft.ctbcast.core;

import org.ubft.common.crypto.Fingerprints;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.ubft.ctbcast.core.CtbcastConfig.SignedMode;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One replica's core driven by hand-made events (docs/design.md §11): in-memory registers whose contents the test
 * sets, the inline Ed25519 port, a TBcast port that records. Each rule of Algorithm 1 gets a scenario that
 * needs it.
 */
class CtbcastCoreTest {
    private static final int N = 3;
    private static final int T = 4;
    private static final int ME = 1;
    private static final int P = 0; // the broadcaster of the stream under test

    private final long[] now = {0};
    private final List<byte[]> sent = new ArrayList<>();
    /** The replicas each of {@link #sent} was addressed to (bit r for replica r). */
    private final List<Long> sentTo = new ArrayList<>();
    private final List<Object[]> delivered = new ArrayList<>();
    private MemoryRegisters registers;
    private RefusingSignatures signatures;
    private CtbcastReplica core;
    private Adversary broadcasterKeys;
    private CtbcastConfig config;

    @BeforeEach
    void setUp() {
        build(new CtbcastConfig(N, T, 100, 16, SignedMode.AFTER_TIMEOUT, 50_000, 0));
    }

    private void build(CtbcastConfig c) {
        config = c;
        sent.clear();
        sentTo.clear();
        delivered.clear();
        byte[][] publicKeys = new byte[N][];
        for (int i = 0; i < N; i++) {
            publicKeys[i] = InlineEd25519Signatures.publicKey(CtbcastCluster.privateKey(i));
        }
        registers = new MemoryRegisters(ME);
        signatures = new RefusingSignatures(new InlineEd25519Signatures(CtbcastCluster.privateKey(ME), publicKeys, 64));
        core = new CtbcastReplica(c, ME, () -> now[0], (b, o, l, to) -> {
            byte[] m = new byte[l];
            b.getBytes(o, m, 0, l);
            sent.add(m);
            sentTo.add(to);
        }, signatures, registers, (k, m, o, l, p) -> {
            byte[] bytes = new byte[l];
            m.getBytes(o, bytes, 0, l);
            delivered.add(new Object[] {k, bytes, p});
        });
        registers.listener = core;
        signatures.inner.bind(core);
        broadcasterKeys = new Adversary(P, c, CtbcastCluster.privateKey(P), null, new SplittableRandom(1));
    }

    private void receive(int from, byte[] message) {
        core.onTbcastDeliver(from, new UnsafeBuffer(message), 0, message.length);
    }

    /** Runs signatures, registers and the core until nothing moves. */
    private void settle() {
        for (int i = 0; i < 100; i++) {
            int work = signatures.inner.doWork() + registers.complete() + core.doWork();
            if (work == 0) {
                return;
            }
        }
    }

    private byte[] message(int length, int seed) {
        byte[] m = new byte[length];
        Arrays.fill(m, (byte) seed);
        return m;
    }

    private void assertDelivered(long k, byte[] m) {
        assertEquals(1, delivered.size(), "deliveries");
        assertEquals(k, delivered.get(0)[0]);
        assertArrayEquals(m, (byte[]) delivered.get(0)[1]);
        assertEquals(P, delivered.get(0)[2]);
    }

    private byte[] signedValue(long k, byte[] m) {
        byte[] fp = broadcasterKeys.fingerprint(m);
        return Adversary.registerValue(k, fp, broadcasterKeys.signature(k, fp));
    }

    // ---- fast path --------------------------------------------------------------------------------------

    @Test
    void theBroadcasterDeliversItsOwnMessagesAtDeliverOwnWithoutLockedNeverInsideBroadcast() {
        // first deviation of CtbcastReceiver: no LOCKED needed for our own stream, and no upcall inside broadcast
        List<Long> own = new ArrayList<>();
        CtbcastReplica[] self = new CtbcastReplica[1];
        byte[] second = message(5, 9);
        self[0] = new CtbcastReplica(config, ME, () -> now[0], (b, o, l, to) -> sent.add(new byte[l]), signatures,
            registers, (k, m, o, l, p) -> {
                assertEquals(ME, p);
                own.add(k);
                if (k == 1) {
                    self[0].broadcast(new UnsafeBuffer(second), 0, second.length); // broadcast from the upcall
                }
            });
        CtbcastReplica c = self[0];
        assertEquals(1, c.broadcast(new UnsafeBuffer(message(10, 1)), 0, 10));
        assertEquals(List.of(), own, "not delivered inside broadcast");
        assertEquals(1, sent.size(), "LOCK");
        assertEquals(2, c.deliverOwn(), "k = 1 and the k = 2 its upcall broadcast, in one call");
        assertEquals(List.of(1L, 2L), own);
        assertEquals(2, c.counters().ownDeliveries());
        assertEquals(0, c.counters().fastDeliveries() + c.counters().slowDeliveries());
        assertEquals(0, c.deliverOwn(), "nothing twice");
        c.broadcast(new UnsafeBuffer(message(3, 4)), 0, 3);
        c.doWork(); // the duty cycle delivers what the owner did not
        assertEquals(List.of(1L, 2L, 3L), own);
        // a LOCKED for our own stream (a Byzantine receiver's; correct ones send none) delivers nothing again
        byte[] locked = new Adversary(2, config, CtbcastCluster.privateKey(2), null, new SplittableRandom(2))
            .locked(ME, 3, message(3, 4));
        c.onTbcastDeliver(2, new UnsafeBuffer(locked), 0, locked.length);
        c.doWork();
        assertEquals(List.of(1L, 2L, 3L), own);
        assertEquals(0, c.counters().malformed() + c.counters().fastDeliveries());
    }

    @Test
    void lockAndSignedGoToEveryOtherReplicaAndRequestSignedToTheBroadcasterOnly() {
        core.broadcast(new UnsafeBuffer(message(4, 1)), 0, 4);
        assertEquals(CtbcastMessage.LOCK, sent.get(0)[CtbcastMessage.TYPE_OFFSET]);
        assertEquals(0b101L, sentTo.get(0));
        core.receiver(P).requestSlowPath(1);
        assertEquals(CtbcastMessage.REQUEST_SIGNED, sent.get(1)[CtbcastMessage.TYPE_OFFSET]);
        assertEquals(1L << P, sentTo.get(1));
    }

    @Test
    void fastPathNeedsTheSameLockedFromAllN() {
        byte[] m = message(10, 1);
        receive(P, broadcasterKeys.lock(P, 1, m)); // lines 12-16
        assertEquals(1, sent.size());
        assertArrayEquals(broadcasterKeys.locked(P, 1, m), sent.get(0), "LOCKED(k, m)");
        assertEquals(1L << 2, sentTo.get(0), "to the other receiver only: the broadcaster delivers without LOCKEDs");
        assertEquals(0, delivered.size());
        receive(2, broadcasterKeys.locked(P, 1, message(10, 2))); // another m from replica 2
        assertEquals(0, delivered.size());
        build(config);
        receive(P, broadcasterKeys.lock(P, 1, m));
        receive(2, broadcasterKeys.locked(P, 1, m)); // line 22
        assertDelivered(1, m);
        assertEquals(1, core.counters().fastDeliveries());
    }

    @Test
    void largeMessagesAreLockedByFingerprint() {
        byte[] m = message(90, 3);
        receive(2, broadcasterKeys.locked(P, 1, m)); // LOCKED before LOCK
        receive(P, broadcasterKeys.lock(P, 1, m));
        assertEquals(CtbcastMessage.HEADER_BYTES + Fingerprints.FINGERPRINT_BYTES, sent.get(0).length);
        assertDelivered(1, m);
    }

    @Test
    void lockedFromTheBroadcasterOrFromSelfIsDropped() {
        byte[] m = message(10, 1);
        receive(P, broadcasterKeys.locked(P, 1, m));
        receive(ME, broadcasterKeys.locked(P, 1, m));
        receive(2, broadcasterKeys.lock(P, 1, m)); // a LOCK not from the broadcaster
        assertEquals(2, core.counters().wrongSender());
        assertEquals(1, core.counters().malformed());
        assertEquals(0, sent.size());
    }

    @Test
    void secondLockForTheSameKIsRefused() {
        receive(P, broadcasterKeys.lock(P, 1, message(10, 1)));
        receive(P, broadcasterKeys.lock(P, 1, message(10, 2))); // line 14
        assertEquals(1, sent.size(), "at most one LOCKED per k (Observation 2)");
        assertEquals(1, core.counters().staleLocks());
    }

    // ---- slow path --------------------------------------------------------------------------------------

    @Test
    void slowPathWritesThenReadsEveryRegisterThenDelivers() {
        byte[] m = message(20, 4);
        receive(P, broadcasterKeys.signed(1, m));
        settle();
        assertDelivered(1, m);
        assertArrayEquals(signedValue(1, m), registers.get(ME, P, 1), "(k, fingerprint, sig) in SWMR[me][k%t]");
        assertEquals(1, registers.timestamp(ME, P, 1));
        assertEquals(N, registers.reads);
        assertTrue(registers.readsAfterWrite, "reads start after the write completed");
    }

    @Test
    void badSignatureIsDropped() {
        byte[] m = message(20, 4);
        receive(P, broadcasterKeys.signedWith(P, 1, m, new byte[SignedStatement.SIGNATURE_BYTES])); // line 26
        settle();
        assertEquals(0, delivered.size());
        assertEquals(1, core.counters().badSignatures());
        assertEquals(0, registers.writes);
    }

    @Test
    void signedForAnotherMessageThanTheLockedOneIsRefused() {
        byte[] m = message(20, 4);
        receive(P, broadcasterKeys.lock(P, 1, m));
        receive(P, broadcasterKeys.signed(1, message(20, 5))); // line 28: k == k' but m != m'
        settle();
        assertEquals(1, core.counters().lockConflicts());
        assertEquals(0, registers.writes);
        receive(P, broadcasterKeys.signed(1, m)); // k == k' and m == m'
        settle();
        assertDelivered(1, m);
    }

    @Test
    void differentValidlySignedMessageInARegisterStopsDelivery() {
        registers.put(2, P, 1, 1, signedValue(1, message(20, 6))); // line 33
        receive(P, broadcasterKeys.signed(1, message(20, 4)));
        settle();
        assertEquals(0, delivered.size());
        assertEquals(1, core.counters().byzantineBroadcasterDetected());
    }

    @Test
    void newerValidlySignedIdentifierInTheSlotStopsDelivery() {
        registers.put(2, P, 1, 1 + T, signedValue(1 + T, message(20, 6))); // line 35
        receive(P, broadcasterKeys.signed(1, message(20, 4)));
        settle();
        assertEquals(0, delivered.size());
        assertEquals(1, core.counters().outOfTail());
    }

    @Test
    void registerValuesWithoutAValidSignatureAreIgnored() {
        byte[] m = message(20, 4);
        byte[] forged = signedValue(1, message(20, 6));
        forged[RegisterValue.SIGNATURE_OFFSET] ^= 1;
        registers.put(2, P, 1, 1, forged); // line 32
        byte[] forgedNewer = signedValue(1 + T, message(20, 6));
        forgedNewer[RegisterValue.SIGNATURE_OFFSET + 5] ^= 1;
        registers.put(0, P, 1, 1 + T, forgedNewer);
        receive(P, broadcasterKeys.signed(1, m));
        settle();
        assertDelivered(1, m);
        assertEquals(2, core.counters().invalidRegisterValues());
    }

    @Test
    void olderOrUnrelatedRegisterValuesNeedNoVerification() {
        byte[] m = message(20, 4);
        // SIGNED(k = 5) lands in slot 1. There replica 0 holds k = 3 (another residue: a Byzantine owner's) and
        // replica 2 holds k = 1 (older), both for another m: neither line 33 nor line 35 can apply.
        registers.put(0, P, 1, 3, signedValue(3, message(20, 6)));
        registers.put(2, P, 1, 1, signedValue(1, message(20, 6)));
        receive(P, broadcasterKeys.signed(1 + T, m));
        settle();
        assertEquals(1, delivered.size());
        assertEquals(1, core.counters().verifyRequests(), "only the SIGNED itself was verified");
    }

    @Test
    void refusedPortRequestsAreRetried() {
        signatures.refuse = 3;
        registers.refuseWrites = 2;
        registers.refuseReads = 4;
        byte[] m = message(20, 4);
        receive(P, broadcasterKeys.signed(1, m));
        settle();
        assertDelivered(1, m);
    }

    @Test
    void newerSignedReplacesTheSlowPathInProgress() {
        receive(P, broadcasterKeys.signed(1, message(20, 4)));
        byte[] newer = message(20, 7);
        receive(P, broadcasterKeys.signed(1 + T, newer)); // before the first one's verification came back
        settle();
        assertEquals(1, delivered.size());
        assertEquals(1L + T, delivered.get(0)[0]);
        assertEquals(1, core.counters().slowPathsSuperseded());
    }

    @Test
    void bothPathsDeliverOnce() {
        byte[] m = message(20, 4);
        receive(P, broadcasterKeys.lock(P, 1, m));
        receive(P, broadcasterKeys.signed(1, m));
        signatures.inner.doWork(); // the slow path has verified and started writing
        receive(2, broadcasterKeys.locked(P, 1, m)); // the fast path delivers
        settle();
        assertDelivered(1, m); // lines 40-41
        receive(P, broadcasterKeys.signed(1, m));
        settle();
        assertEquals(1, delivered.size());

        // Now the slow path first, then the fast path completes: line 40 alone stops a second delivery.
        build(config);
        receive(P, broadcasterKeys.lock(P, 1, m));
        receive(P, broadcasterKeys.signed(1, m));
        settle();
        assertDelivered(1, m);
        receive(2, broadcasterKeys.locked(P, 1, m));
        settle();
        assertEquals(1, delivered.size());
        assertEquals(1, core.counters().duplicatesSuppressed());
    }

    // ---- broadcaster and requests ---------------------------------------------------------------------

    private CtbcastReplica broadcasterCore(CtbcastConfig c) {
        byte[][] publicKeys = new byte[N][];
        for (int i = 0; i < N; i++) {
            publicKeys[i] = InlineEd25519Signatures.publicKey(CtbcastCluster.privateKey(i));
        }
        sent.clear();
        registers = new MemoryRegisters(P);
        signatures = new RefusingSignatures(new InlineEd25519Signatures(CtbcastCluster.privateKey(P), publicKeys, 64));
        CtbcastReplica b = new CtbcastReplica(c, P, () -> now[0], (buf, o, l, to) -> {
            byte[] m = new byte[l];
            buf.getBytes(o, m, 0, l);
            sent.add(m);
        }, signatures, registers, (k, m, o, l, p) -> { });
        registers.listener = b;
        signatures.inner.bind(b);
        core = b;
        return b;
    }

    private long sentOfType(byte type) {
        return sent.stream().filter(m -> Adversary.type(m) == type).count();
    }

    @Test
    void signedAfterTheTimeoutUnlessAllDelivered() {
        CtbcastReplica b = broadcasterCore(config);
        byte[] m = message(20, 4);
        assertEquals(1, b.broadcast(new UnsafeBuffer(m), 0, m.length));
        assertEquals(2, b.broadcast(new UnsafeBuffer(m), 0, m.length));
        assertEquals(2, sentOfType(CtbcastMessage.LOCK));
        settle();
        assertEquals(0, sentOfType(CtbcastMessage.SIGNED));
        b.broadcaster().allDelivered(1);
        now[0] = 50_000;
        settle();
        assertEquals(1, sentOfType(CtbcastMessage.SIGNED), "only k = 2 is signed");
        assertEquals(2, Adversary.k(sent.get(sent.size() - 1)));
    }

    /**
     * While the layer above knows a receiver is absent (consensus's Absence) each message is signed with its LOCK,
     * and those broadcast before that are signed at once rather than at their timeouts; afterwards the timeout is back.
     */
    @Test
    void signedWithLockWhileTheLayerAboveAsksForEagerSigning() {
        CtbcastReplica b = broadcasterCore(config);
        byte[] m = message(20, 4);
        b.broadcast(new UnsafeBuffer(m), 0, m.length);
        settle();
        assertEquals(0, sentOfType(CtbcastMessage.SIGNED), "before its timeout");
        b.broadcaster().signEagerly(true);
        settle();
        assertEquals(1, sentOfType(CtbcastMessage.SIGNED), "the one waiting for its timeout, signed at once");
        b.broadcast(new UnsafeBuffer(m), 0, m.length);
        settle();
        assertEquals(2, sentOfType(CtbcastMessage.SIGNED), "signed with its LOCK");
        assertArrayEquals(broadcasterKeys.signed(2, m), sent.get(sent.size() - 1));
        b.broadcaster().signEagerly(false);
        b.broadcast(new UnsafeBuffer(m), 0, m.length);
        settle();
        assertEquals(2, sentOfType(CtbcastMessage.SIGNED), "back to signing after the timeout");
        now[0] = 50_000;
        settle();
        assertEquals(3, sentOfType(CtbcastMessage.SIGNED));
    }

    @Test
    void signedWithLockInImmediateMode() {
        CtbcastReplica b = broadcasterCore(new CtbcastConfig(N, T, 100, 16, SignedMode.IMMEDIATELY, 50_000, 0));
        byte[] m = message(20, 4);
        b.broadcast(new UnsafeBuffer(m), 0, m.length);
        settle();
        assertEquals(1, sentOfType(CtbcastMessage.SIGNED));
        assertArrayEquals(broadcasterKeys.signed(1, m), sent.get(sent.size() - 1));
    }

    @Test
    void requestSignedIsSignedOncePerKAndSentAgainAtMostOncePerSlowPathTimeout() {
        CtbcastReplica b = broadcasterCore(config);
        byte[] m = message(20, 4);
        b.broadcast(new UnsafeBuffer(m), 0, m.length);
        UnsafeBuffer request = new UnsafeBuffer(new byte[CtbcastMessage.HEADER_BYTES]);
        int length = CtbcastMessage.encodeRequestSigned(request, 0, P, 1);
        b.onTbcastDeliver(1, request, 0, length);
        b.onTbcastDeliver(2, request, 0, length);
        settle();
        assertEquals(1, sentOfType(CtbcastMessage.SIGNED));
        assertEquals(1, b.counters().signedRequestsServed());
        assertEquals(1, b.counters().signedRequestsIgnored(), "the second request, within the slow-path timeout");
        byte[] first = sent.get(sent.size() - 1);
        length = CtbcastMessage.encodeRequestSigned(request, 0, P, 7); // never broadcast
        b.onTbcastDeliver(2, request, 0, length);
        assertEquals(2, b.counters().signedRequestsIgnored());
        // a receiver that restarted asks again later: the same SIGNED (one signature per k), once per timeout
        now[0] += config.slowPathTimeoutNanos();
        length = CtbcastMessage.encodeRequestSigned(request, 0, P, 1);
        b.onTbcastDeliver(2, request, 0, length);
        b.onTbcastDeliver(1, request, 0, length);
        settle();
        assertEquals(2, sentOfType(CtbcastMessage.SIGNED));
        assertArrayEquals(first, sent.get(sent.size() - 1));
        assertEquals(2, b.counters().signedRequestsServed());
        assertEquals(3, b.counters().signedRequestsIgnored());
        assertEquals(1, b.counters().signRequests(), "signed once");
    }

    /** A Byzantine replica asking for every identifier over and over gets at most t resends per budget period. */
    @Test
    void aRequesterCausesAtMostTResendsPerPeriod() {
        long timeout = 50_000;
        CtbcastReplica b = broadcasterCore(new CtbcastConfig(N, T, 100, 16, SignedMode.IMMEDIATELY, timeout, 0));
        byte[] m = message(20, 4);
        for (int i = 0; i < T; i++) {
            b.broadcast(new UnsafeBuffer(m), 0, m.length);
        }
        settle();
        long signed = sentOfType(CtbcastMessage.SIGNED);
        assertEquals(T, signed);
        UnsafeBuffer request = new UnsafeBuffer(new byte[CtbcastMessage.HEADER_BYTES]);
        for (int round = 1; round < CtbcastBroadcaster.RESEND_PERIODS; round++) {
            now[0] += timeout;
            for (long k = 1; k <= T; k++) {
                b.onTbcastDeliver(2, request, 0, CtbcastMessage.encodeRequestSigned(request, 0, P, k));
            }
            settle();
        }
        assertEquals(signed + T, sentOfType(CtbcastMessage.SIGNED), "one tail's worth in the period, not "
            + (CtbcastBroadcaster.RESEND_PERIODS - 1) + " of them");
        now[0] += timeout; // another requester has its own budget
        b.onTbcastDeliver(1, request, 0, CtbcastMessage.encodeRequestSigned(request, 0, P, 1));
        settle();
        assertEquals(signed + T + 1, sentOfType(CtbcastMessage.SIGNED));
    }

    @Test
    void receiverAsksForTheSlowPathAfterItsTimeout() {
        build(new CtbcastConfig(N, T, 100, 16, SignedMode.AFTER_TIMEOUT, 50_000, 10_000));
        receive(P, broadcasterKeys.lock(P, 1, message(10, 1)));
        core.doWork();
        assertEquals(0, sentOfType(CtbcastMessage.REQUEST_SIGNED));
        now[0] = 10_000;
        core.doWork();
        assertEquals(1, sentOfType(CtbcastMessage.REQUEST_SIGNED));
        now[0] = 100_000;
        core.doWork();
        assertEquals(1, sentOfType(CtbcastMessage.REQUEST_SIGNED));
    }

    // ---- Byzantine input is data --------------------------------------------------------------------------

    @Test
    void garbageIsDroppedAndCountedNeverThrown() {
        SplittableRandom random = new SplittableRandom(42);
        byte[][] valid = {
            broadcasterKeys.lock(P, 1, message(10, 1)),
            broadcasterKeys.locked(P, 2, message(90, 2)),
            broadcasterKeys.signed(3, message(30, 3)),
            new Adversary(2, config, CtbcastCluster.privateKey(2), null, random).lock(2, 4, message(3, 3)),
        };
        for (int i = 0; i < 200_000; i++) {
            byte[] m;
            if (random.nextBoolean()) {
                m = valid[random.nextInt(valid.length)].clone();
                int flips = 1 + random.nextInt(3);
                for (int f = 0; f < flips; f++) {
                    m[random.nextInt(m.length)] = (byte) random.nextInt(256);
                }
                if (random.nextInt(8) == 0) {
                    m = Arrays.copyOf(m, random.nextInt(m.length + 40));
                }
            } else {
                m = new byte[random.nextInt(200)];
                random.nextBytes(m);
            }
            receive(random.nextInt(-1, N + 1), m);
            if (i % 64 == 0) {
                settle();
            }
        }
        settle();
        assertTrue(core.counters().malformed() > 50_000, core.counters().toString());
    }

    // ---- test ports -------------------------------------------------------------------------------------

    /** Registers in a map, written and read when the test calls {@link #complete()}. */
    static final class MemoryRegisters implements RegisterPort {
        private final int me;
        private final Map<String, long[]> timestamps = new HashMap<>();
        private final Map<String, byte[]> values = new HashMap<>();
        private final ArrayDeque<Runnable> pending = new ArrayDeque<>();
        RegisterListener listener;
        int refuseWrites;
        int refuseReads;
        int writes;
        int reads;
        boolean readsAfterWrite = true;
        private int writesInFlight;

        MemoryRegisters(int me) {
            this.me = me;
        }

        private static String key(int owner, int broadcaster, long slot) {
            return owner + "/" + broadcaster + "/" + slot;
        }

        void put(int owner, int broadcaster, long k, long timestamp, byte[] value) {
            String key = key(owner, broadcaster, k % T);
            timestamps.put(key, new long[] {timestamp});
            values.put(key, value.clone());
        }

        byte[] get(int owner, int broadcaster, long k) {
            return values.get(key(owner, broadcaster, k % T));
        }

        long timestamp(int owner, int broadcaster, long k) {
            return timestamps.get(key(owner, broadcaster, k % T))[0];
        }

        @Override
        public boolean write(long token, int broadcaster, int slot, long k, DirectBuffer value, int offset) {
            if (refuseWrites > 0) {
                refuseWrites--;
                return false;
            }
            byte[] v = new byte[RegisterValue.BYTES];
            value.getBytes(offset, v, 0, v.length);
            writes++;
            writesInFlight++;
            pending.add(() -> {
                String key = key(me, broadcaster, slot);
                long[] ts = timestamps.get(key);
                if (ts == null || k > ts[0]) {
                    put(me, broadcaster, slot, k, v);
                }
                writesInFlight--;
                listener.onRegisterWritten(token, k, true);
            });
            return true;
        }

        @Override
        public boolean read(long token, int owner, int broadcaster, int slot) {
            if (refuseReads > 0) {
                refuseReads--;
                return false;
            }
            reads++;
            if (writesInFlight > 0) {
                readsAfterWrite = false;
            }
            pending.add(() -> {
                String key = key(owner, broadcaster, slot);
                byte[] v = values.get(key);
                if (v == null) {
                    listener.onRegisterRead(token, true, -1, new UnsafeBuffer(new byte[0]), 0, 0);
                } else {
                    listener.onRegisterRead(token, true, timestamps.get(key)[0], new UnsafeBuffer(v), 0, v.length);
                }
            });
            return true;
        }

        int complete() {
            int n = pending.size();
            for (int i = 0; i < n; i++) {
                pending.poll().run();
            }
            return n;
        }
    }

    /** The inline port, refusing its first {@link #refuse} requests. */
    static final class RefusingSignatures implements SignaturePort {
        final InlineEd25519Signatures inner;
        int refuse;

        RefusingSignatures(InlineEd25519Signatures inner) {
            this.inner = inner;
        }

        @Override
        public boolean requestSign(long token, DirectBuffer data, int offset, int length) {
            if (refuse > 0) {
                refuse--;
                return false;
            }
            return inner.requestSign(token, data, offset, length);
        }

        @Override
        public boolean requestVerify(long token, int signer, DirectBuffer data, int offset, int length,
                                     DirectBuffer signature, int sigOffset) {
            if (refuse > 0) {
                refuse--;
                return false;
            }
            return inner.requestVerify(token, signer, data, offset, length, signature, sigOffset);
        }
    }
}
