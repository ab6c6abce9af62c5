package org.ubft.sim.twins;

import org.ubft.common.NodeId;
import org.ubft.consensus.runtime.ReplicaNode;
import org.ubft.sim.ReplicaBehaviour;
import org.ubft.sim.SlotContext;

import java.util.Arrays;

/**
 * A planted bug (test only): a replica that claims to be correct, but every register sub-register it writes on a
 * memory node arrives zeroed, as if the memory nodes acknowledged writes they lost. Readers then take its registers
 * for never written (or for a Byzantine writer's: the default value), so CTBcast's slow path no longer sees what this
 * receiver delivered: the non-equivocation that the registers give (uBFT, Algorithm 1, lines 30-33) is gone for it.
 * Harmless while nobody equivocates; under twins of the leader in a split, each side delivers its twin's PREPARE.
 */
final class ForgetfulRegisters implements ReplicaBehaviour {
    @Override
    public void attach(ReplicaNode node, SlotContext slot) {
        slot.network().writeTap(NodeId.replica(slot.replica()), (owner, region, offset, data) -> {
            if (NodeId.role(owner) == NodeId.Role.MEMNODE) {
                Arrays.fill(data, (byte) 0);
            }
        });
    }

    @Override
    public String toString() {
        return "forgetful-registers (planted, claims correct)";
    }
}
