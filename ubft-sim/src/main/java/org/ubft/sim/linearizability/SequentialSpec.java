package org.ubft.sim.linearizability;

/**
 * The sequential specification of an object: what one operation does to a state and which results it may return.
 * States must be immutable values with {@code equals} and {@code hashCode} (the checker memoizes on them), never
 * {@code null}.
 *
 * @param <S> the state
 * @param <I> an operation with its arguments
 * @param <O> a result
 */
public interface SequentialSpec<S, I, O> {
    /** The state before any operation. */
    S initialState();

    /**
     * The state after {@code input} runs on {@code state} and returns {@code observed}, or {@code null} if it cannot
     * return {@code observed} from that state. {@code observed} is {@code null} for a pending operation whose result
     * nobody saw: then the state after it takes effect normally (a pending operation may also take no effect at
     * all; the checker tries that without asking).
     */
    S step(S state, I input, O observed);
}
