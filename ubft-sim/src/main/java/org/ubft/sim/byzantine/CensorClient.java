package org.ubft.sim.byzantine;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.consensus.replica.ReplicaOutput;
import org.ubft.sim.SlotContext;

/**
 * A leader that never proposes the requests of one client from virtual time {@code from} on: it takes them out of
 * every PREPARE's batch before CTBcast-broadcasting it (the other clients are served as usual). The followers hold
 * the censored client's requests (the client sends them to every replica) and must suspect the leader when one is
 * not executed within the censorship timeout, then change view (paper §5.4).
 */
public final class CensorClient extends ByzantineBehaviour {
    private final int client;

    public CensorClient(int client, long from) {
        super("censor-client-" + client, from);
        this.client = client;
    }

    @Override
    public ReplicaOutput wrapOutput(ReplicaOutput output, SlotContext slot) {
        return new ForwardingOutput(output) {
            @Override
            public long ctbcast(DirectBuffer b, int off, int len) {
                if (slot.now() < from || !ConsensusMessages.isPrepare(b, off, len)) {
                    return real.ctbcast(b, off, len);
                }
                byte[] batch = ConsensusMessages.batch(b, off);
                int[][] requests = ConsensusMessages.requests(batch, Integer.MAX_VALUE);
                if (requests == null) {
                    return real.ctbcast(b, off, len);
                }
                int kept = 0;
                for (int[] r : requests) {
                    if (ConsensusMessages.client(batch, r) != client) {
                        requests[kept++] = r;
                    }
                }
                if (kept == requests.length) {
                    return real.ctbcast(b, off, len);
                }
                acted();
                byte[] censored = ConsensusMessages.concat(batch, java.util.Arrays.copyOf(requests, kept), batch,
                    new int[0][]);
                byte[] m = ConsensusMessages.prepare(ConsensusMessages.view(b, off), ConsensusMessages.slot(b, off),
                    censored);
                return real.ctbcast(new UnsafeBuffer(m), 0, m.length);
            }
        };
    }
}
