package org.ubft.fabric.rdma;

import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.common.NodeId;
import org.ubft.fabric.Backoff;
import org.ubft.fabric.OperationGuard;
import org.ubft.fabric.Status;
import org.ubft.fabric.rdma.RdmaCounters.Counter;
import org.ubft.fabric.tcp.PeerAuthentication;

import java.net.InetSocketAddress;

/**
 * This node's side, as a poster, of its one reliable-connection queue pair to one owner: connecting (private
 * data naming this node), the handshake (this node proves its id before it gets any rkey), region LOOKUPs, and
 * the one-sided operations, in post order. A WRITE is posted as the WRITE and a READ of its first bytes on the
 * same queue pair: the WRITE completes for the caller when that READ does, which is when its bytes are
 * visible to every reader (paper §6.1, footnote 4). A queue pair that fails ends what it carried UNREACHABLE
 * (ACCESS_DENIED for what the owner's NIC refused), is destroyed, and a new one is connected, after a backoff,
 * when there is work for the owner. User thread only; nothing allocated per operation.
 */
final class PeerConnection implements WorkCompletionHandler {
    private enum State { IDLE, CONNECTING, AUTHENTICATING, READY, BACKOFF }

    static final long DATA_TAG = 0L;
    static final long FENCE_TAG = 1L << 62;
    private static final int RECV_SLOTS = 4;
    private static final int SEND_SLOTS = 4;
    private static final long MIN_BACKOFF_NANOS = 1_000_000L;
    private static final long MAX_BACKOFF_NANOS = 500_000_000L;

    private static final byte LOOKING = 0;
    private static final byte GRANTED = 1;
    private static final byte REFUSED = 2;

    /** What the owner said about one of its regions. */
    private static final class RemoteRegion {
        byte state = LOOKING;
        long address;
        int length;
        int rkey;
        boolean writable;
    }

    private final RdmaFabric fabric;
    private final int node;
    private final OperationTable ops;
    private final ControlChannel control;
    private final Int2ObjectHashMap<RemoteRegion> regions = new Int2ObjectHashMap<>();
    private final int[] order;
    private int head;
    private int count;
    private int dispatched;
    private State state = State.IDLE;
    /** Inside {@code qp.poll}: a reset then only ends the state, and {@link #poll} tears the queue pair down after. */
    private boolean polling;
    private String deferredReset;
    private QueuePair qp;
    private PeerAuthentication auth;
    private boolean peerHelloTaken;
    private long deadline;
    private long retryAt;
    private final Backoff backoff = new Backoff(MIN_BACKOFF_NANOS, MAX_BACKOFF_NANOS);
    private boolean wasReady;
    private boolean lost;

    PeerConnection(RdmaFabric fabric, int node) {
        this.fabric = fabric;
        this.node = node;
        this.ops = fabric.operations();
        this.order = new int[ops.capacity()];
        this.control = new ControlChannel(fabric.device(), RECV_SLOTS, SEND_SLOTS);
    }

    int node() {
        return node;
    }

    boolean connectionLost() {
        return lost;
    }

    /** Queues operation {@code slot} behind this owner's earlier ones and posts what can be posted. */
    void enqueue(int slot) {
        RemoteRegion r = regions.get(ops.regionId[slot]);
        if (r != null && r.state == REFUSED) {
            regions.remove(ops.regionId[slot]); // refusals are not remembered: the region may be registered later
        }
        order[(head + count) % order.length] = slot;
        count++;
        dispatch(fabric.nanoTime());
    }

    /** Polls the queue pair, watches the set-up's deadlines, posts and hands finished operations over in order. */
    int poll(long now) {
        int n = 0;
        if (qp != null) {
            polling = true;
            try {
                n = qp.poll(this, 64);
            } finally {
                polling = false;
            }
            if (deferredReset != null) {
                String reason = deferredReset;
                deferredReset = null;
                reset(reason, false); // asked for by a completion just polled: not inside the poll
            }
            if (qp != null && qp.state() == QpState.ERROR) {
                reset("the queue pair to " + NodeId.toString(node) + " failed: " + qp.errorReason(), true);
            }
        }
        if (qp != null && state == State.CONNECTING && qp.state() == QpState.READY) {
            connected();
        }
        boolean settingUp = state == State.CONNECTING || state == State.AUTHENTICATING
            || (state == State.READY && lookingUp());
        if (settingUp && now - deadline > 0) {
            reset("no answer from " + NodeId.toString(node) + " within the operation timeout while "
                + (state == State.READY ? "looking up a region" : "connecting"), false);
        }
        expireWaiting(now);
        dispatch(now);
        drain();
        return n;
    }

    private boolean lookingUp() {
        if (dispatched == count) {
            return false;
        }
        RemoteRegion r = regions.get(ops.regionId[order[(head + dispatched) % order.length]]);
        return r != null && r.state == LOOKING;
    }

    /**
     * Operations that never got onto a queue pair end UNREACHABLE at their deadline. Deadlines are in queue order (one
     * timeout, added at post time, and operations are queued in post order), so the scan stops at the first waiting
     * operation that has time left: a poll visits the newly expired ones and one more, not the whole queue.
     */
    private void expireWaiting(long now) {
        for (int i = dispatched; i < count; i++) {
            int slot = order[(head + i) % order.length];
            if (ops.state[slot] != OperationTable.WAITING) {
                continue; // expired by an earlier poll, not yet handed over
            }
            if (now - ops.deadline[slot] <= 0) {
                return;
            }
            ops.finish(slot, Status.UNREACHABLE);
        }
    }

    private void dispatch(long now) {
        if ((state == State.IDLE || (state == State.BACKOFF && now - retryAt >= 0)) && dispatched < count) {
            connect(now);
        }
        if (state != State.READY) {
            return;
        }
        while (dispatched < count) {
            int slot = order[(head + dispatched) % order.length];
            if (ops.state[slot] == OperationTable.DONE) { // expired while waiting
                dispatched++;
                continue;
            }
            int regionId = ops.regionId[slot];
            RemoteRegion r = regions.get(regionId);
            if (r == null) {
                lookUp(regionId, now);
                return;
            }
            if (r.state == LOOKING) {
                return;
            }
            if (r.state == REFUSED) {
                ops.finish(slot, Status.ACCESS_DENIED);
            } else if (!OperationGuard.inBounds(ops.offset[slot], ops.length[slot], r.length)
                || (ops.kind[slot] == OperationTable.WRITE && !r.writable)) {
                // refused here rather than by the owner's NIC, which would fail the whole queue pair
                ops.finish(slot, Status.ACCESS_DENIED);
            } else {
                post(slot, r);
            }
            dispatched++;
        }
    }

    private void post(int slot, RemoteRegion r) {
        long remote = r.address + ops.offset[slot];
        int length = ops.length[slot];
        int staging = fabric.staging().offset(ops.stagingEntry[slot]);
        ops.state[slot] = OperationTable.POSTED;
        if (ops.kind[slot] == OperationTable.READ) {
            ops.workRequestsLeft[slot] = 1;
            qp.postRead(DATA_TAG | slot, fabric.stagingRegistration(), staging, length, remote, r.rkey);
        } else {
            ops.workRequestsLeft[slot] = 2;
            qp.postWrite(DATA_TAG | slot, fabric.stagingRegistration(), staging, length, remote, r.rkey);
            // READ-after-WRITE on the same queue pair: the fence that makes the WRITE's completion mean "applied"
            qp.postRead(FENCE_TAG | slot, control.registration(), control.fenceOffset(), Math.min(8, length),
                remote, r.rkey);
        }
    }

    private void lookUp(int regionId, long now) {
        int slot = control.takeSendSlot();
        if (slot < 0) {
            return; // a SEND still completing; the next poll tries again
        }
        ControlMessages.putLookup(control.view(), control.sendOffset(slot), regionId);
        control.send(qp, slot, ControlMessages.LOOKUP_LENGTH);
        regions.put(regionId, new RemoteRegion());
        deadline = now + fabric.options().operationTimeoutNanos();
    }

    private void connect(long now) {
        InetSocketAddress address = fabric.options().peerResolver().apply(node);
        if (address == null) {
            reset(NodeId.toString(node) + " has no address in the cluster file", false);
            return;
        }
        try {
            qp = fabric.device().createQueuePair(address);
            control.postAllRecvs(qp);
            qp.connect(ControlMessages.privateData(fabric.localNode()));
        } catch (RuntimeException e) {
            reset("cannot connect to " + NodeId.toString(node) + " at " + address + ": " + e.getMessage(), false);
            return;
        }
        state = State.CONNECTING;
        deadline = now + fabric.options().operationTimeoutNanos();
        if (qp.state() == QpState.ERROR) {
            reset("cannot connect to " + NodeId.toString(node) + " at " + address + ": " + qp.errorReason(), false);
        }
    }

    private void connected() {
        if (fabric.options().authenticator() == null) {
            ready();
            return;
        }
        int slot = control.takeSendSlot();
        if (slot < 0) {
            reset("no SEND slot for the handshake with " + NodeId.toString(node), false);
            return;
        }
        auth = new PeerAuthentication(fabric.options().authenticator(), true);
        peerHelloTaken = false;
        auth.putHello(control.view(), control.sendOffset(slot));
        control.send(qp, slot, PeerAuthentication.HELLO_LENGTH);
        state = State.AUTHENTICATING;
    }

    private void ready() {
        state = State.READY;
        wasReady = true;
        lost = false;
        backoff.reset();
        fabric.countersInternal().increment(Counter.CONNECTS);
    }

    @Override
    public void onWorkCompletion(long workRequestId, WorkCompletionStatus status, int byteLength) {
        long tag = workRequestId & ControlChannel.TAG_MASK;
        if (tag == ControlChannel.RECV_TAG) {
            if (status == WorkCompletionStatus.SUCCESS) {
                onMessage(ControlChannel.slotOf(workRequestId), byteLength);
            }
            return;
        }
        if (tag == ControlChannel.SEND_TAG) {
            control.sendCompleted(workRequestId);
            return;
        }
        int slot = (int) (workRequestId & 0xFFFF_FFFFL);
        Status s = status == WorkCompletionStatus.SUCCESS ? Status.SUCCESS
            : status == WorkCompletionStatus.REMOTE_ACCESS_ERROR ? Status.ACCESS_DENIED : Status.UNREACHABLE;
        if (ops.state[slot] == OperationTable.POSTED && ops.workRequestCompleted(slot, s)
            && ops.kind[slot] == OperationTable.READ && ops.status[slot] == Status.SUCCESS) {
            ops.destination[slot].putBytes(ops.destinationIndex[slot], fabric.stagingView(),
                fabric.staging().offset(ops.stagingEntry[slot]), ops.length[slot]);
        }
    }

    private void onMessage(int recvSlot, int length) {
        UnsafeBuffer view = control.view();
        int at = control.recvOffset(recvSlot);
        boolean ok;
        if (state == State.AUTHENTICATING) {
            ok = onHandshake(view, at, length);
        } else if (state == State.READY && ControlMessages.isGrant(view, at, length)) {
            ok = onGrant(view, at);
        } else {
            ok = false;
        }
        if (!ok) {
            if (state != State.BACKOFF) {
                fabric.countersInternal().increment(Counter.MALFORMED_MESSAGES);
                reset("an unexpected or malformed message from " + NodeId.toString(node), false);
            }
            return;
        }
        if (qp != null) {
            control.postRecv(qp, recvSlot);
        }
    }

    private boolean onHandshake(UnsafeBuffer view, int at, int length) {
        if (!peerHelloTaken) {
            String refused = auth.onPeerHello(view, at, length, node);
            if (refused != null) {
                authenticationFailed(refused);
            }
            peerHelloTaken = true;
            return true;
        }
        if (!auth.verifyAuth(view, at, length)) {
            authenticationFailed("the signature of " + NodeId.toString(node) + " does not verify");
            return true;
        }
        int slot = control.takeSendSlot();
        if (slot < 0) {
            authenticationFailed("no SEND slot for the handshake");
            return true;
        }
        auth.putAuth(control.view(), control.sendOffset(slot));
        control.send(qp, slot, PeerAuthentication.AUTH_LENGTH);
        auth.destroy();
        auth = null;
        ready();
        return true;
    }

    private void authenticationFailed(String reason) {
        fabric.countersInternal().increment(Counter.AUTH_FAILURES);
        reset("cannot authenticate " + NodeId.toString(node) + ": " + reason, false);
    }

    private boolean onGrant(UnsafeBuffer view, int at) {
        RemoteRegion r = regions.get(ControlMessages.grantRegion(view, at));
        if (r == null || r.state != LOOKING) {
            return false;
        }
        byte right = ControlMessages.grantRight(view, at);
        if (right != ControlMessages.RIGHT_NONE) {
            r.writable = right == ControlMessages.RIGHT_READ_WRITE;
            r.address = ControlMessages.grantAddress(view, at);
            r.length = ControlMessages.grantLength(view, at);
            r.rkey = ControlMessages.grantRkey(view, at);
            r.state = GRANTED;
        } else {
            r.state = REFUSED;
        }
        return true;
    }

    /**
     * Ends the connection: what is on the queue pair completes (flushed: UNREACHABLE), what waits for it ends
     * UNREACHABLE, and a new one is connected after a backoff when there is work.
     */
    private void reset(String reason, boolean queuePairError) {
        if (polling) {
            // inside qp.poll (a message's handler): the queue pair is drained and closed once the poll returns
            state = State.BACKOFF; // from here on, messages still in the completion queue are ignored
            if (deferredReset == null) {
                deferredReset = reason;
            }
            return;
        }
        state = State.BACKOFF; // from here on, messages still in the completion queue are ignored
        fabric.problem(reason);
        if (queuePairError) {
            fabric.countersInternal().increment(Counter.QP_ERRORS);
        }
        QueuePair old = qp;
        qp = null;
        if (old != null) {
            while (old.poll(this, 64) > 0) {
                // flushed completions end what was posted
            }
            old.close();
        }
        for (int i = 0; i < count; i++) {
            int slot = order[(head + i) % order.length];
            if (ops.state[slot] != OperationTable.DONE) {
                ops.finish(slot, Status.UNREACHABLE);
            }
        }
        dispatched = count;
        if (auth != null) {
            auth.destroy();
            auth = null;
        }
        regions.clear();
        control.reset();
        lost = wasReady;
        retryAt = fabric.nanoTime() + backoff.next();
    }

    /** Hands finished operations to the fabric's completion queue, in post order. */
    private void drain() {
        while (count > 0) {
            int slot = order[head];
            if (ops.state[slot] != OperationTable.DONE) {
                return;
            }
            fabric.complete(slot);
            head = (head + 1) % order.length;
            count--;
            if (dispatched > 0) {
                dispatched--;
            }
        }
    }

    void close() {
        if (qp != null) {
            qp.close();
            qp = null;
        }
        control.close();
    }
}
