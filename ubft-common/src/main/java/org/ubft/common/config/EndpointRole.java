package org.ubft.common.config;

import org.ubft.common.NodeId;

/**
 * The endpoint keys of a cluster file: {@code replica.<i>}, {@code memnode.<j>} and {@code client.<k>},
 * each {@code host:port}. The index after the dot is the node's {@link NodeId} index.
 */
enum EndpointRole {
    REPLICA("replica", NodeId.Role.REPLICA, "replicas"),
    MEMNODE("memnode", NodeId.Role.MEMNODE, "memory nodes"),
    CLIENT("client", NodeId.Role.CLIENT, "clients");

    final String prefix;
    final NodeId.Role role;
    final String plural;

    EndpointRole(String prefix, NodeId.Role role, String plural) {
        this.prefix = prefix;
        this.role = role;
        this.plural = plural;
    }

    String key(int index) {
        return prefix + "." + index;
    }

    /** The role whose keys start with {@code key}'s part before its first dot, or {@code null}. */
    static EndpointRole ofKey(String key) {
        int dot = key.indexOf('.');
        if (dot < 0) {
            return null;
        }
        String head = key.substring(0, dot);
        for (EndpointRole r : values()) {
            if (r.prefix.equals(head)) {
                return r;
            }
        }
        return null;
    }

    /**
     * The index in {@code key} (which {@link #ofKey} mapped to this role): a decimal number without
     * leading zeros up to {@link NodeId#MAX_INDEX}, or -1 if the key has none.
     */
    int index(String key) {
        String digits = key.substring(prefix.length() + 1);
        if (digits.isEmpty() || digits.length() > 5 || (digits.length() > 1 && digits.charAt(0) == '0')) {
            return -1;
        }
        for (int i = 0; i < digits.length(); i++) {
            if (digits.charAt(i) < '0' || digits.charAt(i) > '9') {
                return -1;
            }
        }
        int index = Integer.parseInt(digits);
        return index <= NodeId.MAX_INDEX ? index : -1;
    }
}
