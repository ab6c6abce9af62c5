package org.ubft.sim.check;

import org.ubft.apps.kv.KvReplyCodec;
import org.ubft.sim.Payloads;
import org.ubft.sim.linearizability.CheckResult;
import org.ubft.sim.linearizability.History;
import org.ubft.sim.linearizability.HistoryRecorder;
import org.ubft.sim.linearizability.KvOp;
import org.ubft.sim.linearizability.KvSpec;
import org.ubft.sim.linearizability.LinearizabilityChecker;
import org.ubft.sim.linearizability.Operation;

import java.util.HashMap;
import java.util.Map;

/**
 * Linearizability of the client-observed history of the key-value workload ({@link org.ubft.sim.SimOptions#kv()}).
 * Every client's submission is an invocation (virtual time of the submit, the {@link KvOp} the request carries) and
 * its accepted reply the response (virtual time of the acceptance, the decoded {@link KvReplyCodec.Reply}); requests
 * still outstanding at the end are pending (they may or may not have taken effect). At the end the history is checked
 * key by key ({@link LinearizabilityChecker#checkPartitioned} with {@link KvSpec#BY_KEY}).
 *
 * <p>{@code NOT_LINEARIZABLE} is a violation, reported with the explanation's operations on one line. {@code UNKNOWN}
 * (a key's search ran out of its step budget) is not a violation, since it shows no bug, but an
 * {@link Violations#unknown unknown outcome}: counted and printed apart, so a run that was not fully checked says so.
 * An accepted reply that is not a key-value reply is a violation too (its operation stays pending in the history).
 */
public final class KvLinearizabilityChecker implements Checker {
    public static final String NAME = "linearizability";

    private final Violations violations;
    private final LinearizabilityChecker checker;
    private final HistoryRecorder<KvOp, KvReplyCodec.Reply> recorder = new HistoryRecorder<>();
    /** The history's operation id of every outstanding workload request (looked up only, never iterated). */
    private final Map<Payloads.RequestId, Integer> outstanding = new HashMap<>();
    private CheckResult<KvOp, KvReplyCodec.Reply> result;

    public KvLinearizabilityChecker(Violations violations) {
        this(violations, LinearizabilityChecker.Config.defaults());
    }

    public KvLinearizabilityChecker(Violations violations, LinearizabilityChecker.Config config) {
        this.violations = violations;
        this.checker = new LinearizabilityChecker(config);
        violations.mayBeUnknown();
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void submitted(long time, int client, long seq, long number, byte[] payload) {
        KvOp op = KvOp.decode(Payloads.body(payload));
        if (op != null) {
            outstanding.put(new Payloads.RequestId(client, seq), recorder.invoke(client, op, time));
        }
    }

    @Override
    public void accepted(long time, int client, long seq, long number, byte[] reply) {
        Integer id = outstanding.remove(new Payloads.RequestId(client, seq));
        if (id == null) {
            return;
        }
        byte[] body = Payloads.replyBody(reply);
        KvReplyCodec.Reply decoded;
        try {
            decoded = KvReplyCodec.decode(body);
        } catch (IllegalArgumentException e) {
            violations.report(NAME, time, "client-" + client + " accepted for c" + client + "#" + seq
                + " a reply that is not a key-value reply: " + e.getMessage());
            return;
        }
        recorder.respond(id, decoded, time);
    }

    @Override
    public void finish(long time) {
        result = checker.checkPartitioned(recorder.history(), new KvSpec(), KvSpec.BY_KEY);
        switch (result.verdict()) {
            case NOT_LINEARIZABLE -> violations.report(NAME, time, oneLine(result));
            case UNKNOWN -> violations.unknown(NAME, time, result.message());
            case LINEARIZABLE -> {
            }
        }
    }

    private static String oneLine(CheckResult<KvOp, KvReplyCodec.Reply> r) {
        StringBuilder b = new StringBuilder(r.message());
        for (Operation<KvOp, KvReplyCodec.Reply> op : r.explanation()) {
            b.append(' ').append(op).append(';');
        }
        return b.toString();
    }

    /** The history recorded so far (operations not accepted yet are pending). */
    public History<KvOp, KvReplyCodec.Reply> history() {
        return recorder.history();
    }

    /** The check's result, once {@link #finish} ran; {@code null} before. */
    public CheckResult<KvOp, KvReplyCodec.Reply> result() {
        return result;
    }
}
