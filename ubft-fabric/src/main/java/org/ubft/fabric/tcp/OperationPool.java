package org.ubft.fabric.tcp;

/**
 * Free operation descriptors, used by the fabric's user thread only. Descriptors are made on demand;
 * since the fabric admits at most {@code maxOutstanding} operations, no more than that many ever
 * exist.
 */
final class OperationPool {
    private final TcpOperation[] free;
    private int size;

    OperationPool(int maxOutstanding) {
        free = new TcpOperation[maxOutstanding];
    }

    TcpOperation acquire() {
        return size == 0 ? new TcpOperation() : free[--size];
    }

    void release(TcpOperation op) {
        op.clear();
        if (size < free.length) {
            free[size++] = op;
        }
    }
}
