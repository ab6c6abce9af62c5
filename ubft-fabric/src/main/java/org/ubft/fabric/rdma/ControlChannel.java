package org.ubft.fabric.rdma;

import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The two-sided side of one queue pair: a registered buffer of RECV slots (all posted while the queue pair lives)
 * and SEND slots (taken by a message, freed by its completion), plus 8 scratch bytes that fence READs land in.
 * Work-request ids of control traffic carry {@link #SEND_TAG} or {@link #RECV_TAG} and the slot.
 */
final class ControlChannel {
    static final long TAG_MASK = 3L << 62;
    static final long SEND_TAG = 2L << 62;
    static final long RECV_TAG = 3L << 62;

    private final RdmaDevice device;
    private final MemoryRegistration registration;
    private final UnsafeBuffer view;
    private final int recvSlots;
    private final int sendSlots;
    private final boolean[] sendBusy;

    ControlChannel(RdmaDevice device, int recvSlots, int sendSlots) {
        this.device = device;
        this.recvSlots = recvSlots;
        this.sendSlots = sendSlots;
        this.sendBusy = new boolean[sendSlots];
        int bytes = (recvSlots + sendSlots) * ControlMessages.SLOT_BYTES + 8;
        this.registration = device.register(BufferUtil.allocateDirectAligned(align(bytes), 64), Access.LOCAL_WRITE);
        this.view = new UnsafeBuffer(registration.buffer());
    }

    private static int align(int bytes) {
        return (bytes + 63) & ~63;
    }

    MemoryRegistration registration() {
        return registration;
    }

    UnsafeBuffer view() {
        return view;
    }

    /** Offset of the scratch bytes fence READs land in. */
    int fenceOffset() {
        return (recvSlots + sendSlots) * ControlMessages.SLOT_BYTES;
    }

    void postAllRecvs(QueuePair qp) {
        for (int i = 0; i < recvSlots; i++) {
            postRecv(qp, i);
        }
    }

    void postRecv(QueuePair qp, int slot) {
        qp.postRecv(RECV_TAG | slot, registration, recvOffset(slot), ControlMessages.SLOT_BYTES);
    }

    int recvOffset(int slot) {
        return slot * ControlMessages.SLOT_BYTES;
    }

    /** A free SEND slot's offset in {@link #view()}, taken; -1 if none is free. */
    int takeSendSlot() {
        for (int i = 0; i < sendSlots; i++) {
            if (!sendBusy[i]) {
                sendBusy[i] = true;
                return i;
            }
        }
        return -1;
    }

    int sendOffset(int slot) {
        return (recvSlots + slot) * ControlMessages.SLOT_BYTES;
    }

    void send(QueuePair qp, int slot, int length) {
        qp.postSend(SEND_TAG | slot, registration, sendOffset(slot), length);
    }

    /** A SEND completed (any status): its slot is free again. */
    void sendCompleted(long workRequestId) {
        sendBusy[(int) (workRequestId & 0xFFFF)] = false;
    }

    /** Frees every SEND slot (the queue pair is gone). */
    void reset() {
        java.util.Arrays.fill(sendBusy, false);
    }

    static int slotOf(long workRequestId) {
        return (int) (workRequestId & 0xFFFF);
    }

    void close() {
        device.deregister(registration);
    }
}
