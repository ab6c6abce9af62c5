package org.ubft.sim.byzantine;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.common.crypto.Fingerprints;
import org.ubft.consensus.replica.ReplicaOutput;
import org.ubft.consensus.runtime.ReplicaNode;
import org.ubft.consensus.wire.ConsensusWire;
import org.ubft.sim.Omniscience;
import org.ubft.sim.SlotContext;

/**
 * A replica that, besides following the protocol, floods the others with requests they answer from what they hold:
 * from virtual time {@code from} on, one burst every {@code period} of virtual time, each burst to every other
 * replica, for {@value #SLOTS_PER_BURST} slots of their window in turn, a BATCH_REQUEST and a CERTIFICATE_REQUEST
 * (the latter in the correct replicas' view, or in an earlier one, every other burst: a replica answers those with
 * shares of views it left, its displaced own share included). The digests are those of the batches this replica
 * proposed or committed itself (so the correct replicas hold them and answer, each answer a copy of a batch or of
 * signatures: bandwidth and CPU, never a new statement), else random. Each correct replica answers a requester at
 * most a window's worth per interval ({@code GapRecovery}'s answer budget).
 */
public final class RequestFlood extends ByzantineBehaviour {
    /** Slots asked about per burst and peer. */
    public static final int SLOTS_PER_BURST = 16;

    private final long period;
    /** Per slot mod this: the slot and digest of a batch this replica proposed or committed. */
    private static final int KNOWN = 1024;

    private final Fingerprints fingerprints = new Fingerprints();
    private ReplicaOutput out;
    private final long[] knownSlot = new long[KNOWN];
    private final byte[] knownDigest = new byte[KNOWN * ConsensusWire.DIGEST_BYTES];
    private final UnsafeBuffer knownDigests = new UnsafeBuffer(knownDigest);
    private long cursor;
    private long bursts;
    private long batchRequests;
    private long certificateRequests;
    private int window;

    public RequestFlood(long from, long period) {
        super("request-flood", from);
        this.period = period;
        java.util.Arrays.fill(knownSlot, -1);
    }

    public long batchRequests() {
        return batchRequests;
    }

    public long certificateRequests() {
        return certificateRequests;
    }

    /** The consensus window of the cluster it attacked (a correct replica answers a requester this often per interval). */
    public int window() {
        return window;
    }

    @Override
    public ReplicaOutput wrapOutput(ReplicaOutput output, SlotContext slot) {
        this.out = output;
        return new ForwardingOutput(output) {
            @Override
            public long ctbcast(DirectBuffer b, int off, int len) {
                int type = ConsensusMessages.type(b, off, len);
                if ((type == ConsensusWire.PREPARE || type == ConsensusWire.COMMIT) && len >= ConsensusMessages.BATCH + 2) {
                    int length = ConsensusMessages.batchLength(b, off);
                    if (length > 0 && ConsensusMessages.BATCH + length <= len) {
                        long s = ConsensusMessages.slot(b, off);
                        int e = (int) Math.floorMod(s, (long) KNOWN);
                        knownSlot[e] = s;
                        fingerprints.fingerprint(b, off + ConsensusMessages.BATCH, length, knownDigests,
                            e * ConsensusWire.DIGEST_BYTES);
                    }
                }
                return real.ctbcast(b, off, len);
            }
        };
    }

    @Override
    public void attach(ReplicaNode node, SlotContext slot) {
        window = slot.cluster().consensusWindow();
        Periodic.every(slot, from, period, this::burst);
    }


    private void burst(SlotContext slot) {
        Omniscience o = slot.omniscience();
        int me = slot.replica();
        int n = slot.cluster().n();
        long view = Math.max(0, o.highestCorrectView());
        long checkpoint = o.highestCorrectCheckpoint();
        bursts++;
        acted();
        long asked = bursts % 2 == 0 || view == 0 ? view : slot.random().nextInt((int) Math.min(view, 1 << 20));
        UnsafeBuffer batch = new UnsafeBuffer(new byte[1 + 8 + ConsensusWire.DIGEST_BYTES]);
        UnsafeBuffer certificate = new UnsafeBuffer(new byte[1 + 8 + 8 + ConsensusWire.DIGEST_BYTES]);
        byte[] digest = new byte[ConsensusWire.DIGEST_BYTES];
        for (int j = 0; j < SLOTS_PER_BURST; j++) {
            long s = checkpoint + Math.floorMod(cursor++, (long) window);
            int e = (int) Math.floorMod(s, (long) KNOWN);
            if (knownSlot[e] == s) {
                System.arraycopy(knownDigest, e * ConsensusWire.DIGEST_BYTES, digest, 0, digest.length);
            } else {
                slot.random().nextBytes(digest);
            }
            batch.putByte(0, (byte) ConsensusWire.BATCH_REQUEST);
            batch.putLong(1, s, ConsensusMessages.ORDER);
            batch.putBytes(9, digest);
            certificate.putByte(0, (byte) ConsensusWire.CERTIFICATE_REQUEST);
            certificate.putLong(1, asked, ConsensusMessages.ORDER);
            certificate.putLong(9, s, ConsensusMessages.ORDER);
            certificate.putBytes(17, digest);
            for (int q = 0; q < n; q++) {
                if (q != me) {
                    out.send(q, batch, 0, batch.capacity());
                    out.send(q, certificate, 0, certificate.capacity());
                    batchRequests++;
                    certificateRequests++;
                }
            }
        }
    }
}
