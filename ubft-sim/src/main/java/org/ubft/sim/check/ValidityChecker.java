package org.ubft.sim.check;

import org.ubft.sim.Payloads;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntPredicate;

/**
 * Validity: every request a correct replica executes was submitted by a client, byte for byte, and every reply a
 * client accepts is the reply to the request it submitted (it names that request). A Byzantine client may send other
 * payloads for the same request to some replicas ({@link org.ubft.sim.SimEvents#sent}): executing one of those is
 * valid too (the client did submit it), executing a payload no replica was sent is not.
 */
public final class ValidityChecker extends CorrectReplicasChecker {
    public static final String NAME = "validity";

    private final Map<Payloads.RequestId, byte[]> submitted = new HashMap<>();
    /** What Byzantine clients really sent to some replica, besides what they submitted (other payloads, same id). */
    private final Map<Payloads.RequestId, List<byte[]>> sent = new HashMap<>();

    public ValidityChecker(Violations violations, IntPredicate correct) {
        super(NAME, violations, correct);
    }

    @Override
    public void submitted(long time, int client, long seq, long number, byte[] payload) {
        submitted.put(new Payloads.RequestId(client, seq), payload);
    }

    @Override
    public void sent(long time, int client, long seq, long number, int replica, byte[] payload) {
        Payloads.RequestId id = Payloads.id(payload);
        if (id != null && id.client() == client) {
            sent.computeIfAbsent(id, k -> new ArrayList<>()).add(payload);
        }
    }

    @Override
    public void executed(long time, int replica, long position, byte[] payload) {
        if (!correct(replica)) {
            return;
        }
        Payloads.RequestId id = Payloads.id(payload);
        byte[] original = id == null ? null : submitted.get(id);
        if (!(original != null && Arrays.equals(original, payload)) && !wasSent(id, payload)) {
            violations.report(NAME, time, "replica-" + replica + " executed at position " + position + " "
                + AgreementChecker.describe(payload) + ", which no client submitted"
                + (original == null ? "" : " (" + id + " was submitted as " + Payloads.digest(original) + ")"));
        }
    }

    private boolean wasSent(Payloads.RequestId id, byte[] payload) {
        for (byte[] p : id == null ? List.<byte[]>of() : sent.getOrDefault(id, List.of())) {
            if (Arrays.equals(p, payload)) {
                return true;
            }
        }
        return false;
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
