package org.ubft.sim.byzantine;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.consensus.replica.ReplicaOutput;
import org.ubft.consensus.wire.ConsensusWire;
import org.ubft.sim.SlotContext;

import java.util.ArrayList;
import java.util.List;

/**
 * A replica that, besides following the protocol, sends forged messages from virtual time {@code from} on, one every
 * {@code period} of virtual time, of a kind drawn from the seed (Algorithm 5's checks and the signature checks must
 * drop each one; none may change what a correct replica decides):
 * <ul>
 *   <li>{@link Kind#SHORT_COMMIT}: a COMMIT (CTBcast) for the current slot with fewer than f + 1 CERTIFY shares;</li>
 *   <li>{@link Kind#FORGED_COMMIT}: a COMMIT with f + 1 shares whose signatures are random bytes;</li>
 *   <li>{@link Kind#BOGUS_WILL}: WILL_CERTIFY and WILL_COMMIT (TBcast) for slots far outside the window and for a
 *       view nobody is in;</li>
 *   <li>{@link Kind#FORGED_CERTIFY}: a CERTIFY (TBcast) with a random signature;</li>
 *   <li>{@link Kind#SEAL_VIEW_FLOOD}: eight SEAL_VIEWs (CTBcast) for the current and later views;</li>
 *   <li>{@link Kind#BAD_NEW_VIEW}: a NEW_VIEW (CTBcast) for the next view whose certificate has one random share;</li>
 *   <li>{@link Kind#STALE_REPLAY}: one of its own earliest TBcast and point-to-point messages again.</li>
 * </ul>
 */
public final class Forger extends ByzantineBehaviour {
    /** The kinds of forged messages. */
    public enum Kind { SHORT_COMMIT, FORGED_COMMIT, BOGUS_WILL, FORGED_CERTIFY, SEAL_VIEW_FLOOD, BAD_NEW_VIEW, STALE_REPLAY }

    private static final int KEPT = 16;

    private final long period;
    private final long[] sent = new long[Kind.values().length];

    public Forger(long from, long period) {
        super("forger", from);
        this.period = period;
    }

    /** Forged messages of kind {@code kind} sent. */
    public long sent(Kind kind) {
        return sent[kind.ordinal()];
    }

    @Override
    public ReplicaOutput wrapOutput(ReplicaOutput output, SlotContext slot) {
        return new ActingAfterOutput(output) {
            private final List<byte[]> oldTbcasts = new ArrayList<>();
            private final List<byte[]> oldSends = new ArrayList<>();
            private final List<Integer> oldSendTargets = new ArrayList<>();
            private long view;
            private long lastSlot = 1;
            private long next = from;

            @Override
            public void tbcast(DirectBuffer b, int off, int len) {
                int type = ConsensusMessages.type(b, off, len);
                if ((type == ConsensusWire.WILL_CERTIFY || type == ConsensusWire.WILL_COMMIT) && len >= 17) {
                    view = Math.max(view, ConsensusMessages.view(b, off));
                    lastSlot = Math.max(lastSlot, ConsensusMessages.slot(b, off));
                }
                if (oldTbcasts.size() < KEPT && !acting()) {
                    oldTbcasts.add(ConsensusMessages.copy(b, off, len));
                }
                super.tbcast(b, off, len);
            }

            @Override
            public void send(int to, DirectBuffer b, int off, int len) {
                if (oldSends.size() < KEPT && !acting()) {
                    oldSends.add(ConsensusMessages.copy(b, off, len));
                    oldSendTargets.add(to);
                }
                super.send(to, b, off, len);
            }

            @Override
            protected void act() {
                long now = slot.now();
                if (now < next) {
                    return;
                }
                next = now + period;
                Kind kind = Kind.values()[slot.random().nextInt(Kind.values().length)];
                if (forge(kind)) {
                    sent[kind.ordinal()]++;
                    acted();
                }
            }

            private boolean forge(Kind kind) {
                int f = slot.cluster().f();
                switch (kind) {
                    case SHORT_COMMIT -> ctbcast(commit(view, lastSlot, f, false));
                    case FORGED_COMMIT -> ctbcast(commit(view, lastSlot, f + 1, true));
                    case BOGUS_WILL -> {
                        tbcast(will(ConsensusWire.WILL_CERTIFY, view, lastSlot + 1_000_000));
                        tbcast(will(ConsensusWire.WILL_COMMIT, view + 1_000, lastSlot));
                    }
                    case FORGED_CERTIFY -> {
                        UnsafeBuffer m = new UnsafeBuffer(new byte[1 + 16 + ConsensusWire.DIGEST_BYTES
                            + ConsensusWire.SIGNATURE_BYTES]);
                        m.putByte(0, (byte) ConsensusWire.CERTIFY);
                        m.putLong(1, view, ConsensusMessages.ORDER);
                        m.putLong(9, lastSlot, ConsensusMessages.ORDER);
                        m.putBytes(17, randomBytes(ConsensusWire.DIGEST_BYTES + ConsensusWire.SIGNATURE_BYTES));
                        tbcast(m.byteArray());
                    }
                    case SEAL_VIEW_FLOOD -> {
                        for (int j = 0; j < 8; j++) {
                            UnsafeBuffer m = new UnsafeBuffer(new byte[9]);
                            m.putByte(0, (byte) ConsensusWire.SEAL_VIEW);
                            m.putLong(1, view + j / 2, ConsensusMessages.ORDER);
                            ctbcast(m.byteArray());
                        }
                    }
                    case BAD_NEW_VIEW -> ctbcast(badNewView(view + 1));
                    case STALE_REPLAY -> {
                        if (oldTbcasts.isEmpty() && oldSends.isEmpty()) {
                            return false;
                        }
                        if (!oldTbcasts.isEmpty()) {
                            tbcast(oldTbcasts.get(slot.random().nextInt(oldTbcasts.size())));
                        }
                        if (!oldSends.isEmpty()) {
                            int i = slot.random().nextInt(oldSends.size());
                            byte[] m = oldSends.get(i);
                            real.send(oldSendTargets.get(i), new UnsafeBuffer(m), 0, m.length);
                        }
                    }
                    default -> throw new IllegalStateException();
                }
                return true;
            }

            private void ctbcast(byte[] m) {
                real.ctbcast(new UnsafeBuffer(m), 0, m.length);
            }

            private void tbcast(byte[] m) {
                real.tbcast(new UnsafeBuffer(m), 0, m.length);
            }

            /** ⟨COMMIT, v, s, ⊥, shares⟩ with {@code shares} shares of signers 0, 1, ..: random bytes or none valid. */
            private byte[] commit(long v, long s, int shares, boolean random) {
                UnsafeBuffer m = ConsensusMessages.emptyCommit(v, s, shares);
                for (int i = 0; i < shares; i++) {
                    int at = ConsensusMessages.commitShare(i);
                    m.putShort(at, (short) i, ConsensusMessages.ORDER);
                    if (random) {
                        m.putBytes(at + 2, randomBytes(ConsensusWire.SIGNATURE_BYTES));
                    }
                }
                return m.byteArray();
            }

            private byte[] will(int type, long v, long s) {
                UnsafeBuffer m = new UnsafeBuffer(new byte[17]);
                m.putByte(0, (byte) type);
                m.putLong(1, v, ConsensusMessages.ORDER);
                m.putLong(9, s, ConsensusMessages.ORDER);
                return m.byteArray();
            }

            /** ⟨NEW_VIEW, v, 1 certificate: a 64-byte state, 1 random share⟩. */
            private byte[] badNewView(long v) {
                int state = 64;
                UnsafeBuffer m = new UnsafeBuffer(new byte[1 + 8 + 1 + 4 + state + 1 + ConsensusWire.SHARE_BYTES]);
                m.putByte(0, (byte) ConsensusWire.NEW_VIEW);
                m.putLong(1, v, ConsensusMessages.ORDER);
                m.putByte(9, (byte) 1);
                m.putInt(10, state, ConsensusMessages.ORDER);
                m.putBytes(14, randomBytes(state));
                m.putByte(14 + state, (byte) 1);
                m.putShort(15 + state, (short) slot.replica(), ConsensusMessages.ORDER);
                m.putBytes(17 + state, randomBytes(ConsensusWire.SIGNATURE_BYTES));
                return m.byteArray();
            }

            private byte[] randomBytes(int n) {
                byte[] b = new byte[n];
                slot.random().nextBytes(b);
                return b;
            }
        };
    }
}
