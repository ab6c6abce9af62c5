package org.ubft.fabric.rdma.disni;

import com.ibm.disni.verbs.RdmaCmId;
import org.ubft.fabric.FabricException;
import org.ubft.fabric.rdma.ConnectionRequest;
import org.ubft.fabric.rdma.QueuePair;

import java.io.IOException;

/** A CONNECT_REQUEST event of DiSNI's connection manager. */
final class DisniConnectionRequest implements ConnectionRequest {
    private final DisniDevice device;
    private final RdmaCmId id;
    private DisniQueuePair qp;

    DisniConnectionRequest(DisniDevice device, RdmaCmId id) {
        this.device = device;
        this.id = id;
    }

    /** DiSNI 2.1 does not pass a request's private data up: the claim comes from the handshake. */
    @Override
    public byte[] privateData() {
        return null;
    }

    /** The access is what the connection manager gives (see {@link DisniDevice}); {@code access} is not applied. */
    @Override
    public QueuePair createQueuePair(int access) {
        qp = new DisniQueuePair(device, id);
        device.track(id, qp);
        qp.createVerbsQueuePair();
        return qp;
    }

    @Override
    public void accept() {
        try {
            id.accept(DisniQueuePair.connectionParameters(null));
        } catch (IOException e) {
            qp.fail("accept failed: " + e.getMessage());
            throw new FabricException("cannot accept a connection: " + e.getMessage(), e);
        }
    }

    @Override
    public void reject() {
        if (qp != null) {
            qp.close();
        } else {
            try {
                id.destroyId(); // DiSNI 2.1 has no rdma_reject: the peer sees the connection fail
            } catch (IOException e) {
                // gone either way
            }
        }
    }
}
