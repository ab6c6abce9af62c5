package org.ubft.sim.check;

import org.ubft.sim.Payloads;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.IntPredicate;
import java.util.function.Supplier;

/**
 * Liveness after GST: with at most f faulty replicas and at most f_m crashed memory nodes, every request outstanding
 * at {@code gst} or submitted later is accepted by its client within {@code bound} of virtual time from the later of
 * its submission and {@code gst}. A late request is reported once (the first one; later ones are counted) with the
 * replicas' counters lines; at the end every request whose deadline passed and is still outstanding is reported.
 * Only the requests of correct clients are held to it (a Byzantine client's need not complete).
 * Only meaningful for a run whose faults are within the tolerance: a scenario with more faults must not include it,
 * except to show that it fires.
 */
public final class LivenessChecker implements Checker {
    public static final String NAME = "liveness";

    private final Violations violations;
    private final long gst;
    private final long bound;
    private final Supplier<String> countersLines;
    private final IntPredicate correctClient;
    /** Outstanding requests in submission order, with their submission time. */
    private final Map<Payloads.RequestId, Long> outstanding = new LinkedHashMap<>();
    private long accepted;
    private long acceptedAfterGst;

    public LivenessChecker(Violations violations, long gst, long bound, Supplier<String> countersLines) {
        this(violations, gst, bound, countersLines, c -> true);
    }

    /** @param correctClient which clients' requests must complete (a Byzantine client's need not) */
    public LivenessChecker(Violations violations, long gst, long bound, Supplier<String> countersLines,
                           IntPredicate correctClient) {
        this.correctClient = correctClient;
        this.violations = violations;
        this.gst = gst;
        this.bound = bound;
        this.countersLines = countersLines;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void submitted(long time, int client, long seq, long number, byte[] payload) {
        if (!correctClient.test(client)) {
            return;
        }
        outstanding.put(new Payloads.RequestId(client, seq), time);
    }

    @Override
    public void accepted(long time, int client, long seq, long number, byte[] reply) {
        if (outstanding.remove(new Payloads.RequestId(client, seq)) != null) {
            accepted++;
            if (time >= gst) {
                acceptedAfterGst++;
            }
        }
    }

    @Override
    public void tick(long time) {
        var it = outstanding.entrySet().iterator();
        while (it.hasNext()) {
            var e = it.next();
            long deadline = Math.max(e.getValue(), gst) + bound;
            if (time > deadline) {
                it.remove();
                violations.report(NAME, time, "request " + e.getKey() + " submitted at " + e.getValue()
                    + " ns not accepted by " + deadline + " ns (GST " + gst + " ns, bound " + bound + " ns); "
                    + accepted + " accepted so far, " + acceptedAfterGst + " after GST\n" + countersLines.get());
            }
        }
    }

    @Override
    public void finish(long time) {
        tick(time);
    }

    /** Requests accepted after GST. */
    public long acceptedAfterGst() {
        return acceptedAfterGst;
    }
}
