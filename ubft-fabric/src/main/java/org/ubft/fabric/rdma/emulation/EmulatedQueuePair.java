package org.ubft.fabric.rdma.emulation;

import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.fabric.rdma.Access;
import org.ubft.fabric.rdma.MemoryRegistration;
import org.ubft.fabric.rdma.QpState;
import org.ubft.fabric.rdma.QueuePair;
import org.ubft.fabric.rdma.WorkCompletionHandler;
import org.ubft.fabric.rdma.WorkCompletionStatus;

import java.net.InetSocketAddress;
import java.util.ArrayDeque;

/** A reliable-connection queue pair of an {@link EmulatedDevice}; see {@link EmulatedRdmaNetwork} for semantics. */
final class EmulatedQueuePair implements QueuePair {
    private static final int WRITE = 0;
    private static final int READ = 1;
    private static final int SEND = 2;
    private static final int RECV = 3;

    private static final class WorkRequest {
        final int kind;
        final long id;
        final MemoryRegistration local;
        final int localOffset;
        final int length;
        final long remoteAddress;
        final int rkey;
        int done;
        MemoryRegistration target;

        WorkRequest(int kind, long id, MemoryRegistration local, int localOffset, int length, long remoteAddress,
                    int rkey) {
            this.kind = kind;
            this.id = id;
            this.local = local;
            this.localOffset = localOffset;
            this.length = length;
            this.remoteAddress = remoteAddress;
            this.rkey = rkey;
        }
    }

    private record Completion(long id, WorkCompletionStatus status, int byteLength) {
    }

    private record Deferred(UnsafeBuffer target, int offset, byte[] bytes, long round) {
    }

    private final EmulatedRdmaNetwork network;
    private final EmulatedDevice device;
    private final InetSocketAddress remote;
    private final int access;
    private final ArrayDeque<WorkRequest> sends = new ArrayDeque<>();
    private final ArrayDeque<WorkRequest> recvs = new ArrayDeque<>();
    private final ArrayDeque<Completion> completions = new ArrayDeque<>();
    private final ArrayDeque<Deferred> deferred = new ArrayDeque<>();
    private EmulatedQueuePair peer;
    private QpState state = QpState.INIT;
    private String errorReason;

    EmulatedQueuePair(EmulatedRdmaNetwork network, EmulatedDevice device, InetSocketAddress remote, int access) {
        this.network = network;
        this.device = device;
        this.remote = remote;
        this.access = access;
    }

    @Override
    public void postWrite(long id, MemoryRegistration local, int localOffset, int length, long remoteAddress,
                          int rkey) {
        post(new WorkRequest(WRITE, id, local, localOffset, length, remoteAddress, rkey));
    }

    @Override
    public void postRead(long id, MemoryRegistration local, int localOffset, int length, long remoteAddress,
                         int rkey) {
        post(new WorkRequest(READ, id, local, localOffset, length, remoteAddress, rkey));
    }

    @Override
    public void postSend(long id, MemoryRegistration local, int localOffset, int length) {
        post(new WorkRequest(SEND, id, local, localOffset, length, 0, 0));
    }

    @Override
    public void postRecv(long id, MemoryRegistration local, int localOffset, int length) {
        synchronized (network) {
            if (state == QpState.INIT || state == QpState.READY) {
                recvs.add(new WorkRequest(RECV, id, local, localOffset, length, 0, 0));
            } else {
                completions.add(new Completion(id, WorkCompletionStatus.FLUSHED, 0));
            }
        }
    }

    private void post(WorkRequest wr) {
        synchronized (network) {
            if (state == QpState.READY) {
                sends.add(wr);
                network.activate(this);
            } else if (state != QpState.CLOSED) {
                completions.add(new Completion(wr.id, WorkCompletionStatus.FLUSHED, 0));
            }
        }
    }

    /** Inside {@link #poll} (the owner's thread): what a real binding cannot do then is refused. */
    private boolean inPoll;

    @Override
    public int poll(WorkCompletionHandler handler, int max) {
        synchronized (network) {
            network.progress();
        }
        int n = 0;
        if (inPoll) {
            // a real binding polls one completion queue into one array: a poll from inside a completion's handler
            // overwrites the outer poll's completions (DiSNI), so the fabric must never do it
            throw new IllegalStateException("poll of a queue pair from inside its own poll");
        }
        inPoll = true;
        try {
            while (n < max) {
                Completion c;
                synchronized (network) {
                    c = completions.poll();
                }
                if (c == null) {
                    break;
                }
                handler.onWorkCompletion(c.id(), c.status(), c.byteLength());
                n++;
            }
        } finally {
            inPoll = false;
        }
        return n;
    }

    @Override
    public void connect(byte[] privateData) {
        synchronized (network) {
            if (state != QpState.INIT) {
                throw new IllegalStateException("connect on a queue pair in state " + state);
            }
            EmulatedDevice target = network.deviceAt(remote);
            if (target == null || !target.offer(this, privateData.clone())) {
                fail("no RDMA connection manager listens at " + remote + " (rejected/unreachable)");
            }
        }
    }

    @Override
    public QpState state() {
        synchronized (network) {
            return state;
        }
    }

    @Override
    public String errorReason() {
        synchronized (network) {
            return errorReason;
        }
    }

    @Override
    public void close() {
        if (inPoll) {
            // a real binding frees the completion queue and the poll's call objects the outer poll still uses
            throw new IllegalStateException("close of a queue pair from inside its own poll");
        }
        synchronized (network) {
            if (state == QpState.CLOSED) {
                return;
            }
            state = QpState.CLOSED;
            sends.clear();
            recvs.clear();
            landDeferredOlderThan(Long.MAX_VALUE);
            device.removed(this);
            if (peer != null) {
                peer.fail("the peer disconnected");
            }
        }
    }

    // ---- network side (network lock held) ----------------------------------------------------------------

    InetSocketAddress localDeviceAddress() {
        return device.address();
    }

    boolean connectTo(EmulatedQueuePair passive) {
        if (state != QpState.INIT || device.isCrashed()) {
            return false;
        }
        peer = passive;
        passive.peer = this;
        state = QpState.READY;
        passive.state = QpState.READY;
        return true;
    }

    /** Enters the error state, flushing what is queued. */
    void fail(String reason) {
        if (state == QpState.ERROR || state == QpState.CLOSED) {
            return;
        }
        state = QpState.ERROR;
        errorReason = reason;
        for (WorkRequest wr : sends) {
            completions.add(new Completion(wr.id, WorkCompletionStatus.FLUSHED, 0));
        }
        for (WorkRequest wr : recvs) {
            completions.add(new Completion(wr.id, WorkCompletionStatus.FLUSHED, 0));
        }
        sends.clear();
        recvs.clear();
    }

    /** The device crashed: this queue pair vanishes without a word to anyone. */
    void die() {
        state = QpState.CLOSED;
        sends.clear();
        recvs.clear();
        deferred.clear();
    }

    boolean hasWork() {
        return state == QpState.READY && !sends.isEmpty();
    }

    boolean isGone() {
        return state == QpState.CLOSED && deferred.isEmpty();
    }

    void landDeferredOlderThan(long round) {
        while (!deferred.isEmpty() && deferred.peek().round() <= round) {
            Deferred d = deferred.poll();
            copyWords(new UnsafeBuffer(d.bytes()), 0, d.target(), d.offset(), d.bytes().length);
        }
    }

    /** Runs one chunk of the first queued work request. */
    void step() {
        WorkRequest wr = sends.peek();
        if (wr.done == 0) {
            landDeferredOlderThan(Long.MAX_VALUE); // a later request of this queue pair is the fence
            if (!admit(wr)) {
                return;
            }
        }
        if (wr.kind == SEND) {
            deliverSend(wr);
            return;
        }
        int n = Math.min(network.chunkBytes(), wr.length - wr.done);
        UnsafeBuffer local = new UnsafeBuffer(wr.local.buffer());
        UnsafeBuffer remoteMemory = new UnsafeBuffer(wr.target.buffer());
        int remoteOffset = (int) (wr.remoteAddress - wr.target.address()) + wr.done;
        if (wr.kind == READ) {
            copyWords(remoteMemory, remoteOffset, local, wr.localOffset + wr.done, n);
        } else if (wr.done + n == wr.length) {
            byte[] last = new byte[n];
            local.getBytes(wr.localOffset + wr.done, last);
            deferred.add(new Deferred(remoteMemory, remoteOffset, last, network.round()));
        } else {
            copyWords(local, wr.localOffset + wr.done, remoteMemory, remoteOffset, n);
        }
        wr.done += n;
        if (wr.done == wr.length) {
            sends.poll();
            completions.add(new Completion(wr.id, WorkCompletionStatus.SUCCESS, 0));
        }
    }

    private boolean admit(WorkRequest wr) {
        if (peer == null || peer.state != QpState.READY || peer.device.isCrashed()) {
            return failHead(wr, WorkCompletionStatus.RETRY_EXCEEDED, "the peer does not answer (retry exceeded)");
        }
        MemoryRegistration local = device.byLkey(wr.local.lkey());
        if (local == null || local != wr.local || wr.localOffset < 0 || wr.length < 0
            || (long) wr.localOffset + wr.length > local.length()
            || (wr.kind != WRITE && wr.kind != SEND && !Access.allows(local.access(), Access.LOCAL_WRITE))) {
            return failHead(wr, WorkCompletionStatus.LOCAL_ERROR, "local protection error");
        }
        if (wr.kind == SEND) {
            return true;
        }
        int needed = wr.kind == READ ? Access.REMOTE_READ : Access.REMOTE_WRITE;
        MemoryRegistration target = peer.device.byRkey(wr.rkey);
        boolean ok = target != null && Access.allows(target.access(), needed) && Access.allows(peer.access, needed)
            && wr.remoteAddress >= target.address()
            && wr.remoteAddress + wr.length <= target.address() + target.length();
        if (!ok) {
            failHead(wr, WorkCompletionStatus.REMOTE_ACCESS_ERROR, "remote access error");
            peer.fail("a peer's remote access was refused");
            return false;
        }
        wr.target = target;
        return true;
    }

    private void deliverSend(WorkRequest wr) {
        WorkRequest recv = peer.recvs.poll();
        if (recv == null) {
            failHead(wr, WorkCompletionStatus.RETRY_EXCEEDED, "no RECV posted at the peer (RNR retry exceeded)");
            return;
        }
        if (recv.length < wr.length) {
            failHead(wr, WorkCompletionStatus.REMOTE_ACCESS_ERROR, "the peer's RECV is too small");
            peer.completions.add(new Completion(recv.id, WorkCompletionStatus.LOCAL_ERROR, 0));
            peer.fail("a SEND larger than the posted RECV");
            return;
        }
        copyWords(new UnsafeBuffer(wr.local.buffer()), wr.localOffset, new UnsafeBuffer(recv.local.buffer()),
            recv.localOffset, wr.length);
        sends.poll();
        completions.add(new Completion(wr.id, WorkCompletionStatus.SUCCESS, 0));
        peer.completions.add(new Completion(recv.id, WorkCompletionStatus.SUCCESS, wr.length));
    }

    private boolean failHead(WorkRequest wr, WorkCompletionStatus status, String reason) {
        sends.poll();
        completions.add(new Completion(wr.id, status, 0));
        fail(reason);
        return false;
    }

    /** Copies with 8-byte atomicity where the destination is 8-byte aligned. */
    static void copyWords(UnsafeBuffer src, int srcOffset, UnsafeBuffer dst, int dstOffset, int length) {
        int i = 0;
        while (i < length) {
            if (((dst.addressOffset() + dstOffset + i) & 7) == 0 && length - i >= 8) {
                dst.putLongVolatile(dstOffset + i, src.getLong(srcOffset + i));
                i += 8;
            } else {
                dst.putByte(dstOffset + i, src.getByte(srcOffset + i));
                i++;
            }
        }
    }
}
