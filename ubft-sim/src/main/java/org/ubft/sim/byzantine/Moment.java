package org.ubft.sim.byzantine;

import org.ubft.sim.Omniscience;

/**
 * A moment in the correct replicas' protocol state that an omniscient adversary waits for ({@link Omniscience}): the
 * worst time to deviate is often a state of another replica (it just sealed its view, it just promised a COMMIT),
 * not a time on the clock. Read-only: testing a moment changes nothing.
 */
@FunctionalInterface
public interface Moment {
    /** Whether the moment has come, as seen by replica slot {@code self}. */
    boolean arrived(Omniscience o, int self);

    /** A correct replica other than {@code self} is changing view (it sealed its view, Algorithm 3). */
    static Moment correctReplicaChangesView() {
        return (o, self) -> o.correctChangingView(self) >= 0;
    }

    /**
     * A correct replica other than {@code self} sent WILL_COMMIT for a slot at or above {@code slot} in its current
     * view: it promised to COMMIT what it prepared (Algorithm 2, line 27; Algorithm 3, lines 4-5).
     */
    static Moment correctReplicaPromisedCommit(long slot) {
        return (o, self) -> {
            for (int i = 0; i < o.n(); i++) {
                if (i != self && o.correct(i) && o.lastWillCommit(i) >= slot) {
                    return true;
                }
            }
            return false;
        };
    }
}
