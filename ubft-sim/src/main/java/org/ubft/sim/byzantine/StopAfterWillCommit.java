package org.ubft.sim.byzantine;

import org.agrona.DirectBuffer;
import org.ubft.consensus.replica.ReplicaOutput;
import org.ubft.consensus.wire.ConsensusWire;
import org.ubft.sim.SlotContext;

/**
 * A replica that, from virtual time {@code from} on, sends its next WILL_COMMIT (its promise to send a COMMIT for the
 * slot if a view change needs it, Algorithm 2 line 27) and then stops: it drops every later message and reply. The
 * slot may have been decided by the others on the fast path; the view change that follows (if it is the leader) must
 * not lose it, and the others must go on without the promised COMMIT.
 */
public final class StopAfterWillCommit extends ByzantineBehaviour {
    private boolean stopped;

    public StopAfterWillCommit(long from) {
        super("stop-after-will-commit", from);
    }

    /** Whether it sent its last WILL_COMMIT and stopped. */
    public boolean stopped() {
        return stopped;
    }

    @Override
    public ReplicaOutput wrapOutput(ReplicaOutput output, SlotContext slot) {
        return new ForwardingOutput(output) {
            private long lastK;

            private boolean drop() {
                if (stopped) {
                    acted();
                }
                return stopped;
            }

            @Override
            public long ctbcast(DirectBuffer b, int off, int len) {
                return lastK = drop() ? lastK + 1 : real.ctbcast(b, off, len);
            }

            @Override
            public void tbcast(DirectBuffer b, int off, int len) {
                if (drop()) {
                    return;
                }
                real.tbcast(b, off, len);
                if (ConsensusMessages.type(b, off, len) == ConsensusWire.WILL_COMMIT && slot.now() >= from) {
                    stopped = true;
                }
            }

            @Override
            public void send(int to, DirectBuffer b, int off, int len) {
                if (!drop()) {
                    real.send(to, b, off, len);
                }
            }

            @Override
            public void reply(int client, DirectBuffer b, int off, int len) {
                if (!drop()) {
                    real.reply(client, b, off, len);
                }
            }
        };
    }
}
