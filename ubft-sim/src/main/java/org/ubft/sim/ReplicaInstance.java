package org.ubft.sim;

import org.ubft.common.NodeId;
import org.ubft.consensus.runtime.OwnStreamLog;
import org.ubft.consensus.runtime.ReplicaNode;

/**
 * One process of a replica slot of a {@link SimCluster} and what outlives its crashes: the slot's only process, or
 * one of its two twins ({@link ReplicaBehaviour#instances()}). Each has its own memory (its {@link ReplicaNode}, null
 * while crashed), its own "disk" (the own-stream log, {@link SimCluster.Disk}), incarnations and CTBcast epochs.
 */
final class ReplicaInstance {
    final int slot;
    /** -1 for a slot's only process; 0 (twin A) or 1 (twin B). */
    final int twin;
    ReplicaNode node;
    int incarnation;
    /** Its own-stream log: its "disk", which outlives a crash (ReplicaNode#startAt(long, OwnStreamLog)). */
    OwnStreamLog streamLog;
    /** Its own-stream log as at {@link SimCluster#snapshotDisk}, for a rolled-back restart. */
    OwnStreamLog diskSnapshot;
    long lastEpoch;
    long pausedUntil;
    long view;
    /** The stable checkpoint last reported ({@link SimEvents#checkpoint}). */
    long checkpoint;
    /** Its signatures and executions, and until when they keep it busy (CPU in virtual time). */
    final org.ubft.sim.cpu.ReplicaCpu cpu = new org.ubft.sim.cpu.ReplicaCpu();

    ReplicaInstance(int slot, int twin) {
        this.slot = slot;
        this.twin = twin;
    }

    /** {@code replica-2}, or {@code replica-2A} / {@code replica-2B} for a twin: as traces and probes name it. */
    String name() {
        return NodeId.toString(NodeId.replica(slot)) + (twin < 0 ? "" : twin == 0 ? "A" : "B");
    }
}
