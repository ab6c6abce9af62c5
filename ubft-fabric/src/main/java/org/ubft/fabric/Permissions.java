package org.ubft.fabric;

import org.ubft.common.NodeId;

import java.util.Arrays;

/**
 * The per-peer permissions of one region: an explicit grant per node, {@link Permission#NONE} for
 * everyone else. Immutable; built with {@link #none()} and {@link #grant(int, Permission)}.
 * The owner of a region always has full access to it locally and never goes through the fabric.
 */
public final class Permissions {
    /** Most peers a region can name; bounds the on-wire and in-file size of a permission table. */
    public static final int MAX_GRANTS = 256;

    private static final Permissions NONE = new Permissions(new int[0], new Permission[0]);

    private final int[] nodes;
    private final Permission[] rights;

    private Permissions(int[] nodes, Permission[] rights) {
        this.nodes = nodes;
        this.rights = rights;
    }

    public static Permissions none() {
        return NONE;
    }

    /** A copy of these permissions in which {@code node} has {@code permission}. */
    public Permissions grant(int node, Permission permission) {
        if (!NodeId.isValid(node)) {
            throw new IllegalArgumentException("not a node id: " + node);
        }
        int i = indexOf(node);
        if (i >= 0) {
            Permission[] r = rights.clone();
            r[i] = permission;
            return new Permissions(nodes, r);
        }
        if (nodes.length == MAX_GRANTS) {
            throw new IllegalArgumentException("a region can name at most " + MAX_GRANTS + " peers");
        }
        int[] n = Arrays.copyOf(nodes, nodes.length + 1);
        Permission[] r = Arrays.copyOf(rights, rights.length + 1);
        n[nodes.length] = node;
        r[rights.length] = permission;
        return new Permissions(n, r);
    }

    /** Grants {@code permission} to every node of {@code nodeIds}. */
    public Permissions grantAll(int[] nodeIds, Permission permission) {
        Permissions p = this;
        for (int node : nodeIds) {
            p = p.grant(node, permission);
        }
        return p;
    }

    public Permission of(int node) {
        int i = indexOf(node);
        return i < 0 ? Permission.NONE : rights[i];
    }

    /** Number of explicit grants (for encoders). */
    public int size() {
        return nodes.length;
    }

    public int nodeAt(int i) {
        return nodes[i];
    }

    public Permission permissionAt(int i) {
        return rights[i];
    }

    private int indexOf(int node) {
        for (int i = 0; i < nodes.length; i++) {
            if (nodes[i] == node) {
                return i;
            }
        }
        return -1;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("{");
        for (int i = 0; i < nodes.length; i++) {
            sb.append(i == 0 ? "" : ", ").append(NodeId.toString(nodes[i])).append('=').append(rights[i]);
        }
        return sb.append('}').toString();
    }
}
