package org.ubft.sim.check;

import org.ubft.sim.Payloads;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.function.IntPredicate;

/**
 * Agreement: no two correct replicas execute different requests at the same position of their execution order
 * (with the {@link org.ubft.sim.RecordingApp}, position p holds the request decided p-th overall, so this is "no two
 * correct replicas decide differently"), and a reply a client accepted names the position at which the correct
 * replicas executed its request. The first correct replica to execute a position fixes it; every later execution of
 * that position by a correct replica (another replica, or the same slot after a restart) must have the same bytes.
 */
public final class AgreementChecker extends CorrectReplicasChecker {
    public static final String NAME = "agreement";

    private final Map<Long, Entry> log = new HashMap<>();

    private record Entry(int replica, byte[] payload) {
    }

    public AgreementChecker(Violations violations, IntPredicate correct) {
        super(NAME, violations, correct);
    }

    @Override
    public void executed(long time, int replica, long position, byte[] payload) {
        if (!correct(replica)) {
            return;
        }
        Entry first = log.putIfAbsent(position, new Entry(replica, payload));
        if (first != null && !Arrays.equals(first.payload, payload)) {
            violations.report(NAME, time, "replica-" + replica + " executed " + describe(payload) + " at position "
                + position + ", replica-" + first.replica + " executed " + describe(first.payload) + " there");
        }
    }

    @Override
    public void accepted(long time, int client, long seq, long number, byte[] reply) {
        long position = Payloads.replyPosition(reply);
        Entry e = log.get(position);
        Payloads.RequestId id = new Payloads.RequestId(client, seq);
        if (e == null || !id.equals(Payloads.id(e.payload))) {
            violations.report(NAME, time, "client-" + client + " accepted a reply placing " + id + " at position "
                + position + ", where the correct replicas executed " + (e == null ? "nothing" : describe(e.payload)));
        }
    }

    static String describe(byte[] payload) {
        Payloads.RequestId id = Payloads.id(payload);
        return (id == null ? "a non-workload request" : id.toString()) + " (" + Payloads.digest(payload) + ")";
    }
}
