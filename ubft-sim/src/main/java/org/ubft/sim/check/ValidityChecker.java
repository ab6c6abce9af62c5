package org.ubft.sim.check;

import org.ubft.sim.Payloads;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.function.IntPredicate;

/**
 * Validity: every request a correct replica executes was submitted by a client, byte for byte, and every reply a
 * client accepts is the reply to the request it submitted (it names that request).
 */
public final class ValidityChecker extends CorrectReplicasChecker {
    public static final String NAME = "validity";

    private final Map<Payloads.RequestId, byte[]> submitted = new HashMap<>();

    public ValidityChecker(Violations violations, IntPredicate correct) {
        super(NAME, violations, correct);
    }

    @Override
    public void submitted(long time, int client, long seq, long number, byte[] payload) {
        submitted.put(new Payloads.RequestId(client, seq), payload);
    }

    @Override
    public void executed(long time, int replica, long position, byte[] payload) {
        if (!correct(replica)) {
            return;
        }
        Payloads.RequestId id = Payloads.id(payload);
        byte[] original = id == null ? null : submitted.get(id);
        if (original == null || !Arrays.equals(original, payload)) {
            violations.report(NAME, time, "replica-" + replica + " executed at position " + position + " "
                + AgreementChecker.describe(payload) + ", which no client submitted"
                + (original == null ? "" : " (" + id + " was submitted as " + Payloads.digest(original) + ")"));
        }
    }

    @Override
    public void accepted(long time, int client, long seq, long number, byte[] reply) {
        Payloads.RequestId id = Payloads.replyId(reply);
        Payloads.RequestId expected = new Payloads.RequestId(client, seq);
        if (!expected.equals(id)) {
            violations.report(NAME, time, "client-" + client + " accepted for " + expected + " (number " + number
                + ") a reply naming " + id);
        }
    }
}
