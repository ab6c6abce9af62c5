package org.ubft.sim.byzantine;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.common.crypto.Fingerprints;
import org.ubft.ctbcast.core.CtbcastMessage;
import org.ubft.ctbcast.core.SignedStatement;
import org.ubft.ctbcast.link.PeerLinks;
import org.ubft.ctbcast.node.CtbcastNode;
import org.ubft.consensus.replica.ReplicaOutput;
import org.ubft.consensus.runtime.ReplicaNode;
import org.ubft.sim.SlotContext;

/**
 * A leader that equivocates at the CTBcast layer from virtual time {@code from} on: for each of its PREPAREs it sends
 * one follower (the {@code target}, drawn from the seed) a different PREPARE for the same view and slot (the empty
 * batch ⊥ instead of the real one) and the other follower the real one. It rewrites its outgoing CTBcast messages per
 * receiver, on its links ({@link PeerLinks#outboundTap}), below its own (correct) CTBcast core:
 * <ul>
 *   <li>{@link Mode#FAST}: different LOCKs (Algorithm 1, line 3), no SIGNED;</li>
 *   <li>{@link Mode#SLOW}: no LOCK, different validly signed SIGNEDs (line 4);</li>
 *   <li>{@link Mode#CROSS}: the real LOCK to everyone, a validly signed SIGNED of the other PREPARE to the target.</li>
 * </ul>
 * CTBcast must not let the two followers deliver different PREPAREs for one identifier; the stalled slots must make
 * them suspect the leader and change view. Retransmissions are rewritten the same way (the rewrite depends only on the
 * receiver and the message).
 */
public final class EquivocatingLeader extends ByzantineBehaviour {
    /** Which CTBcast path the equivocation is on. */
    public enum Mode { FAST, SLOW, CROSS }

    private final Mode mode;
    private final Fingerprints fingerprints = new Fingerprints();
    private final UnsafeBuffer out = new UnsafeBuffer(new byte[1 << 16]);

    public EquivocatingLeader(Mode mode, long from) {
        super("equivocating-leader-" + mode.name().toLowerCase(java.util.Locale.ROOT), from);
        this.mode = mode;
    }

    /**
     * The leader never tells its CTBcast layer that every replica delivered a message, so that CTBcast sends SIGNED
     * after its timeout even when the fast path went through (otherwise {@link Mode#CROSS} has nothing to rewrite).
     */
    @Override
    public ReplicaOutput wrapOutput(ReplicaOutput output, SlotContext slot) {
        return new ForwardingOutput(output) {
            @Override
            public void allDelivered(long k) {
                if (slot.now() < from) {
                    real.allDelivered(k);
                }
            }
        };
    }

    @Override
    public void attach(ReplicaNode node, SlotContext slot) {
        int me = slot.replica();
        int n = slot.cluster().n();
        int target = (me + 1 + slot.random().nextInt(n - 1)) % n;
        int stream = CtbcastNode.streamId(me);
        node.ctbcast().links().outboundTap((to, streamId, flags, index, src, off, len, sink) -> {
            if (streamId != stream || to == me || slot.now() < from || len < CtbcastMessage.HEADER_BYTES) {
                sink.send(to, streamId, flags, index, src, off, len);
                return;
            }
            byte type = src.getByte(off + CtbcastMessage.TYPE_OFFSET);
            int body = off + CtbcastMessage.HEADER_BYTES + (type == CtbcastMessage.SIGNED ? CtbcastMessage.SIGNATURE_BYTES : 0);
            int mLength = off + len - body;
            if ((type != CtbcastMessage.LOCK && type != CtbcastMessage.SIGNED)
                || !ConsensusMessages.isPrepare(src, body, mLength)) {
                sink.send(to, streamId, flags, index, src, off, len);
                return;
            }
            long k = src.getLong(off + CtbcastMessage.K_OFFSET, CtbcastMessage.ORDER);
            boolean other = to == target;
            boolean lock = type == CtbcastMessage.LOCK;
            switch (mode) {
                case FAST -> {
                    acted();
                    if (lock) {
                        send(sink, to, streamId, flags, index, lock(me, k, other ? alternative(src, body) : null, src, body,
                            mLength));
                    } // no SIGNED
                }
                case SLOW -> {
                    acted();
                    if (!lock) {
                        send(sink, to, streamId, flags, index, other ? signed(slot, me, k, alternative(src, body))
                            : copy(src, off, len));
                    } // no LOCK
                }
                case CROSS -> {
                    if (lock || !other) {
                        sink.send(to, streamId, flags, index, src, off, len);
                    } else {
                        acted();
                        send(sink, to, streamId, flags, index, signed(slot, me, k, alternative(src, body)));
                    }
                }
                default -> throw new IllegalStateException();
            }
        });
    }

    private void send(PeerLinks.Sink sink, int to, int streamId, int flags, long index, int length) {
        sink.send(to, streamId, flags, index, out, 0, length);
    }

    /** The other PREPARE: same view and slot, the empty batch. */
    private static byte[] alternative(DirectBuffer src, int body) {
        return ConsensusMessages.prepare(ConsensusMessages.view(src, body), ConsensusMessages.slot(src, body),
            ConsensusMessages.emptyBatch());
    }

    private int copy(DirectBuffer src, int off, int len) {
        out.putBytes(0, src, off, len);
        return len;
    }

    private int lock(int me, long k, byte[] m, DirectBuffer src, int body, int mLength) {
        if (m == null) {
            return CtbcastMessage.encodeLock(out, 0, me, k, src, body, mLength);
        }
        return CtbcastMessage.encodeLock(out, 0, me, k, new UnsafeBuffer(m), 0, m.length);
    }

    /** SIGNED(k, m) with this replica's valid signature over (me, k, fingerprint(m)). */
    private int signed(SlotContext slot, int me, long k, byte[] m) {
        byte[] fingerprint = new byte[Fingerprints.FINGERPRINT_BYTES];
        fingerprints.fingerprint(m, 0, m.length, fingerprint, 0);
        UnsafeBuffer statement = new UnsafeBuffer(new byte[SignedStatement.BYTES]);
        SignedStatement.encode(statement, 0, me, k, new UnsafeBuffer(fingerprint), 0);
        byte[] signature = new byte[SignedStatement.SIGNATURE_BYTES];
        slot.key().sign(statement.byteArray(), 0, SignedStatement.BYTES, signature, 0);
        return CtbcastMessage.encodeSigned(out, 0, me, k, new UnsafeBuffer(signature), 0, new UnsafeBuffer(m), 0,
            m.length);
    }
}
