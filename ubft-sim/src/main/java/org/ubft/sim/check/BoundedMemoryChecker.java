package org.ubft.sim.check;

import org.ubft.sim.Probe;

import java.util.List;

/**
 * Bounded memory: every observable bounded structure ({@link Probe}: CTBcast TBcast buffers, outstanding fabric
 * operations, client tables, clients' outstanding requests, the network's pending events, and whatever a scenario
 * adds) stays within its configured bound. Sampled at every {@link #tick} and at the end; each probe is reported at
 * most once per run, with the largest value seen.
 */
public final class BoundedMemoryChecker implements Checker {
    public static final String NAME = "bounded-memory";

    private final Violations violations;
    private final List<Probe> probes;
    private final long[] max;
    private final boolean[] reported;

    public BoundedMemoryChecker(Violations violations, List<Probe> probes) {
        this.violations = violations;
        this.probes = List.copyOf(probes);
        this.max = new long[this.probes.size()];
        this.reported = new boolean[this.probes.size()];
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void tick(long time) {
        for (int i = 0; i < probes.size(); i++) {
            Probe p = probes.get(i);
            long v = p.value().getAsLong();
            max[i] = Math.max(max[i], v);
            if (v > p.bound() && !reported[i]) {
                reported[i] = true;
                violations.report(NAME, time, p.name() + " = " + v + ", over its bound " + p.bound());
            }
        }
    }

    @Override
    public void finish(long time) {
        tick(time);
    }

    /** The largest value of probe {@code name} seen so far, or -1 if there is no such probe. */
    public long max(String name) {
        for (int i = 0; i < probes.size(); i++) {
            if (probes.get(i).name().equals(name)) {
                return max[i];
            }
        }
        return -1;
    }
}
