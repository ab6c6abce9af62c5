package org.ubft.sim.byzantine;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.consensus.replica.ReplicaOutput;
import org.ubft.sim.SlotContext;

/**
 * A leader that lies about time (replicated time, docs/design.md): from virtual time {@code from} on it rewrites the
 * timestamp of every non-empty batch it proposes (its PREPAREs) as {@link Mode} says. The followers must refuse the
 * times that go back or run ahead of their clocks by more than the bound (no correct replica executes at such a time:
 * the replicated-time checker), change the view when the leader's slots stall, and never crash; a time equal to the
 * last one ({@link Mode#FROZEN}) is within the rule (time stands still while this leader leads, and its proposals
 * are accepted).
 */
public final class LyingClockLeader extends ByzantineBehaviour {
    /** What the leader stamps. */
    public enum Mode {
        /** An hour before the time it stamped first. */
        BACKWARDS,
        /** An hour after its own clock. */
        FAR_AHEAD,
        /** {@link Long#MAX_VALUE}. */
        MAX,
        /** The first time it stamped after {@code from}, again and again. */
        FROZEN,
        /** Just past the bound: the correct stamp plus the bound plus 50 ms. */
        JUST_PAST_BOUND,
        /** One of the above at random per PREPARE. */
        MIXED
    }

    private static final long HOUR_MS = 3_600_000L;
    private final Mode mode;

    public LyingClockLeader(Mode mode, long from) {
        super("lying-clock-leader-" + mode.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-'), from);
        this.mode = mode;
    }

    @Override
    public ReplicaOutput wrapOutput(ReplicaOutput output, SlotContext slot) {
        long bound = slot.cluster().consensus().timeBoundMillis();
        return new ForwardingOutput(output) {
            private long first = -1;

            @Override
            public long ctbcast(DirectBuffer b, int off, int len) {
                if (!ConsensusMessages.isPrepare(b, off, len) || slot.now() < from) {
                    return real.ctbcast(b, off, len);
                }
                byte[] batch = ConsensusMessages.batch(b, off);
                int[][] requests = ConsensusMessages.requests(batch, Integer.MAX_VALUE);
                if (requests == null || requests.length == 0) {
                    return real.ctbcast(b, off, len);
                }
                long honest = ConsensusMessages.batchTime(batch);
                if (first < 0) {
                    first = honest;
                }
                Mode m = mode == Mode.MIXED ? Mode.values()[slot.random().nextInt(Mode.values().length - 1)] : mode;
                long lie = switch (m) {
                    case BACKWARDS -> Math.max(0, first - HOUR_MS);
                    case FAR_AHEAD -> honest + HOUR_MS;
                    case MAX -> Long.MAX_VALUE;
                    case FROZEN -> first;
                    case JUST_PAST_BOUND -> honest + bound + 50;
                    case MIXED -> throw new IllegalStateException();
                };
                if (lie == honest) {
                    return real.ctbcast(b, off, len);
                }
                acted();
                byte[] msg = ConsensusMessages.prepare(ConsensusMessages.view(b, off), ConsensusMessages.slot(b, off),
                    ConsensusMessages.withTime(batch, lie));
                return real.ctbcast(new UnsafeBuffer(msg), 0, msg.length);
            }
        };
    }
}
