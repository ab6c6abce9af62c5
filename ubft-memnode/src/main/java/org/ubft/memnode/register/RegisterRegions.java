package org.ubft.memnode.register;

import org.ubft.common.NodeId;
import org.ubft.fabric.Fabric;
import org.ubft.fabric.LocalRegion;
import org.ubft.fabric.Permission;
import org.ubft.fabric.Permissions;

/**
 * What a memory node does at start (docs/design.md §5): expose one zeroed register region per writer replica,
 * writable by that replica only and readable by every other replica (SWMR through permissions, paper §6.1).
 */
public final class RegisterRegions {
    private RegisterRegions() {
    }

    /**
     * Registers on {@code memnodeFabric} the register region of every replica of {@code replicaIds}
     * (node ids, {@link NodeId#replica(int)}), in that order.
     *
     * @return the regions, index-aligned with {@code replicaIds}
     * @throws IllegalArgumentException if an id is not a replica's or appears twice
     * @throws org.ubft.fabric.FabricException if the fabric refuses a registration
     */
    public static LocalRegion[] registerAll(Fabric memnodeFabric, RegisterLayout layout, int[] replicaIds) {
        for (int i = 0; i < replicaIds.length; i++) {
            if (NodeId.role(replicaIds[i]) != NodeId.Role.REPLICA) {
                throw new IllegalArgumentException(NodeId.toString(replicaIds[i]) + " is not a replica");
            }
            for (int j = 0; j < i; j++) {
                if (replicaIds[j] == replicaIds[i]) {
                    throw new IllegalArgumentException(NodeId.toString(replicaIds[i]) + " is listed twice");
                }
            }
        }
        LocalRegion[] regions = new LocalRegion[replicaIds.length];
        for (int i = 0; i < replicaIds.length; i++) {
            int writer = replicaIds[i];
            Permissions permissions = Permissions.none().grantAll(replicaIds, Permission.READ)
                .grant(writer, Permission.READ_WRITE);
            regions[i] = memnodeFabric.register(RegisterLayout.regionId(NodeId.index(writer)),
                layout.regionBytes(), permissions);
        }
        return regions;
    }
}
