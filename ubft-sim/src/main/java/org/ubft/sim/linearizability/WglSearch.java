package org.ubft.sim.linearizability;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * One depth-first search for a linearization of one history: Wing and Gong's algorithm with Lowe's just-in-time
 * linearization and memoization ("Testing for linearizability", 2017).
 *
 * <p>The calls and returns of all operations form a doubly-linked list in time order (a call before a return at equal
 * times, so operations that touch are concurrent). The search walks the list: at a call it tries to linearize that
 * operation next (the spec must accept its observed result, and the pair (set of linearized operations, state) must
 * be new), which removes the call and its return from the list and restarts from the head; at a return whose
 * operation is not linearized yet it backtracks, undoing the last choice. It succeeds when every completed operation
 * is linearized (pending ones may stay out: they did not take effect), fails when it must backtrack with nothing to
 * undo, and gives up after {@code maxSteps} list entries. A pending operation that would leave the state as it is
 * is not linearized there (not linearizing it leaves every option open, so that branch covers the other).
 */
final class WglSearch<S, I, O> {
    /** The search's answer, and where it got stuck furthest when it failed. */
    record Outcome<I, O>(Verdict verdict, long steps, Operation<I, O> furthestBlocked, int longestPrefix) {
    }

    private final SequentialSpec<S, I, O> spec;
    private final List<Operation<I, O>> ops;
    private final int n;
    private final int head;
    private final int tail;
    private final int[] next;
    private final int[] prev;
    private final int[] entryOp;
    private final boolean[] isCall;
    private final int[] returnOf;
    private final boolean[] forgotten;

    /** @param ops the history's operations, in invocation order */
    WglSearch(SequentialSpec<S, I, O> spec, List<Operation<I, O>> ops) {
        this(spec, ops, new boolean[ops.size()]);
    }

    /**
     * @param ops       the history's operations, in invocation order
     * @param forgotten by index in {@code ops}: operations whose result the search ignores: each took effect within
     *                  its interval, or none at all
     */
    WglSearch(SequentialSpec<S, I, O> spec, List<Operation<I, O>> ops, boolean[] forgotten) {
        this.spec = spec;
        this.ops = ops;
        this.forgotten = forgotten;
        this.n = ops.size();
        int entries = 2 * n;
        head = 0;
        tail = entries + 1;
        next = new int[entries + 2];
        prev = new int[entries + 2];
        entryOp = new int[entries + 2];
        isCall = new boolean[entries + 2];
        returnOf = new int[n];
        link(sortedEvents());
    }

    /** Events as (time, kind, op) sorted: op index i's call is 2i, return 2i+1. */
    private int[] sortedEvents() {
        Integer[] events = new Integer[2 * n];
        for (int i = 0; i < 2 * n; i++) {
            events[i] = i;
        }
        java.util.Arrays.sort(events, (a, b) -> {
            int c = Long.compare(time(a), time(b));
            if (c != 0) {
                return c;
            }
            c = Integer.compare(a & 1, b & 1);
            return c != 0 ? c : Integer.compare(a, b);
        });
        int[] out = new int[2 * n];
        for (int i = 0; i < out.length; i++) {
            out[i] = events[i];
        }
        return out;
    }

    private long time(int event) {
        Operation<I, O> op = ops.get(event >>> 1);
        return (event & 1) == 0 ? op.invokedAt() : op.respondedAt();
    }

    private void link(int[] events) {
        int[] callOf = new int[n];
        for (int pos = 1; pos <= events.length; pos++) {
            int e = events[pos - 1];
            entryOp[pos] = e >>> 1;
            isCall[pos] = (e & 1) == 0;
            if (isCall[pos]) {
                callOf[e >>> 1] = pos;
            } else {
                returnOf[e >>> 1] = pos;
            }
        }
        for (int pos = 0; pos <= tail; pos++) {
            next[pos] = Math.min(pos + 1, tail);
            prev[pos] = Math.max(pos - 1, 0);
        }
    }

    private void lift(int call) {
        unlink(call);
        unlink(returnOf[entryOp[call]]);
    }

    private void unlift(int call) {
        relink(returnOf[entryOp[call]]);
        relink(call);
    }

    private void unlink(int e) {
        next[prev[e]] = next[e];
        prev[next[e]] = prev[e];
    }

    private void relink(int e) {
        next[prev[e]] = e;
        prev[next[e]] = e;
    }

    /** Runs the search, looking at no more than {@code maxSteps} list entries. */
    Outcome<I, O> run(long maxSteps) {
        int completed = 0;
        for (Operation<I, O> op : ops) {
            completed += op.pending() ? 0 : 1;
        }
        LinearizedSet linearized = new LinearizedSet(n);
        Set<Object> seen = new HashSet<>();
        int[] stackEntry = new int[n];
        int[] stackAlternative = new int[n];
        Object[] stackState = new Object[n];
        int depth = 0;
        S state = spec.initialState();
        int entry = next[head];
        int alternative = 0;
        long steps = 0;
        Operation<I, O> furthest = null;
        int longest = 0;
        search:
        while (completed > 0) {
            if (++steps > maxSteps) {
                return new Outcome<>(Verdict.UNKNOWN, steps - 1, furthest, longest);
            }
            int i = entryOp[entry];
            Operation<I, O> op = ops.get(i);
            if (isCall[entry]) {
                // alternative 0: the operation takes effect; 1 (forgotten results only): it takes none
                for (int alternatives = forgotten[i] ? 2 : 1; alternative < alternatives; alternative++) {
                    S after = alternative == 1 ? state : spec.step(state, op.input(), forgotten[i] ? null : op.output());
                    // a pending operation that changes nothing here need not take effect here: it stays optional
                    if (after == null || op.pending() && after.equals(state)) {
                        continue;
                    }
                    linearized.set(i);
                    if (seen.add(new Memo(linearized.key(), after))) {
                        stackEntry[depth] = entry;
                        stackAlternative[depth] = alternative;
                        stackState[depth] = state;
                        depth++;
                        longest = Math.max(longest, depth);
                        state = after;
                        completed -= op.pending() ? 0 : 1;
                        lift(entry);
                        entry = next[head];
                        alternative = 0;
                        continue search;
                    }
                    linearized.clear(i);
                }
                entry = next[entry];
                alternative = 0;
            } else {
                if (furthest == null || op.respondedAt() > furthest.respondedAt()) {
                    furthest = op;
                }
                if (depth == 0) {
                    return new Outcome<>(Verdict.NOT_LINEARIZABLE, steps, furthest, longest);
                }
                depth--;
                entry = stackEntry[depth];
                alternative = stackAlternative[depth] + 1;
                @SuppressWarnings("unchecked")
                S previous = (S) stackState[depth];
                state = previous;
                stackState[depth] = null;
                int undone = entryOp[entry];
                linearized.clear(undone);
                completed += ops.get(undone).pending() ? 0 : 1;
                unlift(entry);
            }
        }
        return new Outcome<>(Verdict.LINEARIZABLE, steps, null, longest);
    }

    private record Memo(LinearizedSet.Key linearized, Object state) {
    }
}
