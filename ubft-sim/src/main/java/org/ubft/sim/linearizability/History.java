package org.ubft.sim.linearizability;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * A history: the operations clients invoked, each with its interval of virtual time and its observed result (or
 * pending). Immutable; operations are held in invocation order.
 */
public final class History<I, O> {
    private final List<Operation<I, O>> operations;

    /**
     * @throws IllegalArgumentException if two operations share an id
     */
    public History(Collection<Operation<I, O>> operations) {
        Set<Integer> ids = new HashSet<>();
        for (Operation<I, O> op : operations) {
            if (!ids.add(op.id())) {
                throw new IllegalArgumentException("two operations have id " + op.id());
            }
        }
        List<Operation<I, O>> sorted = new ArrayList<>(operations);
        sorted.sort(Comparator.comparingLong((Operation<I, O> op) -> op.invokedAt()).thenComparingInt(Operation::id));
        this.operations = List.copyOf(sorted);
    }

    /** A history of {@code operations}. */
    @SafeVarargs
    public static <I, O> History<I, O> of(Operation<I, O>... operations) {
        return new History<>(List.of(operations));
    }

    /** The operations, in invocation order. */
    public List<Operation<I, O>> operations() {
        return operations;
    }

    public int size() {
        return operations.size();
    }

    /** Operations never answered. */
    public long pendingCount() {
        return operations.stream().filter(Operation::pending).count();
    }

    /**
     * The sub-histories of operations with equal {@code partition(input)}, in the order their first operation was
     * invoked.
     */
    public Map<Object, History<I, O>> partition(Function<? super I, ?> partition) {
        Map<Object, List<Operation<I, O>>> parts = new LinkedHashMap<>();
        for (Operation<I, O> op : operations) {
            parts.computeIfAbsent(partition.apply(op.input()), k -> new ArrayList<>()).add(op);
        }
        Map<Object, History<I, O>> out = new LinkedHashMap<>();
        parts.forEach((k, ops) -> out.put(k, new History<>(ops)));
        return out;
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder();
        for (Operation<I, O> op : operations) {
            b.append(op).append('\n');
        }
        return b.toString();
    }
}
