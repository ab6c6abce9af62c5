package org.ubft.sim.byzantine;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.consensus.replica.ReplicaOutput;
import org.ubft.consensus.runtime.ReplicaNode;
import org.ubft.consensus.wire.ConsensusWire;
import org.ubft.sim.Omniscience;
import org.ubft.sim.SlotContext;

/**
 * A follower that, besides following the protocol, floods the others with validly framed messages whose signatures
 * are garbage, each of which a correct replica must verify before it can drop it (the signature is the only thing
 * wrong): from virtual time {@code from} on, one burst every {@code period} of virtual time (a timer on the simulated
 * network, so the rate does not depend on the replica's own traffic), each burst
 * <ul>
 *   <li>a CERTIFY for the correct replicas' current view and a slot of their window (TBcast, to all), or with
 *       {@code certifies} &gt; 1 that many for consecutive slots from a random one (wrapping within the window):
 *       distinct shares, so none of a burst is dropped as a repeat before its check (a burst can overflow the
 *       receivers' per-peer checking queue, whose overflow is checked on their agent thread);</li>
 *   <li>CERTIFY_CHECKPOINTs, as many as the CERTIFYs (at most one per checkpoint), for checkpoints a receiver still
 *       takes shares for: multiples of K in the next 2W slots (K = {@code consensus.checkpoint.interval}), distinct,
 *       from a random one (TBcast, to all);</li>
 *   <li>a CRTFY_VC for the current view to its leader (point to point), its state naming a subject and the view;</li>
 *   <li>every {@value #COMMIT_EVERY}th burst, a copy of its latest real COMMIT with garbage share signatures (CTBcast:
 *       its stream takes only t messages between summaries, so fewer of these).</li>
 * </ul>
 * The view, window and checkpoint come from {@link SlotContext#omniscience()} (a real attacker learns them from the
 * traffic it receives). With {@code flooding} false it runs the same timers and draws nothing: the same schedule
 * without the flood, for comparison. With {@code ownSignatures} the CERTIFYs, CERTIFY_CHECKPOINT and CRTFY_VC carry
 * valid signatures of its own over their garbage digests ({@link OwnSignatures}): what is wrong is then what they
 * say, not the signature, and a receiver that checks the signature before the statement pays for each.
 */
public final class SignatureFlood extends ByzantineBehaviour {
    /** One burst in this many carries a COMMIT with garbage shares. */
    public static final int COMMIT_EVERY = 10;

    private final long period;
    private final boolean flooding;
    private final int certifies;
    private final boolean ownSignatures;
    private final boolean ahead;
    private OwnSignatures signer;
    private final long[] sent = new long[256];
    private ReplicaOutput out;
    private byte[] lastCommit;
    private long bursts;

    public SignatureFlood(long from, long period, boolean flooding) {
        this(from, period, flooding, 1);
    }

    /** @param certifies CERTIFYs per burst, for consecutive slots of the window */
    public SignatureFlood(long from, long period, boolean flooding, int certifies) {
        this(from, period, flooding, certifies, false);
    }

    /**
     * @param certifies     CERTIFYs per burst, for consecutive slots of the window
     * @param ownSignatures whether its messages carry valid signatures of its own over their garbage
     */
    public SignatureFlood(long from, long period, boolean flooding, int certifies, boolean ownSignatures) {
        this(from, period, flooding, certifies, ownSignatures, false);
    }

    /**
     * @param ahead whether its CERTIFYs aim at the slots just ahead of the correct replicas' execution, within the
     *              leader's pipeline ({@code consensus.pipeline}), instead of anywhere in the window: the slots a
     *              receiver still checks a CERTIFY for before their PREPARE (beyond the pipeline it parks it unchecked,
     *              {@code ParkedShares}), and among them those not proposed yet, which no PREPARE contradicts soon
     */
    public SignatureFlood(long from, long period, boolean flooding, int certifies, boolean ownSignatures,
                          boolean ahead) {
        super(!flooding ? "signature-flood-off" : ahead ? "signed-garbage-ahead"
            : ownSignatures ? "signed-garbage-flood" : "signature-flood", from);
        this.period = period;
        this.flooding = flooding;
        this.certifies = certifies;
        this.ownSignatures = ownSignatures;
        this.ahead = ahead;
    }

    /** Garbage-signed messages of consensus type {@code type} sent. */
    public long sent(int type) {
        return sent[type & 0xFF];
    }

    @Override
    public ReplicaOutput wrapOutput(ReplicaOutput output, SlotContext slot) {
        ForwardingOutput forwarding = new ForwardingOutput(output) {
            @Override
            public long ctbcast(DirectBuffer b, int off, int len) {
                if (ConsensusMessages.type(b, off, len) == ConsensusWire.COMMIT) {
                    lastCommit = ConsensusMessages.copy(b, off, len);
                }
                return real.ctbcast(b, off, len);
            }
        };
        this.out = output;
        return forwarding;
    }

    @Override
    public void attach(ReplicaNode node, SlotContext slot) {
        signer = new OwnSignatures(slot.key());
        Periodic.every(slot, from, period, s -> {
            if (flooding) {
                burst(s);
            }
        });
    }


    private void burst(SlotContext slot) {
        Omniscience o = slot.omniscience();
        int me = slot.replica();
        int n = slot.cluster().n();
        int window = slot.cluster().consensusWindow();
        long view = Math.max(0, o.highestCorrectView());
        long checkpoint = o.highestCorrectCheckpoint();
        bursts++;
        acted();
        // CERTIFY(view, slot in the window, digest, garbage signature); ahead: slots from the correct replicas'
        // furthest execution on, within the pipeline
        long base = checkpoint;
        int span = window;
        if (ahead) {
            for (int r = 0; r < n; r++) {
                if (o.correct(r)) {
                    base = Math.max(base, o.executedUpTo(r));
                }
            }
            span = Math.max(1, slot.cluster().consensus().pipeline());
        }
        int first = slot.random().nextInt(span);
        for (int c = 0; c < certifies; c++) {
            UnsafeBuffer certify = new UnsafeBuffer(new byte[17 + ConsensusWire.DIGEST_BYTES + ConsensusWire.SIGNATURE_BYTES]);
            certify.putByte(0, (byte) ConsensusWire.CERTIFY);
            certify.putLong(1, view, ConsensusMessages.ORDER);
            certify.putLong(9, base + (first + c) % span, ConsensusMessages.ORDER);
            certify.putBytes(17, garbage(slot, ConsensusWire.DIGEST_BYTES + ConsensusWire.SIGNATURE_BYTES));
            tbcast(certify, ConsensusWire.CERTIFY);
        }
        // CERTIFY_CHECKPOINT(a checkpoint a receiver still takes shares for, digest, garbage signature): any multiple
        // of K in (checkpoint, checkpoint + 2W], as many as the burst's CERTIFYs, each a distinct one to check
        int interval = slot.cluster().consensus().checkpointInterval();
        int candidates = 2 * (window / interval);
        int firstCheckpoint = slot.random().nextInt(candidates);
        for (int c = 0; c < Math.min(certifies, candidates); c++) {
            UnsafeBuffer cc = new UnsafeBuffer(new byte[9 + ConsensusWire.DIGEST_BYTES + ConsensusWire.SIGNATURE_BYTES]);
            cc.putByte(0, (byte) ConsensusWire.CERTIFY_CHECKPOINT);
            cc.putLong(1, checkpoint + (long) interval * (1 + (firstCheckpoint + c) % candidates), ConsensusMessages.ORDER);
            cc.putBytes(9, garbage(slot, ConsensusWire.DIGEST_BYTES + ConsensusWire.SIGNATURE_BYTES));
            tbcast(cc, ConsensusWire.CERTIFY_CHECKPOINT);
        }
        // CRTFY_VC(view, state = (subject, view, 16 bytes), garbage signature) to leader(view)
        int leader = (int) (view % n);
        if (leader != me) {
            int state = 2 + 8 + 16;
            UnsafeBuffer vc = new UnsafeBuffer(new byte[13 + state + ConsensusWire.SIGNATURE_BYTES]);
            vc.putByte(0, (byte) ConsensusWire.CRTFY_VC);
            vc.putLong(1, view, ConsensusMessages.ORDER);
            vc.putInt(9, state, ConsensusMessages.ORDER);
            vc.putShort(13, (short) me, ConsensusMessages.ORDER);
            vc.putLong(15, view, ConsensusMessages.ORDER);
            vc.putBytes(23, garbage(slot, 16 + ConsensusWire.SIGNATURE_BYTES));
            if (ownSignatures) {
                signer.resign(vc, vc.capacity());
            }
            out.send(leader, vc, 0, vc.capacity());
            sent[ConsensusWire.CRTFY_VC]++;
        }
        // COMMIT with garbage shares, a copy of the latest real one
        if (bursts % COMMIT_EVERY == 0 && lastCommit != null) {
            byte[] m = lastCommit.clone();
            int sharesAt = ConsensusMessages.BATCH + ConsensusMessages.batchLength(new UnsafeBuffer(m), 0);
            if (sharesAt < m.length) {
                int k = m[sharesAt] & 0xFF;
                for (int j = 0; j < k && sharesAt + 1 + (j + 1) * ConsensusWire.SHARE_BYTES <= m.length; j++) {
                    byte[] sig = garbage(slot, ConsensusWire.SIGNATURE_BYTES);
                    System.arraycopy(sig, 0, m, sharesAt + 1 + j * ConsensusWire.SHARE_BYTES + 2, sig.length);
                }
                out.ctbcast(new UnsafeBuffer(m), 0, m.length);
                sent[ConsensusWire.COMMIT]++;
            }
        }
    }

    private void tbcast(UnsafeBuffer m, int type) {
        if (ownSignatures) {
            signer.resign(m, m.capacity());
        }
        out.tbcast(m, 0, m.capacity());
        sent[type]++;
    }

    private static byte[] garbage(SlotContext slot, int n) {
        byte[] b = new byte[n];
        slot.random().nextBytes(b);
        return b;
    }
}
