package org.ubft.sim.byzantine;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.consensus.replica.ReplicaOutput;
import org.ubft.consensus.wire.ClientWire;
import org.ubft.consensus.wire.RequestNumbers;
import org.ubft.sim.Payloads;
import org.ubft.sim.SlotContext;

/**
 * A leader that puts a client request with a forged signature into every batch it proposes, from virtual time
 * {@code from} on: the request of a correct client (the batch's first), numbered in a later session (so no correct
 * replica holds it and each must check its signature to endorse the batch, §5.4). No correct follower may endorse such
 * a batch; each must check a forged signature a bounded number of times (the resource checker: signature checks per
 * executed request), not again at every client request that arrives while the PREPARE waits (each one makes it try the
 * waiting PREPAREs again), and the view must change.
 */
public final class ForgedRequestLeader extends ByzantineBehaviour {
    public ForgedRequestLeader(long from) {
        super("forged-request-leader", from);
    }

    @Override
    public ReplicaOutput wrapOutput(ReplicaOutput output, SlotContext slot) {
        return new PrepareRewrite(output, slot) {
            private long session = RequestNumbers.MAX_SESSION / 2;

            @Override
            protected byte[] rewrite(DirectBuffer b, int off) {
                if (slot.now() < from) {
                    return null;
                }
                byte[] batch = ConsensusMessages.batch(b, off);
                int[][] requests = ConsensusMessages.requests(batch, Integer.MAX_VALUE);
                if (requests == null || requests.length == 0) {
                    return null;
                }
                int client = ConsensusMessages.client(batch, requests[0]);
                byte[] payload = Payloads.request(client, 1, new byte[] {(byte) session});
                UnsafeBuffer forged = ClientRequests.request(client, RequestNumbers.number(session++, 1), payload,
                    slot.key()); // the replica's key: not the client's, so the signature is forged
                int h = ConsensusMessages.BATCH_HEADER;
                byte[] one = new byte[h + forged.capacity()];
                UnsafeBuffer ob = new UnsafeBuffer(one);
                ob.putShort(0, (short) 1, ConsensusMessages.ORDER);
                ob.putBytes(h, forged, 0, forged.capacity());
                if (batch.length + forged.capacity() > maxBatchBytes) {
                    return null;
                }
                acted();
                return ConsensusMessages.concat(batch, requests, one, new int[][] {{h, forged.capacity()}});
            }
        };
    }
}
