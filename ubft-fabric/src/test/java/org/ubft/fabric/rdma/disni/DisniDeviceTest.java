package org.ubft.fabric.rdma.disni;

import com.ibm.disni.verbs.IbvCQ;
import com.ibm.disni.verbs.IbvCompChannel;
import com.ibm.disni.verbs.IbvContext;
import com.ibm.disni.verbs.IbvMr;
import com.ibm.disni.verbs.IbvPd;
import com.ibm.disni.verbs.IbvQP;
import com.ibm.disni.verbs.IbvQPInitAttr;
import com.ibm.disni.verbs.IbvRecvWR;
import com.ibm.disni.verbs.IbvSendWR;
import com.ibm.disni.verbs.IbvWC;
import com.ibm.disni.verbs.RdmaCm;
import com.ibm.disni.verbs.RdmaCmEvent;
import com.ibm.disni.verbs.RdmaCmEvent.EventType;
import com.ibm.disni.verbs.RdmaCmId;
import com.ibm.disni.verbs.RdmaConnParam;
import com.ibm.disni.verbs.RdmaEventChannel;
import com.ibm.disni.verbs.SVCDeregMr;
import com.ibm.disni.verbs.SVCPollCq;
import com.ibm.disni.verbs.SVCPostRecv;
import com.ibm.disni.verbs.SVCPostSend;
import com.ibm.disni.verbs.SVCRegMr;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;
import org.ubft.common.NodeId;
import org.ubft.fabric.FabricException;
import org.ubft.fabric.rdma.Access;
import org.ubft.fabric.rdma.ConnectionRequest;
import org.ubft.fabric.rdma.MemoryRegistration;
import org.ubft.fabric.rdma.QpState;
import org.ubft.fabric.rdma.QueuePair;
import org.ubft.fabric.rdma.RdmaFabric;
import org.ubft.fabric.rdma.RdmaOptions;
import org.ubft.fabric.rdma.RdmaUnavailableException;
import org.ubft.fabric.rdma.WorkCompletionStatus;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.ArgumentMatchers.isNull;
import static org.mockito.Mockito.clearInvocations;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

/**
 * The DiSNI binding against mocks of DiSNI's own classes (no native library needed): the verbs calls it makes,
 * with which flags and values, and how it maps DiSNI's errors and events onto the verbs boundary.
 */
class DisniDeviceTest {
    private static final InetSocketAddress HERE = new InetSocketAddress("10.0.0.1", 7000);
    private static final InetSocketAddress THERE = new InetSocketAddress("10.0.0.2", 7000);

    private final RdmaEventChannel passive = mock(RdmaEventChannel.class);
    private final RdmaEventChannel active = mock(RdmaEventChannel.class);
    private final RdmaCmId listenId = mock(RdmaCmId.class);
    private final IbvContext context = mock(IbvContext.class);
    private final IbvPd pd = mock(IbvPd.class);
    private final IbvCompChannel compChannel = mock(IbvCompChannel.class);
    private final IbvCQ cq = mock(IbvCQ.class);
    private final IbvQP verbsQp = mock(IbvQP.class);
    private final SVCPollCq pollCall = mock(SVCPollCq.class);
    private final SVCPostSend postSend = mock(SVCPostSend.class);
    private final SVCPostRecv postRecv = mock(SVCPostRecv.class);
    private IbvWC[] completionArray;
    private final List<long[]> completed = new ArrayList<>();

    @BeforeEach
    void wireMocks() throws IOException {
        when(passive.createId(RdmaCm.RDMA_PS_TCP)).thenReturn(listenId);
        when(listenId.getVerbs()).thenReturn(context);
        when(context.allocPd()).thenReturn(pd);
        when(context.createCompChannel()).thenReturn(compChannel);
        when(context.createCQ(eq(compChannel), anyInt(), eq(0))).thenReturn(cq);
        when(cq.poll(any(), anyInt())).thenAnswer(inv -> {
            completionArray = inv.getArgument(0);
            return pollCall;
        });
        when(pollCall.execute()).thenReturn(pollCall);
        when(verbsQp.postSend(any(), isNull())).thenReturn(postSend);
        when(postSend.execute()).thenReturn(postSend);
        when(verbsQp.postRecv(any(), isNull())).thenReturn(postRecv);
        when(postRecv.execute()).thenReturn(postRecv);
    }

    private DisniDevice device() throws IOException {
        return new DisniDevice(HERE, passive, active);
    }

    private static RdmaCmEvent event(EventType type, RdmaCmId id) {
        RdmaCmEvent e = mock(RdmaCmEvent.class);
        when(e.getEvent()).thenReturn(type.ordinal());
        when(e.getConnIdPriv()).thenReturn(id);
        return e;
    }

    private void record(long id, WorkCompletionStatus status, int length) {
        completed.add(new long[] {id, status.ordinal(), length});
    }

    @Test
    void opensTheProtectionDomainOfTheDeviceThatHasTheAddress() throws IOException {
        DisniDevice d = device();
        verify(listenId).bindAddr(HERE);
        verify(context).allocPd();
        d.listen(HERE);
        verify(listenId).listen(DisniDevice.BACKLOG);
    }

    @Test
    void anAddressOnNoRdmaDeviceFailsNamingIt() throws IOException {
        when(listenId.getVerbs()).thenReturn(null);
        RdmaUnavailableException e = assertThrows(RdmaUnavailableException.class, this::device);
        assertTrue(e.getMessage().contains("the address " + HERE + " is on no RDMA device"), e.getMessage());
        assertTrue(e.getMessage().contains("rdma link show"), e.getMessage());
        verify(listenId).destroyId();
    }

    @Test
    void registrationPassesTheAccessFlagsAndReturnsTheKeys() throws IOException {
        ByteBuffer memory = ByteBuffer.allocateDirect(4096);
        SVCRegMr call = mock(SVCRegMr.class);
        IbvMr mr = mock(IbvMr.class);
        when(pd.regMr(memory, IbvMr.IBV_ACCESS_REMOTE_READ | IbvMr.IBV_ACCESS_REMOTE_WRITE)).thenReturn(call);
        when(call.execute()).thenReturn(call);
        when(call.getMr()).thenReturn(mr);
        when(mr.getAddr()).thenReturn(0x7000_0000L);
        when(mr.getLength()).thenReturn(4096);
        when(mr.getLkey()).thenReturn(11);
        when(mr.getRkey()).thenReturn(22);
        MemoryRegistration r = device().register(memory, Access.REMOTE_READ | Access.REMOTE_WRITE);
        assertEquals(0x7000_0000L, r.address());
        assertEquals(11, r.lkey());
        assertEquals(22, r.rkey());
        assertSame(mr, r.handle());
        verify(call).free();
        assertEquals(IbvMr.IBV_ACCESS_LOCAL_WRITE, DisniDevice.verbsAccess(Access.LOCAL_WRITE));
        assertEquals(IbvMr.IBV_ACCESS_REMOTE_READ, DisniDevice.verbsAccess(Access.REMOTE_READ));
    }

    @Test
    void aRefusedRegistrationNamesTheLockedMemoryLimit() throws IOException {
        when(pd.regMr(any(ByteBuffer.class), anyInt())).thenThrow(new IOException("Cannot allocate memory"));
        FabricException e = assertThrows(FabricException.class,
            () -> device().register(ByteBuffer.allocateDirect(64), Access.LOCAL_WRITE));
        assertTrue(e.getMessage().contains("ulimit -l"), e.getMessage());
    }

    /** Passive side: a CONNECT_REQUEST becomes a request; its queue pair is an RC queue pair on one CQ. */
    private QueuePair acceptedQueuePair(DisniDevice d) throws IOException {
        RdmaCmId conn = mock(RdmaCmId.class);
        when(conn.createQP(eq(pd), any(IbvQPInitAttr.class))).thenReturn(verbsQp);
        RdmaCmEvent request = event(EventType.RDMA_CM_EVENT_CONNECT_REQUEST, conn);
        RdmaCmEvent established = event(EventType.RDMA_CM_EVENT_ESTABLISHED, conn);
        when(passive.getCmEvent(0)).thenReturn(request, (RdmaCmEvent) null);
        d.pollIncomingEvents();
        ConnectionRequest r = d.nextConnectionRequest();
        assertNull(r.privateData(), "DiSNI 2.1 shows no private data of a request");
        QueuePair qp = r.createQueuePair(Access.REMOTE_READ);
        ArgumentCaptor<IbvQPInitAttr> attr = ArgumentCaptor.forClass(IbvQPInitAttr.class);
        verify(conn).createQP(eq(pd), attr.capture());
        assertEquals(IbvQP.IBV_QPT_RC, attr.getValue().getQp_type());
        assertSame(cq, attr.getValue().getSend_cq());
        assertSame(cq, attr.getValue().getRecv_cq());
        r.accept();
        ArgumentCaptor<RdmaConnParam> param = ArgumentCaptor.forClass(RdmaConnParam.class);
        verify(conn).accept(param.capture());
        assertEquals(7, param.getValue().getRetry_count(), "transport retries before a silent peer fails the QP");
        assertEquals(7, param.getValue().getRnr_retry_count());
        assertEquals(QpState.INIT, qp.state());
        when(passive.getCmEvent(0)).thenReturn(established, (RdmaCmEvent) null);
        d.pollIncomingEvents();
        assertEquals(QpState.READY, qp.state());
        verify(request).ackEvent();
        verify(established).ackEvent();
        return qp;
    }

    @Test
    void aWriteIsOneSignaledRdmaWriteWithTheLocalKeyAndTheRemoteKey() throws IOException {
        DisniDevice d = device();
        QueuePair qp = acceptedQueuePair(d);
        MemoryRegistration local = new MemoryRegistration(ByteBuffer.allocateDirect(64), 0x1000, 64, 5, 6,
            Access.LOCAL_WRITE, null);
        qp.postWrite(77, local, 8, 32, 0x9000_0010L, 1234);
        @SuppressWarnings("unchecked")
        ArgumentCaptor<List<IbvSendWR>> wrs = ArgumentCaptor.forClass(List.class);
        verify(verbsQp).postSend(wrs.capture(), isNull());
        IbvSendWR wr = wrs.getValue().get(0);
        assertEquals(77, wr.getWr_id());
        assertEquals(IbvSendWR.IBV_WR_RDMA_WRITE, wr.getOpcode());
        assertEquals(IbvSendWR.IBV_SEND_SIGNALED, wr.getSend_flags());
        assertEquals(0x1008, wr.getSge(0).getAddr());
        assertEquals(32, wr.getSge(0).getLength());
        assertEquals(5, wr.getSge(0).getLkey());
        assertEquals(0x9000_0010L, wr.getRdma().getRemote_addr());
        assertEquals(1234, wr.getRdma().getRkey());
        verify(postSend, never()).free();

        // the second WRITE modifies the stateful call DiSNI made for the first: no new call, no allocation
        SVCPostSend.SendWRMod wrMod = mock(SVCPostSend.SendWRMod.class);
        SVCPostSend.SgeMod sgeMod = mock(SVCPostSend.SgeMod.class);
        SVCPostSend.RdmaMod rdmaMod = mock(SVCPostSend.RdmaMod.class);
        when(postSend.getWrMod(0)).thenReturn(wrMod);
        when(wrMod.getSgeMod(0)).thenReturn(sgeMod);
        when(wrMod.getRdmaMod()).thenReturn(rdmaMod);
        qp.postWrite(80, local, 16, 8, 0x9000_0020L, 1234);
        verify(verbsQp).postSend(any(), isNull());
        verify(wrMod).setWr_id(80);
        verify(sgeMod).setAddr(0x1010);
        verify(sgeMod).setLength(8);
        verify(sgeMod).setLkey(5);
        verify(rdmaMod).setRemote_addr(0x9000_0020L);
        verify(rdmaMod).setRkey(1234);
        verify(postSend, org.mockito.Mockito.times(2)).execute();

        qp.postRead(78, local, 0, 8, 0x9000_0010L, 1234);
        assertEquals(IbvSendWR.IBV_WR_RDMA_READ, wr.getOpcode(), "a READ gets a stateful call of its own");
        verify(verbsQp, org.mockito.Mockito.times(2)).postSend(any(), isNull());
        qp.postRecv(79, local, 0, 64);
        @SuppressWarnings("unchecked")
        ArgumentCaptor<List<IbvRecvWR>> recvs = ArgumentCaptor.forClass(List.class);
        verify(verbsQp).postRecv(recvs.capture(), isNull());
        assertEquals(79, recvs.getValue().get(0).getWr_id());
    }

    @Test
    void completionsAreMappedAndAFailedOneMovesTheQueuePairToError() throws IOException {
        DisniDevice d = device();
        QueuePair qp = acceptedQueuePair(d);
        when(pollCall.getPolls()).thenAnswer(inv -> {
            completionArray[0].setWr_id(1);
            completionArray[0].setStatus(IbvWC.IbvWcStatus.IBV_WC_SUCCESS.ordinal());
            completionArray[1].setWr_id(2);
            completionArray[1].setStatus(IbvWC.IbvWcStatus.IBV_WC_REM_ACCESS_ERR.ordinal());
            completionArray[2].setWr_id(3);
            completionArray[2].setStatus(IbvWC.IbvWcStatus.IBV_WC_WR_FLUSH_ERR.ordinal());
            completionArray[3].setWr_id(4);
            completionArray[3].setStatus(IbvWC.IbvWcStatus.IBV_WC_SUCCESS.ordinal());
            completionArray[3].setOpcode(1 << 7); // IBV_WC_RECV
            completionArray[3].setByte_len(24);
            return 4;
        });
        completed.clear();
        assertEquals(4, qp.poll(this::record, 16));
        assertEquals(List.of(1L, 2L, 3L, 4L), completed.stream().map(c -> c[0]).toList());
        assertEquals(WorkCompletionStatus.SUCCESS.ordinal(), completed.get(0)[1]);
        assertEquals(WorkCompletionStatus.REMOTE_ACCESS_ERROR.ordinal(), completed.get(1)[1]);
        assertEquals(WorkCompletionStatus.FLUSHED.ordinal(), completed.get(2)[1]);
        assertEquals(24, completed.get(3)[2], "a RECV's length");
        assertEquals(QpState.ERROR, qp.state());
        assertTrue(qp.errorReason().contains("status 10"), qp.errorReason());

        when(pollCall.getPolls()).thenReturn(0);
        completed.clear();
        MemoryRegistration local = new MemoryRegistration(ByteBuffer.allocateDirect(8), 0x1000, 8, 5, 6, 0, null);
        qp.postWrite(9, local, 0, 8, 0x9000, 1);
        qp.poll(this::record, 16);
        assertEquals(List.of(9L), completed.stream().map(c -> c[0]).toList(), "posted on an error queue pair");
        assertEquals(WorkCompletionStatus.FLUSHED.ordinal(), completed.get(0)[1]);
        verify(verbsQp, never()).postSend(any(), any()); // nothing reaches the NIC after the error
    }

    @Test
    void aFailedPostCompletesThatRequestAndFailsTheQueuePair() throws IOException {
        DisniDevice d = device();
        QueuePair qp = acceptedQueuePair(d);
        when(postSend.execute()).thenThrow(new IOException("ENOMEM"));
        MemoryRegistration local = new MemoryRegistration(ByteBuffer.allocateDirect(8), 0x1000, 8, 5, 6, 0, null);
        qp.postSend(5, local, 0, 8);
        completed.clear();
        qp.poll(this::record, 16);
        assertEquals(5L, completed.get(0)[0]);
        assertEquals(WorkCompletionStatus.LOCAL_ERROR.ordinal(), completed.get(0)[1]);
        assertEquals(QpState.ERROR, qp.state());
        assertTrue(qp.errorReason().contains("ENOMEM"), qp.errorReason());
    }

    /** Active side: resolve the address, then the route, then create the QP, post the early RECVs and connect. */
    @Test
    void anOutgoingConnectionFollowsTheConnectionManagersEvents() throws IOException {
        DisniDevice d = device();
        RdmaCmId id = mock(RdmaCmId.class);
        when(active.createId(RdmaCm.RDMA_PS_TCP)).thenReturn(id);
        when(id.createQP(eq(pd), any(IbvQPInitAttr.class))).thenReturn(verbsQp);
        QueuePair qp = d.createQueuePair(THERE);
        verify(id).resolveAddr(null, THERE, DisniDevice.RESOLVE_TIMEOUT_MS);
        MemoryRegistration local = new MemoryRegistration(ByteBuffer.allocateDirect(64), 0x1000, 64, 5, 6,
            Access.LOCAL_WRITE, null);
        qp.postRecv(1, local, 0, 64);
        verify(verbsQp, never()).postRecv(any(), any());
        qp.connect(new byte[] {1, 2, 3});

        RdmaCmEvent eADDRRESOLVED = event(EventType.RDMA_CM_EVENT_ADDR_RESOLVED, id);
        when(active.getCmEvent(0)).thenReturn(eADDRRESOLVED, (RdmaCmEvent) null);
        d.pollOutgoingEvents();
        assertEquals(QpState.INIT, qp.state());
        verify(id).resolveRoute(DisniDevice.RESOLVE_TIMEOUT_MS);

        RdmaCmEvent eROUTERESOLVED = event(EventType.RDMA_CM_EVENT_ROUTE_RESOLVED, id);
        when(active.getCmEvent(0)).thenReturn(eROUTERESOLVED, (RdmaCmEvent) null);
        d.pollOutgoingEvents();
        verify(verbsQp).postRecv(any(), isNull());
        ArgumentCaptor<RdmaConnParam> param = ArgumentCaptor.forClass(RdmaConnParam.class);
        verify(id).connect(param.capture());
        assertEquals(3, param.getValue().getPrivate_data_len());
        assertTrue(param.getValue().getPrivate_data() != 0, "the private data's address");

        RdmaCmEvent eREJECTED = event(EventType.RDMA_CM_EVENT_REJECTED, id);
        when(active.getCmEvent(0)).thenReturn(eREJECTED, (RdmaCmEvent) null);
        d.pollOutgoingEvents();
        assertEquals(QpState.ERROR, qp.state());
        assertTrue(qp.errorReason().contains("rejected"), qp.errorReason());
    }

    @Test
    void anUnreachablePeerFailsTheQueuePair() throws IOException {
        DisniDevice d = device();
        RdmaCmId id = mock(RdmaCmId.class);
        when(active.createId(RdmaCm.RDMA_PS_TCP)).thenReturn(id);
        QueuePair qp = d.createQueuePair(THERE);
        RdmaCmEvent eADDRERROR = event(EventType.RDMA_CM_EVENT_ADDR_ERROR, id);
        when(active.getCmEvent(0)).thenReturn(eADDRERROR, (RdmaCmEvent) null);
        d.pollOutgoingEvents();
        assertEquals(QpState.ERROR, qp.state());
        assertTrue(qp.errorReason().contains("cannot be reached"), qp.errorReason());
    }

    @Test
    void connectionRequestsBeyondTheBacklogAreRefusedAtOnce() throws IOException {
        DisniDevice d = device();
        List<RdmaCmId> ids = new ArrayList<>();
        List<RdmaCmEvent> events = new ArrayList<>();
        for (int i = 0; i < DisniDevice.BACKLOG + 5; i++) {
            RdmaCmId id = mock(RdmaCmId.class);
            ids.add(id);
            events.add(event(EventType.RDMA_CM_EVENT_CONNECT_REQUEST, id));
        }
        java.util.Iterator<RdmaCmEvent> flood = events.iterator();
        when(passive.getCmEvent(0)).thenAnswer(inv -> flood.hasNext() ? flood.next() : null);
        for (int i = 0; i < 20; i++) {
            d.pollIncomingEvents();
        }
        assertEquals(DisniDevice.BACKLOG, d.pendingRequests());
        verify(ids.get(DisniDevice.BACKLOG + 4)).destroyId();
        verify(ids.get(0), never()).destroyId();
    }

    @Test
    void closingDisconnectsAndDestroysEverything() throws Exception {
        DisniDevice d = device();
        RdmaCmId id = mock(RdmaCmId.class);
        when(active.createId(RdmaCm.RDMA_PS_TCP)).thenReturn(id);
        d.createQueuePair(THERE);
        d.close();
        verify(id).disconnect();
        verify(id).destroyId();
        verify(listenId).destroyId();
        verify(pd).deallocPd();
        verify(passive).destroyEventChannel();
        verify(active).destroyEventChannel();
    }

    /** Connection-manager events are read by the device's event handling only, never by a queue pair's poll or state. */
    @Test
    void queuePairsReadNoConnectionManagerEventsThemselves() throws IOException {
        DisniDevice d = device();
        QueuePair accepted = acceptedQueuePair(d);
        when(active.createId(RdmaCm.RDMA_PS_TCP)).thenAnswer(inv -> mock(RdmaCmId.class));
        QueuePair outgoing = d.createQueuePair(THERE);
        QueuePair another = d.createQueuePair(THERE);
        clearInvocations(passive, active);
        for (int i = 0; i < 10; i++) {
            for (QueuePair qp : List.of(accepted, outgoing, another)) {
                qp.poll(this::record, 16);
                qp.state();
            }
        }
        verify(passive, never()).getCmEvent(anyInt());
        verify(active, never()).getCmEvent(anyInt());
        d.pollOutgoingEvents();
        d.pollIncomingEvents();
        verify(active, times(1)).getCmEvent(0); // no event waiting: one read finds none
        verify(passive, times(1)).getCmEvent(0);
    }

    /** The fabric reads its outgoing connections' events once per poll, however many queue pairs it has. */
    @Test
    void theFabricReadsOutgoingConnectionEventsOncePerPoll() throws IOException {
        SVCRegMr registration = mock(SVCRegMr.class);
        when(pd.regMr(any(ByteBuffer.class), anyInt())).thenReturn(registration);
        when(registration.execute()).thenReturn(registration);
        IbvMr mr = mock(IbvMr.class);
        when(registration.getMr()).thenReturn(mr);
        SVCDeregMr deregistration = mock(SVCDeregMr.class);
        when(mr.deregMr()).thenReturn(deregistration);
        when(deregistration.execute()).thenReturn(deregistration);
        when(active.createId(RdmaCm.RDMA_PS_TCP)).thenAnswer(inv -> mock(RdmaCmId.class));
        RdmaOptions options = RdmaOptions.builder(NodeId.replica(0)).listenAddress(HERE).peerResolver(n -> THERE)
            .build();
        RdmaFabric fabric = new RdmaFabric(options, device());
        try {
            UnsafeBuffer dst = new UnsafeBuffer(new byte[8]);
            for (int m = 0; m < 3; m++) { // three queue pairs connecting
                fabric.read(m, NodeId.memnode(m), 1, 0, dst, 0, 8);
            }
            clearInvocations(active);
            for (int i = 0; i < 5; i++) {
                fabric.poll((id, status) -> { }, 16);
            }
            verify(active, times(5)).getCmEvent(0);
        } finally {
            fabric.close();
        }
    }
}
