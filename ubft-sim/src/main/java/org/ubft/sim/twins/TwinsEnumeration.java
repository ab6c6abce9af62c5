package org.ubft.sim.twins;

import org.ubft.sim.SimCluster;

import java.util.ArrayList;
import java.util.List;

/**
 * The bounded, exhaustive Twins enumeration for n = 3 (f = 1) with 2 clients, in a fixed order so that an index names
 * one schedule ({@code twins-e-0042}). The bound:
 * <ul>
 *   <li>the twinned replica: {@value #SLOTS_DOC};</li>
 *   <li>{@value #PHASES} phases, each one of the 10 partitions of {other replicas, twin A, twin B} that keep the twins
 *       apart ({@link TwinPartition#all}); the two may be equal (one longer phase);</li>
 *   <li>each phase {@value #LENGTHS_DOC} long: short enough that no timeout fires, or long enough for a request
 *       timeout (10 ms) and a view-change timeout (20 ms) to fire (view changes inside the phase);</li>
 *   <li>the twins' fate ({@link Fate}): no crash, or twin A crashes at the end of phase 1 and restarts halfway
 *       through phase 2 with its own-stream log kept, or wiped (amnesia);</li>
 *   <li>client c sits with the other replica {@code others[c mod 2]} (so a split {A, x}{B, y} has one client on each
 *       side), and at GST twin B crashes and twin A remains.</li>
 * </ul>
 * That is 2 x 10 x 10 x 2 x 2 x 3 = {@value #COUNT} schedules. The order: slot, phase-1 partition, phase-2
 * partition, phase-1 length, phase-2 length, fate (the last varies fastest).
 */
public final class TwinsEnumeration {
    public static final int N = 3;
    public static final int CLIENTS = 2;
    static final String SLOTS_DOC = "0 (the leader of view 0) or 1 (a follower, the leader of view 1)";
    public static final int[] SLOTS = {0, 1};
    public static final int PHASES = 2;
    static final String LENGTHS_DOC = "3 ms or 25 ms";
    public static final long[] LENGTHS = {3_000_000L, 25_000_000L};
    /** Partitions of n = 3 replicas with one as twins that keep the twins apart. */
    public static final int PARTITIONS = 10;
    public static final int COUNT = 2 * PARTITIONS * PARTITIONS * 2 * 2 * 3;
    /** The bound in one line (for {@code ubft sim --list}). */
    public static final String BOUND = "n = 3, the leader of view 0 or replica 1 as twins, 2 phases of 3 or 25 ms, each"
        + " one of the 10 partitions of {other replicas, A, B} keeping A and B apart, twin A crashing after phase 1 and"
        + " restarting mid phase 2 (stream log kept or wiped) or not";

    /** What happens to the twins besides the partitions. */
    public enum Fate {
        NONE, RESTART_KEPT, RESTART_WIPED
    }

    private TwinsEnumeration() {
    }

    /** Schedule number {@code index} (0 to {@link #COUNT} - 1). */
    public static TwinSchedule schedule(int index) {
        if (index < 0 || index >= COUNT) {
            throw new IllegalArgumentException("twins enumeration index " + index + " outside 0.." + (COUNT - 1));
        }
        int rest = index;
        Fate fate = Fate.values()[rest % Fate.values().length];
        rest /= Fate.values().length;
        long second = LENGTHS[rest % LENGTHS.length];
        rest /= LENGTHS.length;
        long first = LENGTHS[rest % LENGTHS.length];
        rest /= LENGTHS.length;
        int p2 = rest % PARTITIONS;
        rest /= PARTITIONS;
        int p1 = rest % PARTITIONS;
        rest /= PARTITIONS;
        int slot = SLOTS[rest];
        List<TwinPartition> partitions = TwinPartition.all(N, slot);
        List<TwinSchedule.Phase> phases = List.of(new TwinSchedule.Phase(partitions.get(p1), first),
            new TwinSchedule.Phase(partitions.get(p2), second));
        TwinSchedule.Crash crash = switch (fate) {
            case NONE -> null;
            case RESTART_KEPT -> new TwinSchedule.Crash(0, first, first + second / 2, SimCluster.Disk.KEPT);
            case RESTART_WIPED -> new TwinSchedule.Crash(0, first, first + second / 2, SimCluster.Disk.WIPED);
        };
        return new TwinSchedule(slot, phases, clientHomes(slot), crash, 0);
    }

    /** Client c's home: the other replicas in order, c mod 2. */
    static int[] clientHomes(int slot) {
        int[] others = new int[N - 1];
        for (int i = 0, k = 0; i < N; i++) {
            if (i != slot) {
                others[k++] = i;
            }
        }
        int[] homes = new int[CLIENTS];
        for (int c = 0; c < CLIENTS; c++) {
            homes[c] = others[c % others.length];
        }
        return homes;
    }

    /** Every schedule, in index order. */
    public static List<TwinSchedule> all() {
        List<TwinSchedule> out = new ArrayList<>(COUNT);
        for (int i = 0; i < COUNT; i++) {
            out.add(schedule(i));
        }
        return out;
    }
}
