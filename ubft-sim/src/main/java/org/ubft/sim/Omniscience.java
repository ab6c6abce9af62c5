package org.ubft.sim;

import org.ubft.consensus.replica.Replica;
import org.ubft.consensus.runtime.ReplicaNode;

import java.util.function.IntFunction;
import java.util.function.IntPredicate;

/**
 * What an omniscient adversary knows of every replica's protocol state, read-only: the simulator lets a Byzantine
 * behaviour time its steps on the correct replicas' state (go silent the moment a follower starts changing view,
 * propose exactly when a WILL_COMMIT left), the worst case the paper's adversary may pick (it controls the network's
 * timing before GST and knows the protocol). Only accessors that return values: nothing here can change a replica,
 * and reading (the {@link Replica} observers) allocates nothing and moves no state, so a run that reads it is the run
 * that does not (DeterminismTest checks the fingerprint). A crashed replica reads as down ({@link #up} false, view -1).
 */
public final class Omniscience {
    private final int n;
    private final IntFunction<ReplicaNode> nodes;
    private final IntPredicate correct;

    public Omniscience(int n, IntFunction<ReplicaNode> nodes, IntPredicate correct) {
        this.n = n;
        this.nodes = nodes;
        this.correct = correct;
    }

    private Replica replica(int i) {
        ReplicaNode node = i < 0 || i >= n ? null : nodes.apply(i);
        return node == null ? null : node.replica();
    }

    public int n() {
        return n;
    }

    /** Whether replica slot {@code i} runs (not crashed). */
    public boolean up(int i) {
        return replica(i) != null;
    }

    /** Whether slot {@code i}'s behaviour is correct (the checkers' notion). */
    public boolean correct(int i) {
        return i >= 0 && i < n && correct.test(i);
    }

    /** Replica {@code i}'s view, -1 while it is down. */
    public long view(int i) {
        Replica r = replica(i);
        return r == null ? -1 : r.view();
    }

    /** Whether replica {@code i} is changing view (sealed its view, waits for the new leader's NEW_VIEW). */
    public boolean changingView(int i) {
        Replica r = replica(i);
        return r != null && r.changingView();
    }

    /** Replica {@code i}'s stable checkpoint (the first slot of its window), -1 while it is down. */
    public long checkpoint(int i) {
        Replica r = replica(i);
        return r == null ? -1 : r.checkpointSeq();
    }

    /** The first slot replica {@code i} has not executed, -1 while it is down. */
    public long executedUpTo(int i) {
        Replica r = replica(i);
        return r == null ? -1 : r.executedUpTo();
    }

    /** Whether replica {@code i} sent WILL_COMMIT for slot {@code s} in its current view. */
    public boolean sentWillCommit(int i, long s) {
        Replica r = replica(i);
        return r != null && r.sentWillCommit(s);
    }

    /** The highest slot replica {@code i} sent WILL_COMMIT for in its current view, -1 if none (or down). */
    public long lastWillCommit(int i) {
        Replica r = replica(i);
        return r == null ? -1 : r.lastWillCommit();
    }

    /** The first correct replica other than {@code except} that is up and changing view, or -1. */
    public int correctChangingView(int except) {
        for (int i = 0; i < n; i++) {
            if (i != except && correct(i) && changingView(i)) {
                return i;
            }
        }
        return -1;
    }

    /** The highest view of a correct replica that is up (-1 if none). */
    public long highestCorrectView() {
        long v = -1;
        for (int i = 0; i < n; i++) {
            if (correct(i)) {
                v = Math.max(v, view(i));
            }
        }
        return v;
    }

    /** The highest stable checkpoint of a correct replica that is up (0 if none). */
    public long highestCorrectCheckpoint() {
        long c = 0;
        for (int i = 0; i < n; i++) {
            if (correct(i)) {
                c = Math.max(c, checkpoint(i));
            }
        }
        return c;
    }
}
