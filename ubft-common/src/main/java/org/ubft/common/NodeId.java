package org.ubft.common;

/**
 * Identifiers of the processes of a cluster, packed in one {@code int} so that they travel in
 * flyweights and index arrays cheaply: the role sits in the high 16 bits, the index in the low 16.
 * Replica 2 is {@code NodeId.replica(2)}; its printed form is {@code replica-2}.
 */
public final class NodeId {
    /** The roles a process of the cluster can have. Codes are part of wire formats: never reorder. */
    public enum Role {
        REPLICA(1), MEMNODE(2), CLIENT(3);

        final int code;

        Role(int code) {
            this.code = code;
        }

        static Role ofCode(int code) {
            for (Role r : values()) {
                if (r.code == code) {
                    return r;
                }
            }
            return null;
        }
    }

    /** Largest index a role may use. */
    public static final int MAX_INDEX = 0xFFFF;

    private NodeId() {
    }

    public static int of(Role role, int index) {
        if (index < 0 || index > MAX_INDEX) {
            throw new IllegalArgumentException("node index " + index + " is outside 0.." + MAX_INDEX);
        }
        return (role.code << 16) | index;
    }

    public static int replica(int index) {
        return of(Role.REPLICA, index);
    }

    public static int memnode(int index) {
        return of(Role.MEMNODE, index);
    }

    public static int client(int index) {
        return of(Role.CLIENT, index);
    }

    /** The role of {@code nodeId}, or {@code null} if it encodes none (for example, a value read off the wire). */
    public static Role role(int nodeId) {
        return Role.ofCode(nodeId >>> 16);
    }

    public static int index(int nodeId) {
        return nodeId & MAX_INDEX;
    }

    public static boolean isValid(int nodeId) {
        return role(nodeId) != null;
    }

    public static String toString(int nodeId) {
        Role r = role(nodeId);
        return r == null ? "node#" + Integer.toHexString(nodeId) : r.name().toLowerCase() + "-" + index(nodeId);
    }
}
