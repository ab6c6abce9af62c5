package org.ubft.fabric.rdma.emulation;

import org.ubft.fabric.rdma.ConnectionRequest;
import org.ubft.fabric.rdma.QueuePair;

/** A connection request on an emulated device. */
final class EmulatedConnectionRequest implements ConnectionRequest {
    private final EmulatedRdmaNetwork network;
    private final EmulatedDevice device;
    private final EmulatedQueuePair from;
    private final byte[] privateData;
    private EmulatedQueuePair created;

    EmulatedConnectionRequest(EmulatedRdmaNetwork network, EmulatedDevice device, EmulatedQueuePair from,
                              byte[] privateData) {
        this.network = network;
        this.device = device;
        this.from = from;
        this.privateData = privateData;
    }

    @Override
    public byte[] privateData() {
        return privateData.clone();
    }

    @Override
    public QueuePair createQueuePair(int access) {
        synchronized (network) {
            created = device.newPassiveQueuePair(from, access);
            return created;
        }
    }

    @Override
    public void accept() {
        synchronized (network) {
            if (created == null) {
                throw new IllegalStateException("createQueuePair before accept");
            }
            if (!from.connectTo(created)) {
                created.fail("the peer went away before the connection was established");
            }
        }
    }

    @Override
    public void reject() {
        synchronized (network) {
            from.fail("connection rejected by the peer");
            if (created != null) {
                created.close();
            }
        }
    }
}
