package org.ubft.sim.linearizability;

import org.ubft.apps.kv.KvReplyCodec.Reply;
import org.ubft.apps.kv.KvStatus;

import java.util.ArrayList;
import java.util.List;

/** Builds hand-made histories for tests: each {@code op} call adds the next operation, ids counting from 0. */
final class Histories<I, O> {
    private final List<Operation<I, O>> ops = new ArrayList<>();

    /** A completed operation. */
    Histories<I, O> op(int client, long invokedAt, long respondedAt, I input, O output) {
        ops.add(Operation.completed(ops.size(), client, invokedAt, respondedAt, input, output));
        return this;
    }

    /** A pending operation. */
    Histories<I, O> pending(int client, long invokedAt, I input) {
        ops.add(Operation.pending(ops.size(), client, invokedAt, input));
        return this;
    }

    History<I, O> build() {
        return new History<>(ops);
    }

    static Histories<RegisterSpec.Op, Long> register() {
        return new Histories<>();
    }

    static Histories<KvOp, Reply> kv() {
        return new Histories<>();
    }

    static Reply ok(long v) {
        return new Reply(KvStatus.OK, v);
    }

    static Reply reply(KvStatus s, long v) {
        return new Reply(s, v);
    }
}
