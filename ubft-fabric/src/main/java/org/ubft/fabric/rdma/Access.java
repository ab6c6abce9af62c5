package org.ubft.fabric.rdma;

/**
 * Access flags of a memory registration and of a queue pair, with the values of {@code ibv_access_flags}
 * (and DiSNI's {@code IbvMr.IBV_ACCESS_*}).
 */
public final class Access {
    /** The local NIC may write the memory (the destination of a READ, the buffer of a RECV). */
    public static final int LOCAL_WRITE = 1;
    /** Peers may WRITE it. */
    public static final int REMOTE_WRITE = 1 << 1;
    /** Peers may READ it. */
    public static final int REMOTE_READ = 1 << 2;

    private Access() {
    }

    public static boolean allows(int flags, int needed) {
        return (flags & needed) == needed;
    }

    /** "LOCAL_WRITE|REMOTE_READ" and the like, for messages. */
    public static String describe(int flags) {
        StringBuilder sb = new StringBuilder();
        if ((flags & LOCAL_WRITE) != 0) {
            sb.append("LOCAL_WRITE");
        }
        if ((flags & REMOTE_WRITE) != 0) {
            sb.append(sb.length() > 0 ? "|" : "").append("REMOTE_WRITE");
        }
        if ((flags & REMOTE_READ) != 0) {
            sb.append(sb.length() > 0 ? "|" : "").append("REMOTE_READ");
        }
        return sb.length() == 0 ? "NONE" : sb.toString();
    }
}
