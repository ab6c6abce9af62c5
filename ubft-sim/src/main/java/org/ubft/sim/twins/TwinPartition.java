package org.ubft.sim.twins;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One phase's partition of the replicas of a cluster whose slot {@code slot} runs as twins: the members are the other
 * replicas, twin A and twin B, each in exactly one part, and the twins in different parts (a peer reaches at most
 * one twin, {@link org.ubft.fabric.sim.SimNetwork.TwinRoutes}). Members in one part reach each other; members in
 * different parts do not. Memory nodes are in no part: every replica, both twins included, reaches them (they are
 * the crash-only trusted base, and both twins writing the slot's registers is what a Byzantine slot can do). Clients
 * are placed by {@link TwinSchedule}.
 *
 * <p>{@code parts[m]} is member m's part: m below n is replica m (for m = slot: twin A), m = n is twin B. Parts are
 * numbered in order of first appearance (a restricted growth string), so each partition has one representation.
 */
public record TwinPartition(int slot, int[] parts) {
    public TwinPartition {
        parts = parts.clone();
        int n = parts.length - 1;
        if (slot < 0 || slot >= n) {
            throw new IllegalArgumentException("twin slot " + slot + " of " + n + " replicas");
        }
        int next = 0;
        for (int p : parts) {
            if (p < 0 || p > next) {
                throw new IllegalArgumentException("not a canonical partition: " + Arrays.toString(parts));
            }
            next = Math.max(next, p + 1);
        }
        if (parts[slot] == parts[n]) {
            throw new IllegalArgumentException("twins A and B in one part: " + Arrays.toString(parts));
        }
    }

    /**
     * Every partition of n replicas with slot {@code slot} as twins, in a fixed order (by the restricted growth string
     * over members 0..n-1, then twin B): for n = 3, 10 of the 15 partitions of 4 members (those keeping A and B apart).
     */
    public static List<TwinPartition> all(int n, int slot) {
        List<TwinPartition> out = new ArrayList<>();
        grow(new int[n + 1], 0, 0, slot, out);
        return out;
    }

    private static void grow(int[] parts, int member, int used, int slot, List<TwinPartition> out) {
        if (member == parts.length) {
            if (parts[slot] != parts[parts.length - 1]) {
                out.add(new TwinPartition(slot, parts));
            }
            return;
        }
        for (int p = 0; p <= used; p++) {
            parts[member] = p;
            grow(parts, member + 1, Math.max(used, p + 1), slot, out);
        }
    }

    /** Replicas in the cluster. */
    public int n() {
        return parts.length - 1;
    }

    /** Part of replica {@code replica} (of twin A for the slot). */
    public int partOf(int replica) {
        return parts[replica];
    }

    /** Part of twin {@code twin} (0: A, 1: B). */
    public int partOfTwin(int twin) {
        return twin == 0 ? parts[slot] : parts[n()];
    }

    /** The twin (0, 1) in replica {@code replica}'s part, or -1 (for the slot itself: -1). */
    public int twinWith(int replica) {
        if (replica == slot) {
            return -1;
        }
        return parts[replica] == parts[slot] ? 0 : parts[replica] == parts[n()] ? 1 : -1;
    }

    /** {@code {0A,1}{0B,2}}: each part's members, twins as slot + A/B. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        int count = Arrays.stream(parts).max().orElse(0) + 1;
        for (int p = 0; p < count; p++) {
            sb.append('{');
            boolean first = true;
            for (int m = 0; m < parts.length; m++) {
                if (parts[m] == p) {
                    sb.append(first ? "" : ",").append(m == n() ? slot + "B" : m == slot ? slot + "A" : String.valueOf(m));
                    first = false;
                }
            }
            sb.append('}');
        }
        return sb.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TwinPartition t && t.slot == slot && Arrays.equals(t.parts, parts);
    }

    @Override
    public int hashCode() {
        return 31 * slot + Arrays.hashCode(parts);
    }
}
