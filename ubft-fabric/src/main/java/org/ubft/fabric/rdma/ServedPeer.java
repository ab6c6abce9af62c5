package org.ubft.fabric.rdma;

import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.common.NodeId;
import org.ubft.fabric.rdma.RdmaCounters.Counter;
import org.ubft.fabric.tcp.Ed25519ConnectionAuthenticator;
import org.ubft.fabric.tcp.PeerAuthentication;

/**
 * This node's side, as an owner, of one peer's queue pair: the handshake in which the peer proves the node id it
 * claimed, then answers to its LOOKUPs with the rkey its permission allows (the read-only or the read-write
 * registration, or a refusal). The one-sided operations themselves never reach this code: the NIC serves them,
 * checking the rkey's registration and the queue pair's access flags. A peer's bad message is refused and
 * counted and closes its queue pair; nothing it sends can grow memory (a fixed number of RECVs, answered from a
 * fixed number of SEND slots). Connection agent thread only.
 */
final class ServedPeer implements WorkCompletionHandler {
    private enum State { AWAIT_HELLO, AWAIT_AUTH, SERVING, CLOSED }

    static final int RECV_SLOTS = 6;
    private static final int SEND_SLOTS = 8;

    private final RegionDirectory regions;
    private final RdmaCounters counters;
    private final QueuePair qp;
    private final ControlChannel control;
    private final int claimedNode;
    private final int access;
    private final long deadline;
    private PeerAuthentication auth;
    private State state;
    private int node = -1;
    private String problem;

    /**
     * @param claimedNode the node the request's private data names, or -1 if the binding cannot read it
     * @param keys     this node's keys, or null to trust the claimed node id (tests only)
     * @param deadline when the handshake must be over (System.nanoTime)
     */
    /** Inside {@code qp.poll}: a close then only marks this peer closed, and the poll's caller tears it down. */
    private boolean polling;
    private boolean tornDown;

    ServedPeer(RegionDirectory regions, RdmaCounters counters, ConnectionRequest request, int claimedNode,
               int access, Ed25519ConnectionAuthenticator keys, RdmaDevice device, long deadline) {
        this.regions = regions;
        this.counters = counters;
        this.claimedNode = claimedNode;
        this.access = access;
        this.deadline = deadline;
        this.control = new ControlChannel(device, RECV_SLOTS, SEND_SLOTS);
        try {
            this.qp = request.createQueuePair(access);
        } catch (RuntimeException e) {
            control.close();
            throw e;
        }
        try {
            control.postAllRecvs(qp);
            if (keys == null) {
                node = claimedNode;
                state = State.SERVING;
            } else {
                auth = new PeerAuthentication(keys, false);
                state = State.AWAIT_HELLO;
            }
            request.accept();
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    /** The node this queue pair is bound to once the peer proved it, or -1. */
    int node() {
        return state == State.SERVING ? node : -1;
    }

    int claimedNode() {
        return claimedNode;
    }

    int access() {
        return access;
    }

    boolean isClosed() {
        return state == State.CLOSED;
    }

    /** Why it closed, if a peer's failure closed it. */
    String problem() {
        return problem;
    }

    int poll(long now) {
        if (state == State.CLOSED) {
            return 0;
        }
        int n;
        polling = true;
        try {
            n = qp.poll(this, 16);
        } finally {
            polling = false;
        }
        if (state == State.CLOSED) {
            tearDown(); // closed by one of the completions just polled: not inside the poll
        } else if (qp.state() == QpState.ERROR || qp.state() == QpState.CLOSED) {
            close();
        } else if (state != State.SERVING && state != State.CLOSED && now - deadline > 0) {
            refuse(Counter.AUTH_FAILURES, NodeId.toString(claimedNode) + " did not finish the handshake in time");
        }
        return n;
    }

    @Override
    public void onWorkCompletion(long workRequestId, WorkCompletionStatus status, int byteLength) {
        if (state == State.CLOSED) {
            return;
        }
        long tag = workRequestId & ControlChannel.TAG_MASK;
        if (tag == ControlChannel.SEND_TAG) {
            control.sendCompleted(workRequestId);
            return;
        }
        if (tag != ControlChannel.RECV_TAG || status != WorkCompletionStatus.SUCCESS) {
            return; // flushed: the queue pair failed, poll closes it
        }
        int slot = ControlChannel.slotOf(workRequestId);
        if (onMessage(control.view(), control.recvOffset(slot), byteLength) && state != State.CLOSED) {
            control.postRecv(qp, slot);
        }
    }

    private boolean onMessage(UnsafeBuffer view, int at, int length) {
        switch (state) {
            case AWAIT_HELLO: {
                String refused = auth.onPeerHello(view, at, length, claimedNode);
                if (refused != null) {
                    return refuse(Counter.AUTH_FAILURES, refused);
                }
                int hello = control.takeSendSlot();
                int signature = control.takeSendSlot();
                auth.putHello(control.view(), control.sendOffset(hello));
                auth.putAuth(control.view(), control.sendOffset(signature));
                control.send(qp, hello, PeerAuthentication.HELLO_LENGTH);
                control.send(qp, signature, PeerAuthentication.AUTH_LENGTH);
                state = State.AWAIT_AUTH;
                return true;
            }
            case AWAIT_AUTH:
                if (!auth.verifyAuth(view, at, length)) {
                    return refuse(Counter.AUTH_FAILURES,
                        "the signature of " + NodeId.toString(auth.peerNode()) + " does not verify");
                }
                node = auth.peerNode(); // the claim, or the hello's id where the binding shows no private data
                auth.destroy();
                auth = null;
                state = State.SERVING;
                return true;
            case SERVING:
                return answerLookup(view, at, length);
            default:
                return false;
        }
    }

    private boolean answerLookup(UnsafeBuffer view, int at, int length) {
        long regionId = ControlMessages.lookupRegion(view, at, length);
        if (regionId == Long.MIN_VALUE) {
            return refuse(Counter.MALFORMED_MESSAGES, "a malformed message from " + NodeId.toString(node));
        }
        int slot = control.takeSendSlot();
        if (slot < 0) {
            return refuse(Counter.MALFORMED_MESSAGES, NodeId.toString(node) + " sent LOOKUPs faster than answered");
        }
        RdmaRegion region = regions.region((int) regionId);
        MemoryRegistration r = region == null ? null : region.registrationFor(node);
        if (r != null && r == region.readWrite() && !Access.allows(access, Access.REMOTE_WRITE)) {
            // registered after this queue pair was accepted read-only: the peer must reconnect to write it
            close();
            return false;
        }
        if (r == null) {
            counters.increment(Counter.LOOKUPS_REFUSED);
        }
        byte right = r == null ? ControlMessages.RIGHT_NONE
            : r == region.readWrite() ? ControlMessages.RIGHT_READ_WRITE : ControlMessages.RIGHT_READ;
        ControlMessages.putGrant(control.view(), control.sendOffset(slot), (int) regionId, right,
            region == null ? 0 : region.length(), r == null ? 0 : r.rkey(), r == null ? 0 : r.address());
        control.send(qp, slot, ControlMessages.GRANT_LENGTH);
        return true;
    }

    private boolean refuse(Counter counter, String reason) {
        counters.increment(counter);
        problem = reason;
        close();
        return false;
    }

    void close() {
        if (state == State.CLOSED) {
            return;
        }
        state = State.CLOSED;
        if (auth != null) {
            auth.destroy();
            auth = null;
        }
        if (!polling) {
            tearDown();
        }
    }

    /** Closes the queue pair and frees the control memory, once; never from inside the queue pair's own poll. */
    private void tearDown() {
        if (!tornDown) {
            tornDown = true;
            if (qp != null) {
                qp.close();
            }
            control.close();
        }
    }
}
