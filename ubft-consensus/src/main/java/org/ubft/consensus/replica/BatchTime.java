package org.ubft.consensus.replica;

import java.util.function.LongSupplier;

/**
 * Replicated time (docs/design.md, "Replicated time"): the leader stamps each new batch with its clock, never below a
 * time it proposed or executed before; a follower endorses a new proposal only if its time does not go back (below the
 * time it executed, or out of slot order with the leader's other new proposals of this view, {@link #acceptNew}) and
 * does not run ahead of the follower's own clock by more than {@code bound} milliseconds. Execution never takes the
 * time back either: a batch executes at the larger of its time and the time executed before ({@link Executor}).
 *
 * <p>Only new proposals are checked: a batch re-proposed in a NEW_VIEW (MustPropose names its digest), the empty
 * batch, and a batch decided here already carry the time they were first proposed with, which correct replicas must
 * accept whatever their clocks read now. The check is a follower's own decision about endorsing, taken after the
 * PREPARE was recorded in the leader's state (Algorithm 5 stays a function of the delivered messages): a refused
 * batch is counted ({@code Drop.BAD_TIME}) and not endorsed, so the leader's slot stalls and the leader is suspected
 * like one that withholds a slot.
 */
final class BatchTime {
    /** The bound when none is configured: a second. */
    static final long DEFAULT_BOUND_MILLIS = 1_000;

    private LongSupplier clock = System::currentTimeMillis;
    private long boundMillis = DEFAULT_BOUND_MILLIS;
    /** Leader: the largest time it proposed (new or re-proposed), so that its stamps never go back. */
    private long proposed;
    /**
     * Follower: the view of {@link #accepted}, and the time and slot of the highest-numbered new proposal endorsed in
     * it (a correct leader's stamps grow with the slot, so its time is also the largest).
     */
    private long acceptedView = -1;
    private long accepted;
    private long acceptedSlot;

    /** The replica's wall clock (milliseconds since the epoch) and the bound on how far ahead a batch's time may be. */
    void configure(LongSupplier wallClockMillis, long boundMillis) {
        if (boundMillis < 0) {
            throw new IllegalArgumentException("time bound " + boundMillis + " ms");
        }
        this.clock = wallClockMillis;
        this.boundMillis = boundMillis;
    }

    long boundMillis() {
        return boundMillis;
    }

    long now() {
        return clock.getAsLong();
    }

    /** Leader: the time of a new batch, given the time executed here. */
    long stamp(long executed) {
        long t = Math.max(Math.max(now(), executed), proposed);
        proposed = t;
        return t;
    }

    /** Leader: it re-proposes a batch of time {@code t} (its later stamps are not below it). */
    void reproposed(long t) {
        proposed = Math.max(proposed, t);
    }

    /**
     * Follower: whether a valid PREPARE of {@code view} must not be endorsed for its time: a new proposal (view 0, or
     * MustPropose leaves the slot Any), not ⊥, not decided here, whose time {@link #acceptNew} refuses.
     */
    boolean refuses(long view, long slot, int mustPropose, boolean decided, boolean empty, long t, long executed) {
        return !decided && !empty && (view == 0 || mustPropose == PeerState.NONE)
            && !acceptNew(view, slot, t, executed);
    }

    /**
     * Follower: whether a new proposal of time {@code t} for {@code slot} in {@code view} may be endorsed, given the
     * time executed here; records it if so. Its time must not go back below the time executed here, nor run ahead of
     * this replica's clock by more than the bound, and it must keep the order of the leader's stamps with the
     * highest-numbered proposal endorsed in this view: not below that proposal's time for a later slot, not above it
     * for an earlier one. An earlier slot comes after a later one when this replica skipped part of the leader's stream
     * by a summary and fetched the earlier batch afterwards (GapRecovery); checking it against the later slot's time
     * as a floor refused every such batch of a correct leader (both followers behind under overload: a slot neither
     * endorsed, the pipeline stalled until the request timeout changed the view).
     */
    boolean acceptNew(long view, long slot, long t, long executed) {
        // t - now <= bound, without overflow (t and now are both non-negative)
        if (t < executed || t - now() > boundMillis) {
            return false;
        }
        if (acceptedView != view) {
            acceptedView = view;
            acceptedSlot = slot;
            accepted = t;
        } else if (slot >= acceptedSlot) {
            if (t < accepted) {
                return false;
            }
            acceptedSlot = slot;
            accepted = t;
        } else if (t > accepted) {
            return false;
        }
        return true;
    }
}
