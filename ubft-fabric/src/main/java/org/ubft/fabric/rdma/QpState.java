package org.ubft.fabric.rdma;

/** Where a reliable-connection queue pair stands, as the fabric sees it. */
public enum QpState {
    /** Created; RECVs may be posted; the connection is not established yet. */
    INIT,
    /** Connected (RTS): work requests may be posted. */
    READY,
    /** Failed (a failed operation, a rejected or lost connection): what is queued is flushed, nothing runs. */
    ERROR,
    /** Closed by its owner. */
    CLOSED
}
