package org.ubft.sim.byzantine;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.consensus.replica.ReplicaOutput;
import org.ubft.consensus.runtime.ReplicaNode;
import org.ubft.consensus.wire.ClientWire;
import org.ubft.sim.SimCluster;
import org.ubft.sim.SlotContext;

import java.util.ArrayList;
import java.util.List;

/**
 * A replica that forgets: the scenario crashes it and restarts it with its durable state (its own-stream log) wiped or
 * rolled back to an old backup ({@link SimCluster#restartReplica(int, SimCluster.Disk)}). Amnesia is a Byzantine
 * fault: the restarted replica may broadcast identifiers it used before, with other messages, as an equivocating one
 * would. It is not held to the guarantees and counts towards f; the others must neither fork nor stop.
 * <ul>
 *   <li>{@link Mode#FORGETS}: the correct code, with what the disk left it.</li>
 *   <li>{@link Mode#FORKS}: a Byzantine replica that only pretends to have forgotten: as leader, once restarted, it
 *       proposes again, in view 0, the first slots it proposed before the crash (t/4 of them: a burst beyond CTBcast's tail
 *       would fall out of it), each batch's requests in reverse order
 *       (requests the followers hold, so a follower that never heard its first proposals endorses them), each with its
 *       signed CERTIFY (its code, restarted empty, holds none of those requests and would not endorse them).</li>
 * </ul>
 * Each restart after the first run counts as an action, and so does each PREPARE proposed again.
 */
public final class Amnesiac extends ByzantineBehaviour {
    /** What the restarted replica does. */
    public enum Mode { FORGETS, FORKS }

    private final SimCluster.Disk disk;
    private final Mode mode;
    /** PREPAREs of view 0 the first incarnation broadcast: (slot, batch), kept across restarts (the attacker's memory). */
    private final List<long[]> slots = new ArrayList<>();
    private final List<byte[]> batches = new ArrayList<>();
    private ReplicaOutput output;

    public Amnesiac(SimCluster.Disk disk, Mode mode) {
        super("amnesiac-" + disk.name().toLowerCase() + (mode == Mode.FORKS ? "-forks" : ""));
        this.disk = disk;
        this.mode = mode;
    }

    public Amnesiac(SimCluster.Disk disk) {
        this(disk, Mode.FORGETS);
    }

    /** What the scenario's restarts of this slot leave on its disk. */
    public SimCluster.Disk disk() {
        return disk;
    }

    @Override
    public ReplicaOutput wrapOutput(ReplicaOutput real, SlotContext slot) {
        output = real;
        if (mode != Mode.FORKS || slot.incarnation() > 0) {
            return real;
        }
        return new ForwardingOutput(real) {
            @Override
            public long ctbcast(DirectBuffer b, int off, int len) {
                if (ConsensusMessages.isPrepare(b, off, len) && ConsensusMessages.view(b, off) == 0) {
                    slots.add(new long[] {ConsensusMessages.slot(b, off)});
                    batches.add(ConsensusMessages.batch(b, off));
                }
                return real.ctbcast(b, off, len);
            }
        };
    }

    @Override
    public void attach(ReplicaNode node, SlotContext slot) {
        if (slot.incarnation() == 0) {
            return;
        }
        acted();
        if (mode == Mode.FORKS) {
            ReplicaOutput out = output;
            slot.network().schedule(100_000, () -> {
                // the first few only: a burst beyond CTBcast's tail would fall out of it at the receivers
                int count = Math.min(slots.size(), Math.max(1, slot.cluster().ctbcastTail() / 4));
                for (int i = 0; i < count; i++) {
                    long s = slots.get(i)[0];
                    byte[] batch = reversed(batches.get(i));
                    byte[] m = ConsensusMessages.prepare(0, s, batch);
                    out.ctbcast(new UnsafeBuffer(m), 0, m.length);
                    byte[] certify = ConsensusMessages.certify(0, s, batch, slot.key());
                    out.tbcast(new UnsafeBuffer(certify), 0, certify.length); // its share, whatever it holds
                    acted();
                }
            });
        }
    }

    /** The batch with its requests in reverse order (the same batch if it is not well-formed). */
    private static byte[] reversed(byte[] batch) {
        int[][] requests = ConsensusMessages.requests(batch, Integer.MAX_VALUE);
        if (requests == null) {
            return batch;
        }
        UnsafeBuffer out = new UnsafeBuffer(new byte[batch.length]);
        out.putBytes(0, batch, 0, ConsensusMessages.BATCH_HEADER); // the count and the time
        int pos = ConsensusMessages.BATCH_HEADER;
        for (int r = requests.length - 1; r >= 0; r--) {
            out.putBytes(pos, batch, requests[r][0], requests[r][1]);
            pos += requests[r][1];
        }
        return out.byteArray();
    }
}
