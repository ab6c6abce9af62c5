package org.ubft.fabric.rdma.disni;

import com.ibm.disni.verbs.IbvCompChannel;
import com.ibm.disni.verbs.IbvContext;
import com.ibm.disni.verbs.IbvMr;
import com.ibm.disni.verbs.IbvPd;
import com.ibm.disni.verbs.RdmaCm;
import com.ibm.disni.verbs.RdmaCmEvent;
import com.ibm.disni.verbs.RdmaCmId;
import com.ibm.disni.verbs.RdmaEventChannel;
import com.ibm.disni.verbs.SVCRegMr;
import org.ubft.common.config.RdmaSettings;
import org.ubft.fabric.FabricException;
import org.ubft.fabric.rdma.Access;
import org.ubft.fabric.rdma.ConnectionRequest;
import org.ubft.fabric.rdma.MemoryRegistration;
import org.ubft.fabric.rdma.QueuePair;
import org.ubft.fabric.rdma.RdmaDevice;
import org.ubft.fabric.rdma.RdmaUnavailableException;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * The verbs boundary over DiSNI ({@code com.ibm.disni.verbs}): the production binding. The node's endpoint
 * address is bound with the RDMA connection manager, which picks the device (and port and GID) that has it; the
 * protection domain, the completion channel and every registration are on that device. Connection-manager events
 * come on two event channels: the passive one (the listening id and the connections it accepted) is read by the
 * fabric's connection agent once per duty cycle ({@link #pollIncomingEvents}), the active one (this node's outgoing
 * connections) by its user thread once per poll ({@link #pollOutgoingEvents}); a queue pair's own poll and state
 * read neither.
 *
 * <p>Limits of DiSNI 2.1, which the fabric is built around: no {@code ibv_modify_qp} (a queue pair's remote access
 * is what the connection manager sets; the access a {@link ConnectionRequest} asks for is not applied, so write
 * rights rest on the read-write registration's rkey going only to its writer); no private data of an incoming
 * request (the claim comes from the handshake); no {@code rdma_reject} (a refused request's id is destroyed).
 */
public final class DisniDevice implements RdmaDevice {
    static final int BACKLOG = 128;
    static final int RESOLVE_TIMEOUT_MS = 2000;

    private final InetSocketAddress address;
    private final RdmaEventChannel passive;
    private final RdmaEventChannel active;
    private final RdmaCmId listenId;
    private final IbvContext context;
    private final IbvPd pd;
    private final IbvCompChannel compChannel;
    private final Map<RdmaCmId, DisniQueuePair> byId = new IdentityHashMap<>();
    private final ArrayDeque<ConnectionRequest> requests = new ArrayDeque<>();
    private boolean closed;

    /**
     * Opens the device that has {@code address}, after checking that DiSNI's native library and such a device are
     * there ({@link DisniRequirements}).
     *
     * @throws RdmaUnavailableException naming what is missing and the fix
     */
    public static DisniDevice open(InetSocketAddress address, RdmaSettings settings) {
        DisniRequirements.check(System::loadLibrary, DisniRequirements.SYSFS, address, settings.device(),
            settings.port(), settings.gidIndex());
        try {
            return new DisniDevice(address, RdmaEventChannel.createEventChannel(),
                RdmaEventChannel.createEventChannel());
        } catch (IOException e) {
            throw new RdmaUnavailableException("cannot open the RDMA device of " + address + ": " + e.getMessage(), e);
        }
    }

    /** Binds {@code address} on {@code passive} and opens its device's protection domain (tests pass mocks). */
    DisniDevice(InetSocketAddress address, RdmaEventChannel passive, RdmaEventChannel active) throws IOException {
        this.address = address;
        this.passive = passive;
        this.active = active;
        this.listenId = passive.createId(RdmaCm.RDMA_PS_TCP);
        listenId.bindAddr(address);
        IbvContext ctx = listenId.getVerbs();
        if (ctx == null) {
            listenId.destroyId();
            throw new RdmaUnavailableException("the address " + address + " is on no RDMA device: the connection "
                + "manager found none for it; use the IP address of the interface the device is bound to "
                + "('rdma link show')" + DisniRequirements.SEE);
        }
        this.context = ctx;
        this.pd = ctx.allocPd();
        this.compChannel = ctx.createCompChannel();
    }

    @Override
    public String name() {
        return "rdma device of " + address.getHostString() + ":" + address.getPort();
    }

    @Override
    public synchronized MemoryRegistration register(ByteBuffer buffer, int access) {
        checkOpen();
        try {
            SVCRegMr call = pd.regMr(buffer, verbsAccess(access));
            IbvMr mr = call.execute().getMr();
            call.free();
            return new MemoryRegistration(buffer, mr.getAddr(), mr.getLength(), mr.getLkey(), mr.getRkey(), access, mr);
        } catch (IOException e) {
            throw new FabricException("cannot register " + buffer.capacity() + " bytes with " + Access.describe(access)
                + " on " + name() + ": " + e.getMessage() + " (is the locked-memory limit, ulimit -l, high enough?)", e);
        }
    }

    /** The ibverbs access flags of {@link Access} flags (DiSNI's IbvMr constants). */
    static int verbsAccess(int access) {
        int flags = 0;
        if ((access & Access.LOCAL_WRITE) != 0) {
            flags |= IbvMr.IBV_ACCESS_LOCAL_WRITE;
        }
        if ((access & Access.REMOTE_WRITE) != 0) {
            flags |= IbvMr.IBV_ACCESS_REMOTE_WRITE;
        }
        if ((access & Access.REMOTE_READ) != 0) {
            flags |= IbvMr.IBV_ACCESS_REMOTE_READ;
        }
        return flags;
    }

    @Override
    public synchronized void deregister(MemoryRegistration registration) {
        try {
            ((IbvMr) registration.handle()).deregMr().execute().free();
        } catch (IOException e) {
            // the memory stays registered until the device closes; nothing else to do
        }
    }

    @Override
    public synchronized void listen(InetSocketAddress ignored) {
        checkOpen();
        try {
            listenId.listen(BACKLOG);
        } catch (IOException e) {
            throw new FabricException("cannot listen at " + address + ": " + e.getMessage()
                + " (is another process using the port?)", e);
        }
    }

    @Override
    public void pollIncomingEvents() {
        pump(passive);
    }

    @Override
    public void pollOutgoingEvents() {
        pump(active);
    }

    @Override
    public synchronized ConnectionRequest nextConnectionRequest() {
        return requests.poll();
    }

    /** Requests not yet taken (bounded by {@link #BACKLOG}; tests). */
    synchronized int pendingRequests() {
        return requests.size();
    }

    @Override
    public synchronized QueuePair createQueuePair(InetSocketAddress remote) {
        checkOpen();
        RdmaCmId id = null;
        try {
            id = active.createId(RdmaCm.RDMA_PS_TCP);
            DisniQueuePair qp = new DisniQueuePair(this, id);
            byId.put(id, qp);
            id.resolveAddr(null, remote, RESOLVE_TIMEOUT_MS);
            return qp;
        } catch (IOException e) {
            if (id != null) {
                forget(id);
                try {
                    id.destroyId();
                } catch (IOException ignored) {
                    // the id is lost either way; the connection error below is what the caller needs
                }
            }
            throw new FabricException("cannot start a connection to " + remote + ": " + e.getMessage(), e);
        }
    }

    /** Handles the connection-manager events waiting on {@code channel} (non-blocking). */
    void pump(RdmaEventChannel channel) {
        for (int i = 0; i < 16; i++) {
            RdmaCmEvent event;
            try {
                event = channel.getCmEvent(0);
            } catch (IOException e) {
                return;
            }
            if (event == null) {
                return;
            }
            try {
                onEvent(event);
            } finally {
                try {
                    event.ackEvent();
                } catch (IOException e) {
                    // acknowledged or not, the event was handled
                }
            }
        }
    }

    private synchronized void onEvent(RdmaCmEvent event) {
        RdmaCmEvent.EventType type = RdmaCmEvent.EventType.values()[event.getEvent()];
        RdmaCmId id = event.getConnIdPriv();
        if (type == RdmaCmEvent.EventType.RDMA_CM_EVENT_CONNECT_REQUEST) {
            if (requests.size() >= BACKLOG) { // a flood of requests: refuse beyond the backlog, keep memory bounded
                new DisniConnectionRequest(this, id).reject();
            } else {
                requests.add(new DisniConnectionRequest(this, id));
            }
            return;
        }
        DisniQueuePair qp = byId.get(id);
        if (qp != null) {
            qp.onEvent(type);
        }
    }

    /** Both threads call it (the agent for accepted queue pairs, the user thread for its own): under the lock. */
    synchronized void track(RdmaCmId id, DisniQueuePair qp) {
        byId.put(id, qp);
    }

    /** Both threads call it (a queue pair's close): under the lock {@link #onEvent} reads the map with. */
    synchronized void forget(RdmaCmId id) {
        byId.remove(id);
    }

    IbvContext context() {
        return context;
    }

    IbvPd pd() {
        return pd;
    }

    IbvCompChannel compChannel() {
        return compChannel;
    }

    private void checkOpen() {
        if (closed) {
            throw new FabricException(name() + " is closed");
        }
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (DisniQueuePair qp : byId.values().toArray(new DisniQueuePair[0])) {
            qp.close();
        }
        try {
            listenId.destroyId();
            compChannel.destroyCompChannel();
            pd.deallocPd();
            passive.destroyEventChannel();
            active.destroyEventChannel();
        } catch (Exception e) {
            // closing: what could not be freed goes with the process
        }
    }
}
