package org.ubft.sim.linearizability;

import java.util.ArrayList;
import java.util.List;

/**
 * Records a history as it happens: {@link #invoke} when a client sends a request, {@link #respond} when it accepts
 * the reply. Operations never responded to are pending in {@link #history()}. Not thread-safe (the simulator is one
 * thread).
 */
public final class HistoryRecorder<I, O> {
    private final List<Operation<I, O>> operations = new ArrayList<>();

    /** Records an invocation; returns the operation's id, for {@link #respond}. */
    public int invoke(int client, I input, long now) {
        int id = operations.size();
        operations.add(Operation.pending(id, client, now, input));
        return id;
    }

    /**
     * Records the response to operation {@code id}.
     *
     * @throws IllegalStateException if it was already answered
     */
    public void respond(int id, O output, long now) {
        Operation<I, O> op = operations.get(id);
        if (!op.pending()) {
            throw new IllegalStateException("operation " + id + " was already answered: " + op);
        }
        operations.set(id, Operation.completed(id, op.client(), op.invokedAt(), now, op.input(), output));
    }

    /** Operations recorded so far. */
    public int size() {
        return operations.size();
    }

    /** The history so far; unanswered operations are pending. */
    public History<I, O> history() {
        return new History<>(operations);
    }
}
