package org.ubft.fabric.tcp;

/**
 * An intrusive FIFO of operations linked through {@link TcpOperation#next}: no allocation per
 * operation, bounded by the number of operations in existence. Network thread only.
 */
final class OperationQueue {
    private TcpOperation head;
    private TcpOperation tail;

    void add(TcpOperation op) {
        op.next = null;
        if (tail == null) {
            head = op;
        } else {
            tail.next = op;
        }
        tail = op;
    }

    TcpOperation peek() {
        return head;
    }

    TcpOperation poll() {
        TcpOperation op = head;
        if (op != null) {
            head = op.next;
            if (head == null) {
                tail = null;
            }
            op.next = null;
        }
        return op;
    }

    boolean isEmpty() {
        return head == null;
    }
}
