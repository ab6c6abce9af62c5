package org.ubft.fabric.rdma.emulation;

import org.agrona.BufferUtil;
import org.ubft.fabric.FabricException;
import org.ubft.fabric.rdma.ConnectionRequest;
import org.ubft.fabric.rdma.MemoryRegistration;
import org.ubft.fabric.rdma.QueuePair;
import org.ubft.fabric.rdma.RdmaDevice;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** One emulated RDMA device (and its one protection domain) on an {@link EmulatedRdmaNetwork}. */
public final class EmulatedDevice implements RdmaDevice {
    private final EmulatedRdmaNetwork network;
    private final String name;
    private final Map<Integer, MemoryRegistration> byRkey = new HashMap<>();
    private final Map<Integer, MemoryRegistration> byLkey = new HashMap<>();
    private final ArrayDeque<EmulatedConnectionRequest> requests = new ArrayDeque<>();
    private final List<EmulatedQueuePair> queuePairs = new ArrayList<>();
    private InetSocketAddress listening;
    private final java.util.Random keys = new java.security.SecureRandom();
    private boolean crashed;
    private boolean closed;

    EmulatedDevice(EmulatedRdmaNetwork network, String name) {
        this.network = network;
        this.name = name;
    }

    @Override
    public String name() {
        return "emulated " + name;
    }

    @Override
    public MemoryRegistration register(ByteBuffer buffer, int access) {
        if (!buffer.isDirect()) {
            throw new FabricException("only direct memory can be registered");
        }
        synchronized (network) {
            checkOpen();
            // keys are random: a peer learns one only from the owner
            int key;
            do {
                key = keys.nextInt();
            } while (key == 0 || byRkey.containsKey(key));
            MemoryRegistration r = new MemoryRegistration(buffer, BufferUtil.address(buffer), buffer.capacity(),
                key, key, access, this);
            byRkey.put(key, r);
            byLkey.put(key, r);
            return r;
        }
    }

    @Override
    public void deregister(MemoryRegistration registration) {
        synchronized (network) {
            byRkey.remove(registration.rkey());
            byLkey.remove(registration.lkey());
        }
    }

    @Override
    public void listen(InetSocketAddress address) {
        synchronized (network) {
            checkOpen();
            listening = address;
            network.listen(address, this);
        }
    }

    /** The emulated connection manager acts at once (under the network's lock): no events wait to be handled. */
    @Override
    public void pollIncomingEvents() {
    }

    /** The emulated connection manager acts at once (under the network's lock): no events wait to be handled. */
    @Override
    public void pollOutgoingEvents() {
    }

    @Override
    public ConnectionRequest nextConnectionRequest() {
        synchronized (network) {
            network.progress();
            return requests.poll();
        }
    }

    @Override
    public QueuePair createQueuePair(InetSocketAddress remote) {
        synchronized (network) {
            checkOpen();
            EmulatedQueuePair qp = new EmulatedQueuePair(network, this, remote, 0);
            queuePairs.add(qp);
            return qp;
        }
    }

    @Override
    public void close() {
        synchronized (network) {
            if (closed) {
                return;
            }
            closed = true;
            for (EmulatedQueuePair qp : new ArrayList<>(queuePairs)) {
                qp.close();
            }
            network.forget(this);
            byRkey.clear();
            byLkey.clear();
        }
    }

    /** The address it listens at, or null. */
    public InetSocketAddress address() {
        return listening;
    }

    void crash() {
        crashed = true;
        for (EmulatedQueuePair qp : queuePairs) {
            qp.die();
        }
        requests.clear();
    }

    boolean isCrashed() {
        return crashed || closed;
    }

    MemoryRegistration byRkey(int rkey) {
        return byRkey.get(rkey);
    }

    MemoryRegistration byLkey(int lkey) {
        return byLkey.get(lkey);
    }

    /** A peer's connection request arrives (false if this device does not accept any). */
    boolean offer(EmulatedQueuePair from, byte[] privateData) {
        if (isCrashed() || listening == null) {
            return false;
        }
        requests.add(new EmulatedConnectionRequest(network, this, from, privateData));
        return true;
    }

    EmulatedQueuePair newPassiveQueuePair(EmulatedQueuePair active, int access) {
        EmulatedQueuePair qp = new EmulatedQueuePair(network, this, active.localDeviceAddress(), access);
        queuePairs.add(qp);
        return qp;
    }

    void removed(EmulatedQueuePair qp) {
        queuePairs.remove(qp);
    }

    private void checkOpen() {
        if (closed || crashed) {
            throw new FabricException(name() + " is closed");
        }
    }
}
