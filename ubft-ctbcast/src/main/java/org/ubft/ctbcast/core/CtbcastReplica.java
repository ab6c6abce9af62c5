package org.ubft.ctbcast.core;

import org.ubft.common.crypto.Fingerprints;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A replica's CTBcast core (paper §4.2, Algorithm 1): one {@link CtbcastReceiver} per broadcaster (n streams,
 * its own included) and the {@link CtbcastBroadcaster} of its own stream. Sans-IO (docs/design.md §3):
 * single-threaded, no threads, clock or randomness of its own; it is driven by
 * <ul>
 *   <li>{@link #onTbcastDeliver}: a message TBcast delivered from replica {@code from};</li>
 *   <li>{@link #onSigned} / {@link #onVerified}: results of its {@link SignaturePort} requests;</li>
 *   <li>{@link #onRegisterWritten} / {@link #onRegisterRead}: results of its {@link RegisterPort} requests;</li>
 *   <li>{@link #doWork()}: timers (from the injected {@link NanoClock}) and requests a port refused;</li>
 *   <li>{@link #broadcast} and the layer above's hints ({@link CtbcastBroadcaster#allDelivered},
 *       {@link CtbcastReceiver#requestSlowPath});</li>
 * </ul>
 * and acts through {@link TbcastPort}, {@link SignaturePort}, {@link RegisterPort} and the
 * {@link DeliverHandler} upcall. Anything a peer sends that fails a check is dropped and counted
 * ({@link #counters()}); nothing it sends throws or makes memory grow: all state is sized here, from n, t and
 * the maximum message size.
 */
public final class CtbcastReplica implements SignatureListener, RegisterListener {
    private final CtbcastConfig config;
    private final int me;
    private final NanoClock clock;
    private final TbcastPort tbcast;
    private final SignaturePort signatures;
    private SignedCheckBudget signedCheckBudget = SignedCheckBudget.UNLIMITED;
    private final RegisterPort registers;
    private final DeliverHandler deliverHandler;
    private final CtbcastCounters counters = new CtbcastCounters();
    private final CtbcastReceiver[] receivers;
    private final CtbcastBroadcaster broadcaster;
    private final CtbcastMessage decoder;
    private final Fingerprints fingerprints;
    private final UnsafeBuffer sendBuffer;
    private final UnsafeBuffer fingerprintScratch = new UnsafeBuffer(new byte[Fingerprints.FINGERPRINT_BYTES]);
    private final UnsafeBuffer statementScratch = new UnsafeBuffer(new byte[SignedStatement.BYTES]);
    private final UnsafeBuffer valueScratch = new UnsafeBuffer(new byte[RegisterValue.BYTES]);

    /**
     * @param me the index of this replica, 0..n-1
     */
    public CtbcastReplica(CtbcastConfig config, int me, NanoClock clock, TbcastPort tbcast, SignaturePort signatures,
                          RegisterPort registers, DeliverHandler deliverHandler) {
        if (me < 0 || me >= config.n()) {
            throw new IllegalArgumentException("replica index " + me + " outside 0.." + (config.n() - 1));
        }
        this.config = config;
        this.me = me;
        this.clock = clock;
        this.tbcast = tbcast;
        this.signatures = signatures;
        this.registers = registers;
        this.deliverHandler = deliverHandler;
        this.decoder = new CtbcastMessage(config);
        this.fingerprints = new Fingerprints();
        this.sendBuffer = new UnsafeBuffer(new byte[CtbcastMessage.maxEncodedBytes(config)]);
        this.receivers = new CtbcastReceiver[config.n()];
        for (int p = 0; p < receivers.length; p++) {
            receivers[p] = new CtbcastReceiver(this, p);
        }
        this.broadcaster = new CtbcastBroadcaster(this);
    }

    /** CTBcast-broadcast m with the next identifier of this replica's stream; see {@link CtbcastBroadcaster}. */
    public long broadcast(DirectBuffer m, int offset, int length) {
        return broadcaster.broadcast(m, offset, length);
    }

    /** A message TBcast delivered from replica {@code from} (an index, 0..n-1); anything malformed is dropped. */
    public void onTbcastDeliver(int from, DirectBuffer buffer, int offset, int length) {
        if (from < 0 || from >= config.n() || from == me) {
            counters.malformed++; // our own messages are handled without TBcast
            return;
        }
        int decoded = decoder.wrap(buffer, offset, length);
        if (decoded != CtbcastMessage.OK) {
            counters.malformed++;
            counters.tooLong += decoded == CtbcastMessage.TOO_LONG ? 1 : 0;
            return;
        }
        int p = decoder.broadcaster();
        long k = decoder.k();
        switch (decoder.type()) {
            case CtbcastMessage.LOCK -> { // line 12: LOCK from p
                if (from != p) {
                    counters.wrongSender++;
                    return;
                }
                receivers[p].onLock(k, buffer, decoder.messageOffset(), decoder.messageLength());
            }
            case CtbcastMessage.LOCKED -> { // line 18: LOCKED from q (p's LOCK is its LOCKED)
                if (from == p) {
                    counters.wrongSender++;
                    return;
                }
                receivers[p].onLocked(from, k, decoder.messageLength(), buffer, decoder.lockedBodyOffset(),
                    decoder.lockedBodyLength());
            }
            case CtbcastMessage.SIGNED -> { // line 25: SIGNED from p
                if (from != p) {
                    counters.wrongSender++;
                    return;
                }
                receivers[p].onSigned(k, buffer, decoder.messageOffset(), decoder.messageLength(), buffer,
                    decoder.signatureOffset(), false);
            }
            default -> { // REQUEST_SIGNED: only the stream's broadcaster acts on it
                if (p == me) {
                    broadcaster.onRequestSigned(from, k);
                }
            }
        }
    }

    @Override
    public void onSigned(long token, DirectBuffer signature, int offset) {
        if (Tokens.kind(token) == Tokens.SIGN && Tokens.stream(token) == me) {
            broadcaster.onSigned(token, signature, offset);
        }
    }

    @Override
    public void onVerified(long token, boolean valid) {
        int kind = Tokens.kind(token);
        int p = Tokens.stream(token);
        if ((kind == Tokens.VERIFY_SIGNED || kind == Tokens.VERIFY_REGISTER) && p < receivers.length) {
            receivers[p].onVerified(token, valid);
        }
    }

    @Override
    public void onRegisterWritten(long token, long k, boolean success) {
        int p = Tokens.stream(token);
        if (Tokens.kind(token) == Tokens.WRITE && p < receivers.length) {
            receivers[p].onRegisterWritten(token, k, success);
        }
    }

    @Override
    public void onRegisterRead(long token, boolean success, long timestamp, DirectBuffer value, int offset,
                               int length) {
        int p = Tokens.stream(token);
        if (Tokens.kind(token) == Tokens.READ && p < receivers.length) {
            receivers[p].onRegisterRead(token, success, value, offset, length);
        }
    }

    /** Timers and requests to retry; returns a count of things done (0 when idle). */
    public int doWork() {
        long now = clock.nanoTime();
        int work = deliverOwn() + broadcaster.doWork(now);
        for (CtbcastReceiver r : receivers) {
            work += r.doWork(now);
        }
        return work;
    }

    /**
     * Delivers the messages this replica broadcast since the last call (a correct broadcaster need not wait for
     * LOCKEDs to deliver its own: {@link CtbcastReceiver}, first deviation). {@link #doWork} calls it first; an
     * owner that broadcasts during its duty cycle calls it again at the end, so that what the deliveries send
     * leaves with the broadcast's LOCK. Never called from inside {@link #broadcast}.
     *
     * @return the messages delivered
     */
    public int deliverOwn() {
        return receivers[me].deliverOwn();
    }

    public CtbcastBroadcaster broadcaster() {
        return broadcaster;
    }

    /** This replica's receiver of broadcaster {@code p}'s stream. */
    public CtbcastReceiver receiver(int p) {
        return receivers[p];
    }

    public CtbcastCounters counters() {
        return counters;
    }

    public CtbcastConfig config() {
        return config;
    }

    public int me() {
        return me;
    }

    // ---- for the receivers and the broadcaster ------------------------------------------------------------

    NanoClock clock() {
        return clock;
    }

    SignaturePort signatures() {
        return signatures;
    }

    /**
     * From now on, receivers start a check of a broadcaster's SIGNED only when {@code budget} gives a token of that
     * broadcaster (the layer above's; {@link SignedCheckBudget#UNLIMITED} by default).
     */
    public void signedCheckBudget(SignedCheckBudget budget) {
        this.signedCheckBudget = java.util.Objects.requireNonNull(budget, "budget");
    }

    SignedCheckBudget signedCheckBudget() {
        return signedCheckBudget;
    }

    RegisterPort registers() {
        return registers;
    }

    DeliverHandler deliverHandler() {
        return deliverHandler;
    }

    Fingerprints fingerprints() {
        return fingerprints;
    }

    UnsafeBuffer fingerprintScratch() {
        return fingerprintScratch;
    }

    UnsafeBuffer statementScratch() {
        return statementScratch;
    }

    UnsafeBuffer valueScratch() {
        return valueScratch;
    }

    /** Every other replica: bit r for replica r. */
    private long others() {
        return ((1L << config.n()) - 1) & ~(1L << me);
    }

    void sendLock(int p, long k, DirectBuffer m, int offset, int length) {
        tbcast.broadcast(sendBuffer, 0, CtbcastMessage.encodeLock(sendBuffer, 0, p, k, m, offset, length), others());
    }

    /** Line 16, to the other receivers only: the broadcaster p delivers its own message without LOCKEDs. */
    void sendLocked(int p, long k, int messageLength, DirectBuffer body, int offset, int bodyLength) {
        tbcast.broadcast(sendBuffer, 0,
            CtbcastMessage.encodeLocked(sendBuffer, 0, p, k, messageLength, body, offset, bodyLength),
            others() & ~(1L << p));
    }

    void sendSigned(int p, long k, DirectBuffer signature, int sigOffset, DirectBuffer m, int offset, int length) {
        tbcast.broadcast(sendBuffer, 0,
            CtbcastMessage.encodeSigned(sendBuffer, 0, p, k, signature, sigOffset, m, offset, length), others());
    }

    void sendRequestSigned(int p, long k) {
        counters.signedRequestsSent++;
        if (p == me) {
            broadcaster.onRequestSigned(me, k);
            return;
        }
        tbcast.broadcast(sendBuffer, 0, CtbcastMessage.encodeRequestSigned(sendBuffer, 0, p, k), 1L << p); // p's only
    }
}
