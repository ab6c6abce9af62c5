package org.ubft.cli.nemesis;

import org.ubft.apps.kv.machine.KvWire;
import org.ubft.sim.linearizability.CheckResult;
import org.ubft.sim.linearizability.History;
import org.ubft.sim.linearizability.HistoryRecorder;
import org.ubft.sim.linearizability.LinearizabilityChecker;
import org.ubft.sim.linearizability.Operation;
import org.ubft.sim.linearizability.RedisOp;
import org.ubft.sim.linearizability.RedisSpec;
import org.ubft.sim.linearizability.Verdict;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The key-value clients' shared history (thread-safe, at most {@code maxOps} operations: memory stays bounded, and a
 * full history ends the run's fault phase), the commands they issue and its check: linearizability per key with the
 * simulator's checker ({@link LinearizabilityChecker}) and {@link RedisSpec}. Times are System.nanoTime().
 */
final class KvHistory {
    private final HistoryRecorder<RedisOp, String> recorder = new HistoryRecorder<>();
    private final int maxOps;
    private final int keys;

    KvHistory(int maxOps, int keys) {
        this.maxOps = maxOps;
        this.keys = keys;
    }

    /** A random command on one of the keys {@code k0..k(keys-1)}; values stay decimal so INCR mostly applies. */
    RedisOp randomOp(SplittableRandom random) {
        String key = key(random.nextInt(keys));
        int kind = random.nextInt(100);
        if (kind < 35) {
            return RedisOp.get(key);
        } else if (kind < 55) {
            return RedisOp.set(key, Integer.toString(random.nextInt(1, 1000)));
        } else if (kind < 75) {
            return RedisOp.incr(key);
        } else if (kind < 90) {
            return RedisOp.append(key, Integer.toString(random.nextInt(10)));
        }
        return RedisOp.del(key);
    }

    static String key(int i) {
        return "k" + i;
    }

    int keys() {
        return keys;
    }

    /** The request of {@code op}: a one-command Redis batch (the cluster executes it at its replicated time). */
    static byte[] request(RedisOp op) {
        return KvWire.batch(KvWire.REDIS, 0, List.of(op.args()));
    }

    /** The RESP bytes of a DONE reply of one command, or a description of another reply (never a RESP reply). */
    static String output(byte[] reply) {
        try {
            KvWire.Reply r = KvWire.decodeReply(reply);
            String body = new String(r.body(), StandardCharsets.US_ASCII);
            return r.status() == KvWire.DONE && r.executed() == 1 ? body
                : "<reply status " + r.status() + ", executed " + r.executed() + ": " + body.strip() + ">";
        } catch (IllegalArgumentException e) {
            return "<not a key-value reply: " + e.getMessage() + ">";
        }
    }

    /** Records an invocation; -1 if the history is full (the command must not be sent). */
    synchronized int invoke(int client, RedisOp op) {
        if (recorder.size() >= maxOps) {
            return -1;
        }
        return recorder.invoke(client, op, System.nanoTime());
    }

    /** Records an invocation even if the history is full (the final reads: a few more than the bound). */
    synchronized int invokeAlways(int client, RedisOp op) {
        return recorder.invoke(client, op, System.nanoTime());
    }

    synchronized void respond(int id, String output) {
        recorder.respond(id, output, System.nanoTime());
    }

    synchronized boolean full() {
        return recorder.size() >= maxOps;
    }

    synchronized History<RedisOp, String> history() {
        return recorder.history();
    }

    /** The history checked key by key. */
    static CheckResult<RedisOp, String> check(History<RedisOp, String> history) {
        return new LinearizabilityChecker().checkPartitioned(history, new RedisSpec(), RedisSpec.BY_KEY);
    }

    /**
     * The violation {@code result} (a check of {@code history}) shows, or {@code null} if it shows none: a LOST
     * ACKNOWLEDGED WRITE if the history without the final reader's reads is linearizable (the reads after every fault
     * healed miss a write the clients saw acknowledged), otherwise NOT LINEARIZABLE; either with the checker's
     * explanation.
     */
    static String violation(History<RedisOp, String> history, CheckResult<RedisOp, String> result, int reader) {
        if (result.verdict() != Verdict.NOT_LINEARIZABLE) {
            return null;
        }
        List<Operation<RedisOp, String>> kept = history.operations().stream()
            .filter(op -> op.client() != reader).toList();
        boolean beforeReads = linearizable(check(new History<>(kept)));
        return (beforeReads ? LOST + ": the final reads of every key, after the faults healed, miss a write"
            + " acknowledged to a client: " : "NOT LINEARIZABLE: ") + result.describe().replace("\n", " |");
    }

    static final String LOST = "LOST ACKNOWLEDGED WRITE";

    static boolean linearizable(CheckResult<?, ?> r) {
        return r.verdict() == Verdict.LINEARIZABLE;
    }
}
