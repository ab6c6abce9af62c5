package org.ubft.fabric.rdma.disni;

import com.ibm.disni.verbs.IbvCQ;
import com.ibm.disni.verbs.IbvQP;
import com.ibm.disni.verbs.IbvQPInitAttr;
import com.ibm.disni.verbs.IbvRecvWR;
import com.ibm.disni.verbs.IbvSendWR;
import com.ibm.disni.verbs.IbvSge;
import com.ibm.disni.verbs.IbvWC;
import com.ibm.disni.verbs.RdmaCmEvent.EventType;
import com.ibm.disni.verbs.RdmaCmId;
import com.ibm.disni.verbs.RdmaConnParam;
import com.ibm.disni.verbs.SVCPollCq;
import com.ibm.disni.verbs.SVCPostSend;
import org.agrona.BufferUtil;
import org.ubft.fabric.FabricException;
import org.ubft.fabric.rdma.MemoryRegistration;
import org.ubft.fabric.rdma.QpState;
import org.ubft.fabric.rdma.QueuePair;
import org.ubft.fabric.rdma.RdmaDevice;
import org.ubft.fabric.rdma.WorkCompletionHandler;
import org.ubft.fabric.rdma.WorkCompletionStatus;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.LinkedList;
import java.util.List;

/**
 * A reliable-connection queue pair over DiSNI, with a completion queue of its own. Active side: the id resolves
 * the peer's address, then its route; then the verbs queue pair is created, the RECVs posted meanwhile go onto
 * it, and the connect (with the private data) is sent; ESTABLISHED makes it READY. These events reach it through
 * {@link DisniDevice}'s once-per-poll event handling, never through its own poll or state. A work request that cannot be
 * posted (the queue pair is not READY, or ibv_post_send fails) completes FLUSHED from here, as the contract says.
 * One-sided posts and SENDs reuse one stateful DiSNI call per kind, modified in place (no allocation per post);
 * RECVs (set-up only) make a call each; the completion poll is one stateful DiSNI call, reused.
 */
final class DisniQueuePair implements QueuePair {
    /** Send and receive work requests a queue pair holds; the fabric bounds its own. */
    static final int DEPTH = 1024;
    private static final int POLL_BATCH = 16;
    private static final int IBV_WC_RECV = 1 << 7;

    private record Synthetic(long id, WorkCompletionStatus status) {
    }

    private record PendingRecv(long id, MemoryRegistration local, int offset, int length) {
    }

    private final DisniDevice device;
    private final RdmaCmId id;
    private final IbvSge sge = new IbvSge();
    private final IbvSendWR sendWr = new IbvSendWR();
    private final List<IbvSendWR> sendList = new java.util.ArrayList<>(1);
    private final IbvSge recvSge = new IbvSge();
    private final IbvRecvWR recvWr = new IbvRecvWR();
    private final List<IbvRecvWR> recvList = new java.util.ArrayList<>(1);
    private final IbvWC[] completions = new IbvWC[POLL_BATCH];
    private final ArrayDeque<Synthetic> synthetic = new ArrayDeque<>();
    private final ArrayDeque<PendingRecv> pendingRecvs = new ArrayDeque<>();
    private IbvCQ cq;
    private IbvQP qp;
    private SVCPollCq pollCall;
    /** One stateful post call per kind (WRITE, READ, SEND), made on first use and modified after: no allocation. */
    private final SVCPostSend[] sendCalls = new SVCPostSend[3];
    private ByteBuffer privateData;
    private volatile QpState state = QpState.INIT;
    private volatile String errorReason;

    DisniQueuePair(DisniDevice device, RdmaCmId id) {
        this.device = device;
        this.id = id;
        LinkedList<IbvSge> sges = new LinkedList<>();
        sges.add(sge);
        sendWr.setSg_list(sges);
        sendWr.setNum_sge(1);
        sendList.add(sendWr);
        LinkedList<IbvSge> recvSges = new LinkedList<>();
        recvSges.add(recvSge);
        recvWr.setSg_list(recvSges);
        recvWr.setNum_sge(1);
        recvList.add(recvWr);
        for (int i = 0; i < POLL_BATCH; i++) {
            completions[i] = new IbvWC();
        }
    }

    /**
     * The connection parameters of both sides: transport and RNR retries, and the private data. DiSNI 2.1 refuses to
     * set the responder resources and initiator depth ("Operation currently not supported"): the READs a queue pair
     * has in flight at once are what its native code asks for.
     */
    static RdmaConnParam connectionParameters(ByteBuffer privateData) throws IOException {
        RdmaConnParam p = new RdmaConnParam();
        p.setRetry_count((byte) 7);
        p.setRnr_retry_count((byte) 7);
        if (privateData != null) {
            p.setPrivate_data(BufferUtil.address(privateData));
            p.setPrivate_data_len((byte) privateData.capacity());
        }
        return p;
    }

    /** Creates the completion queue and the verbs queue pair on the id (its device is known by now). */
    void createVerbsQueuePair() {
        try {
            cq = device.context().createCQ(device.compChannel(), 2 * DEPTH, 0);
            IbvQPInitAttr attr = new IbvQPInitAttr();
            attr.cap().setMax_send_wr(DEPTH);
            attr.cap().setMax_recv_wr(DEPTH);
            attr.cap().setMax_send_sge(1);
            attr.cap().setMax_recv_sge(1);
            attr.cap().setMax_inline_data(0);
            attr.setQp_type(IbvQP.IBV_QPT_RC);
            attr.setSend_cq(cq);
            attr.setRecv_cq(cq);
            qp = id.createQP(device.pd(), attr);
            pollCall = cq.poll(completions, POLL_BATCH);
        } catch (IOException e) {
            fail("cannot create the queue pair: " + e.getMessage());
            return;
        }
        while (!pendingRecvs.isEmpty()) {
            PendingRecv r = pendingRecvs.poll();
            postRecv(r.id(), r.local(), r.offset(), r.length());
        }
    }

    @Override
    public void postWrite(long workRequestId, MemoryRegistration local, int localOffset, int length,
                          long remoteAddress, int rkey) {
        postOneSided(IbvSendWR.IBV_WR_RDMA_WRITE, workRequestId, local, localOffset, length, remoteAddress, rkey);
    }

    @Override
    public void postRead(long workRequestId, MemoryRegistration local, int localOffset, int length,
                         long remoteAddress, int rkey) {
        postOneSided(IbvSendWR.IBV_WR_RDMA_READ, workRequestId, local, localOffset, length, remoteAddress, rkey);
    }

    @Override
    public void postSend(long workRequestId, MemoryRegistration local, int localOffset, int length) {
        postOneSided(IbvSendWR.IBV_WR_SEND, workRequestId, local, localOffset, length, 0, 0);
    }

    private void postOneSided(int opcode, long wrId, MemoryRegistration local, int offset, int length, long remote,
                              int rkey) {
        if (state != QpState.READY) {
            synthetic.add(new Synthetic(wrId, WorkCompletionStatus.FLUSHED));
            return;
        }
        int kind = opcode == IbvSendWR.IBV_WR_RDMA_WRITE ? 0 : opcode == IbvSendWR.IBV_WR_RDMA_READ ? 1 : 2;
        try {
            SVCPostSend call = sendCalls[kind];
            if (call == null) { // the first of its kind: DiSNI builds a stateful call, kept and modified from now on
                sge.setAddr(local.address() + offset);
                sge.setLength(length);
                sge.setLkey(local.lkey());
                sendWr.setWr_id(wrId);
                sendWr.setOpcode(opcode);
                sendWr.setSend_flags(IbvSendWR.IBV_SEND_SIGNALED);
                sendWr.getRdma().setRemote_addr(remote);
                sendWr.getRdma().setRkey(rkey);
                call = qp.postSend(sendList, null);
                sendCalls[kind] = call;
            } else {
                SVCPostSend.SendWRMod wr = call.getWrMod(0);
                wr.setWr_id(wrId);
                SVCPostSend.SgeMod sg = wr.getSgeMod(0);
                sg.setAddr(local.address() + offset);
                sg.setLength(length);
                sg.setLkey(local.lkey());
                wr.getRdmaMod().setRemote_addr(remote);
                wr.getRdmaMod().setRkey(rkey);
            }
            call.execute();
        } catch (IOException e) {
            synthetic.add(new Synthetic(wrId, WorkCompletionStatus.LOCAL_ERROR));
            fail("ibv_post_send failed: " + e.getMessage());
        }
    }

    @Override
    public void postRecv(long workRequestId, MemoryRegistration local, int localOffset, int length) {
        if (state == QpState.ERROR || state == QpState.CLOSED) {
            synthetic.add(new Synthetic(workRequestId, WorkCompletionStatus.FLUSHED));
            return;
        }
        if (qp == null) {
            pendingRecvs.add(new PendingRecv(workRequestId, local, localOffset, length));
            return;
        }
        recvSge.setAddr(local.address() + localOffset);
        recvSge.setLength(length);
        recvSge.setLkey(local.lkey());
        recvWr.setWr_id(workRequestId);
        try {
            qp.postRecv(recvList, null).execute().free();
        } catch (IOException e) {
            synthetic.add(new Synthetic(workRequestId, WorkCompletionStatus.LOCAL_ERROR));
            fail("ibv_post_recv failed: " + e.getMessage());
        }
    }

    @Override
    public int poll(WorkCompletionHandler handler, int max) {
        int n = 0;
        while (n < max && !synthetic.isEmpty()) {
            Synthetic s = synthetic.poll();
            handler.onWorkCompletion(s.id(), s.status(), 0);
            n++;
        }
        if (pollCall == null || state == QpState.CLOSED) {
            return n;
        }
        while (n < max) {
            int polled;
            try {
                polled = pollCall.execute().getPolls();
            } catch (IOException e) {
                fail("ibv_poll_cq failed: " + e.getMessage());
                return n;
            }
            for (int i = 0; i < polled; i++) {
                IbvWC wc = completions[i];
                WorkCompletionStatus status = WorkCompletionStatus.ofVerbsCode(wc.getStatus());
                if (status != WorkCompletionStatus.SUCCESS) {
                    fail("work completion status " + wc.getStatus() + " (vendor error " + wc.getVendor_err() + ")");
                }
                boolean received = (wc.getOpcode() & IBV_WC_RECV) != 0;
                handler.onWorkCompletion(wc.getWr_id(), status, received ? wc.getByte_len() : 0);
            }
            n += polled;
            if (polled < POLL_BATCH) {
                break;
            }
        }
        return n;
    }

    @Override
    public void connect(byte[] data) {
        if (data.length > RdmaDevice.MAX_PRIVATE_DATA) {
            throw new IllegalArgumentException("private data of " + data.length + " bytes; at most "
                + RdmaDevice.MAX_PRIVATE_DATA);
        }
        privateData = ByteBuffer.allocateDirect(data.length);
        privateData.put(data).flip();
    }

    /** A connection-manager event for this id. */
    void onEvent(EventType type) {
        try {
            switch (type) {
                case RDMA_CM_EVENT_ADDR_RESOLVED -> id.resolveRoute(DisniDevice.RESOLVE_TIMEOUT_MS);
                case RDMA_CM_EVENT_ROUTE_RESOLVED -> {
                    createVerbsQueuePair();
                    if (state == QpState.INIT) {
                        id.connect(connectionParameters(privateData));
                    }
                }
                case RDMA_CM_EVENT_ESTABLISHED -> {
                    if (state == QpState.INIT) {
                        state = QpState.READY;
                    }
                }
                case RDMA_CM_EVENT_REJECTED -> fail("the peer rejected the connection");
                case RDMA_CM_EVENT_UNREACHABLE, RDMA_CM_EVENT_ADDR_ERROR, RDMA_CM_EVENT_ROUTE_ERROR,
                     RDMA_CM_EVENT_CONNECT_ERROR -> fail("the peer cannot be reached (" + type + ")");
                case RDMA_CM_EVENT_DISCONNECTED, RDMA_CM_EVENT_DEVICE_REMOVAL, RDMA_CM_EVENT_TIMEWAIT_EXIT ->
                    fail("disconnected (" + type + ")");
                default -> {
                }
            }
        } catch (IOException e) {
            fail(type + " could not be handled: " + e.getMessage());
        }
    }

    void fail(String reason) {
        if (state == QpState.ERROR || state == QpState.CLOSED) {
            return;
        }
        errorReason = reason;
        state = QpState.ERROR;
        while (!pendingRecvs.isEmpty()) {
            synthetic.add(new Synthetic(pendingRecvs.poll().id(), WorkCompletionStatus.FLUSHED));
        }
    }

    @Override
    public QpState state() {
        return state;
    }

    @Override
    public String errorReason() {
        return errorReason;
    }

    @Override
    public void close() {
        if (state == QpState.CLOSED) {
            return;
        }
        state = QpState.CLOSED;
        device.forget(id);
        try {
            id.disconnect();
        } catch (IOException e) {
            // not connected
        }
        try {
            if (qp != null) {
                id.destroyQP();
            }
            if (pollCall != null) {
                pollCall.free();
            }
            for (SVCPostSend call : sendCalls) {
                if (call != null) {
                    call.free();
                }
            }
            if (cq != null) {
                cq.destroyCQ();
            }
            id.destroyId();
        } catch (IOException e) {
            // closing: nothing more to do
        }
    }
}
