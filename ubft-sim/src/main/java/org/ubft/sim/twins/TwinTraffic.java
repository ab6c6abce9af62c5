package org.ubft.sim.twins;

import org.ubft.fabric.sim.SimNetwork;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What each twin did, phase by phase: the operations (tail-channel and register WRITEs, READs) that each twin posted
 * and that reached a node, and those that nodes posted and that reached each twin. The evidence that the twins are two
 * processes that both act, each within its own part of the network ({@link TwinSchedule#install}). Phase k counts
 * from the start of phase k (from 0) to the next; phase {@code phases} is after GST.
 */
public final class TwinTraffic implements SimNetwork.ArrivalListener {
    private final int node;
    private final int phases;
    /** (phase, twin, direction, peer node) to count; direction 0: twin to peer, 1: peer to twin. */
    private final Map<Long, long[]> counts = new HashMap<>();
    private int phase;

    TwinTraffic(int node, int phases) {
        this.node = node;
        this.phases = phases;
    }

    void phase(int k) {
        this.phase = k;
    }

    @Override
    public void arrived(int fromNode, int fromTwin, int toNode, int toTwin, boolean write) {
        if (fromNode == node && fromTwin >= 0 && toNode != node) {
            counts.computeIfAbsent(key(phase, fromTwin, 0, toNode), k -> new long[1])[0]++;
        } else if (toNode == node && toTwin >= 0 && fromNode != node) {
            counts.computeIfAbsent(key(phase, toTwin, 1, fromNode), k -> new long[1])[0]++;
        }
    }

    private static long key(int phase, int twin, int direction, int peer) {
        return ((long) phase << 40) | ((long) twin << 36) | ((long) direction << 32) | (peer & 0xFFFF_FFFFL);
    }

    /** Operations twin {@code twin} posted in phase {@code phase} that reached node {@code peer}. */
    public long sent(int phase, int twin, int peer) {
        long[] c = counts.get(key(phase, twin, 0, peer));
        return c == null ? 0 : c[0];
    }

    /** Operations node {@code peer} posted that reached twin {@code twin} in phase {@code phase}. */
    public long received(int phase, int twin, int peer) {
        long[] c = counts.get(key(phase, twin, 1, peer));
        return c == null ? 0 : c[0];
    }

    /** The nodes that twin {@code twin} exchanged operations with in phase {@code phase} (either way). */
    public Set<Integer> peers(int phase, int twin) {
        Set<Integer> out = new TreeSet<>();
        for (long k : counts.keySet()) {
            if ((int) (k >>> 40) == phase && (int) ((k >>> 36) & 0xF) == twin) {
                out.add((int) k);
            }
        }
        return out;
    }

    /** Phases before GST. */
    public int phases() {
        return phases;
    }
}
