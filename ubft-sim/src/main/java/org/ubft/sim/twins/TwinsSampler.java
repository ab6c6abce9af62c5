package org.ubft.sim.twins;

import org.ubft.sim.SimCluster;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Twins schedules beyond the enumeration's bound ({@link TwinsEnumeration}), drawn from a run's random source: for
 * any replica as twins (the caller draws it: the cluster is built with its twins before the schedule), 1 to {@value #MAX_PHASES} phases of 1 to 40 ms each (any length, not two), each a random one
 * of the partitions that keep the twins apart; each client with a random other replica; with probability 1/2 a twin
 * (A or B) crashes at a random time before GST and, with probability 2/3, restarts later (by GST) with its stream log
 * kept or wiped; the survivor at GST is a twin that is up then.
 */
public final class TwinsSampler {
    public static final int MAX_PHASES = 4;
    private static final long MS = 1_000_000L;

    private TwinsSampler() {
    }

    public static TwinSchedule sample(int n, int clients, int slot, SplittableRandom random) {
        List<TwinPartition> partitions = TwinPartition.all(n, slot);
        int count = 1 + random.nextInt(MAX_PHASES);
        List<TwinSchedule.Phase> phases = new ArrayList<>();
        long gst = 0;
        for (int k = 0; k < count; k++) {
            long nanos = MS + random.nextLong(39 * MS + 1);
            phases.add(new TwinSchedule.Phase(partitions.get(random.nextInt(partitions.size())), nanos));
            gst += nanos;
        }
        int[] homes = new int[clients];
        for (int c = 0; c < clients; c++) {
            int home = random.nextInt(n - 1);
            homes[c] = home >= slot ? home + 1 : home;
        }
        TwinSchedule.Crash crash = null;
        int survivor = random.nextInt(2);
        if (random.nextBoolean()) {
            int twin = random.nextInt(2);
            long at = random.nextLong(gst);
            long restartAt = -1;
            SimCluster.Disk disk = SimCluster.Disk.KEPT;
            if (random.nextInt(3) != 0) {
                restartAt = at + 1 + random.nextLong(gst - at);
                disk = random.nextBoolean() ? SimCluster.Disk.KEPT : SimCluster.Disk.WIPED;
            } else {
                survivor = 1 - twin;
            }
            crash = new TwinSchedule.Crash(twin, at, restartAt, disk);
        }
        return new TwinSchedule(slot, phases, homes, crash, survivor);
    }
}
