package org.ubft.sim.linearizability;

import java.util.Objects;

/**
 * One operation of a history: a client invoked {@code input} at virtual time {@code invokedAt} and saw
 * {@code output} at {@code respondedAt}. A <em>pending</em> operation was invoked and never answered: it may or may
 * not have taken effect, at any time after its invocation; its output is {@code null} and its response time
 * {@link #PENDING}. Completed operations have a non-null output (use a unit value for operations that return
 * nothing).
 *
 * @param id          unique within its history (the explanation of a violation names operations by it)
 * @param client      the invoking client
 * @param invokedAt   virtual time of the invocation
 * @param respondedAt virtual time of the response, at least {@code invokedAt}; {@link #PENDING} if none
 * @param input       the operation and its arguments, for the {@link SequentialSpec}
 * @param output      the observed result; {@code null} if pending
 */
public record Operation<I, O>(int id, int client, long invokedAt, long respondedAt, I input, O output) {
    /** The response time of a pending operation. */
    public static final long PENDING = Long.MAX_VALUE;

    public Operation {
        Objects.requireNonNull(input, "input");
        if (output == null && respondedAt != PENDING) {
            throw new IllegalArgumentException("operation " + id + " answered at " + respondedAt + " has no output");
        }
        if (output != null && respondedAt == PENDING) {
            throw new IllegalArgumentException("operation " + id + " has an output but no response time");
        }
        if (respondedAt < invokedAt) {
            throw new IllegalArgumentException("operation " + id + " answered at " + respondedAt
                + " before its invocation at " + invokedAt);
        }
    }

    /** A completed operation. */
    public static <I, O> Operation<I, O> completed(int id, int client, long invokedAt, long respondedAt, I input,
        O output) {
        return new Operation<>(id, client, invokedAt, respondedAt, input, Objects.requireNonNull(output, "output"));
    }

    /** A pending operation (invoked, never answered). */
    public static <I, O> Operation<I, O> pending(int id, int client, long invokedAt, I input) {
        return new Operation<>(id, client, invokedAt, PENDING, input, null);
    }

    /** True if the operation was never answered. */
    public boolean pending() {
        return output == null;
    }

    /** True if this operation was answered before {@code other} was invoked (real-time order). */
    public boolean precedes(Operation<?, ?> other) {
        return respondedAt < other.invokedAt;
    }

    @Override
    public String toString() {
        return "#" + id + " c" + client + " " + input + " -> " + (pending() ? "?" : output) + " [" + invokedAt + ", "
            + (pending() ? "pending" : respondedAt) + "]";
    }
}
