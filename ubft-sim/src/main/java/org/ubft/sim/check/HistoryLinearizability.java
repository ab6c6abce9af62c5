package org.ubft.sim.check;

import org.ubft.sim.Payloads;
import org.ubft.sim.linearizability.CheckResult;
import org.ubft.sim.linearizability.History;
import org.ubft.sim.linearizability.HistoryRecorder;
import org.ubft.sim.linearizability.LinearizabilityChecker;
import org.ubft.sim.linearizability.Operation;

import java.util.HashMap;
import java.util.Map;

/**
 * Linearizability of a workload's client-observed history: every client's submission that the workload decodes is an
 * invocation (virtual time of the submit), its accepted reply the response (virtual time of the acceptance); requests
 * still outstanding at the end are pending (they may or may not have taken effect). At the end the history is checked
 * ({@link #check}, partitioned by the workload's spec).
 *
 * <p>{@code NOT_LINEARIZABLE} is a violation, reported with the explanation's operations on one line. {@code UNKNOWN}
 * (a partition's search ran out of its step budget) is not a violation, since it shows no bug, but an
 * {@link Violations#unknown unknown outcome}: counted and printed apart, so a run that was not fully checked says so.
 * An accepted reply the workload cannot decode is a violation too (its operation stays pending in the history).
 *
 * @param <O> the workload's operations
 * @param <R> their results
 */
abstract class HistoryLinearizability<O, R> implements Checker {
    private final String name;
    private final Violations violations;
    private final LinearizabilityChecker checker;
    private final HistoryRecorder<O, R> recorder = new HistoryRecorder<>();
    /** The history's operation id of every outstanding workload request (looked up only, never iterated). */
    private final Map<Payloads.RequestId, Integer> outstanding = new HashMap<>();
    private CheckResult<O, R> result;

    HistoryLinearizability(String name, Violations violations, LinearizabilityChecker.Config config) {
        this.name = name;
        this.violations = violations;
        this.checker = new LinearizabilityChecker(config);
        violations.mayBeUnknown();
    }

    /** The workload's operation a request's body carries, or {@code null} for a request not of this workload. */
    abstract O invocation(byte[] body);

    /**
     * The result an accepted reply's body carries.
     *
     * @throws IllegalArgumentException if it is not one (the message says why)
     */
    abstract R response(byte[] body);

    /** What {@link #response} expects, for the violation it reports ("a key-value reply"). */
    abstract String expectedReply();

    /** Checks the whole history, partitioned as the workload's spec allows. */
    abstract CheckResult<O, R> check(LinearizabilityChecker checker, History<O, R> history);

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final void submitted(long time, int client, long seq, long number, byte[] payload) {
        O op = invocation(Payloads.body(payload));
        if (op != null) {
            outstanding.put(new Payloads.RequestId(client, seq), recorder.invoke(client, op, time));
        }
    }

    @Override
    public final void accepted(long time, int client, long seq, long number, byte[] reply) {
        Integer id = outstanding.remove(new Payloads.RequestId(client, seq));
        if (id == null) {
            return;
        }
        R decoded;
        try {
            decoded = response(Payloads.replyBody(reply));
        } catch (IllegalArgumentException e) {
            violations.report(name, time, "client-" + client + " accepted for c" + client + "#" + seq
                + " a reply that is not " + expectedReply() + ": " + e.getMessage());
            return;
        }
        recorder.respond(id, decoded, time);
    }

    @Override
    public final void finish(long time) {
        result = check(checker, recorder.history());
        switch (result.verdict()) {
            case NOT_LINEARIZABLE -> {
                StringBuilder b = new StringBuilder(result.message());
                for (Operation<O, R> op : result.explanation()) {
                    b.append(' ').append(op).append(';');
                }
                violations.report(name, time, b.toString());
            }
            case UNKNOWN -> violations.unknown(name, time, result.message());
            case LINEARIZABLE -> {
            }
        }
    }

    /** The history recorded so far (operations not accepted yet are pending). */
    public final History<O, R> history() {
        return recorder.history();
    }

    /** The check's result, once {@link #finish} ran; {@code null} before. */
    public final CheckResult<O, R> result() {
        return result;
    }
}
