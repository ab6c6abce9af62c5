package org.ubft.fabric;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.ubft.common.NodeId;
import org.ubft.fabric.sim.SimNetwork;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CompletionRouterTest {
    @Test
    void composeAndDecomposeRoundTripOverTheWholeTagRange() {
        for (int tag : new int[] {0, 1, 0x7FFF, 0x8000, CompletionRouter.MAX_TAG}) {
            for (long seq : new long[] {0, 1, 12345, CompletionRouter.SEQUENCE_MASK}) {
                long id = CompletionRouter.compose(tag, seq);
                assertEquals(tag, CompletionRouter.tagOf(id));
                assertEquals(seq, CompletionRouter.sequenceOf(id));
            }
        }
        // Sequences wrap modulo 2^48 instead of spilling into the tag.
        long wrapped = CompletionRouter.compose(3, CompletionRouter.SEQUENCE_MASK + 5);
        assertEquals(3, CompletionRouter.tagOf(wrapped));
        assertEquals(4, CompletionRouter.sequenceOf(wrapped));
        assertThrows(IllegalArgumentException.class, () -> CompletionRouter.compose(-1, 0));
        assertThrows(IllegalArgumentException.class, () -> CompletionRouter.compose(CompletionRouter.MAX_TAG + 1, 0));
    }

    @Test
    void completionsOfASharedFabricReachTheHandlerOfTheirTag() {
        SimNetwork net = new SimNetwork(7);
        int owner = NodeId.memnode(0);
        int poster = NodeId.replica(0);
        Fabric ownerFabric = net.open(owner);
        Fabric fabric = net.open(poster);
        ownerFabric.register(1, 64, Permissions.none().grant(poster, Permission.READ_WRITE));
        CompletionRouter router = new CompletionRouter(fabric, 4);
        List<Long> a = new ArrayList<>();
        List<Long> b = new ArrayList<>();
        router.register(1, (id, status) -> a.add(CompletionRouter.sequenceOf(id)));
        router.register(0xFFFF, (id, status) -> b.add(CompletionRouter.sequenceOf(id)));
        UnsafeBuffer src = new UnsafeBuffer(new byte[8]);
        for (int i = 0; i < 10; i++) {
            int tag = i % 3 == 0 ? 0xFFFF : i % 3 == 1 ? 1 : 2; // tag 2 has no handler
            fabric.write(CompletionRouter.compose(tag, i), owner, 1, 0, src, 0, 8);
        }
        int polled = 0;
        while (polled < 10) {
            polled += router.poll(16);
            net.step();
        }
        assertEquals(List.of(1L, 4L, 7L), a);
        assertEquals(List.of(0L, 3L, 6L, 9L), b);
        assertEquals(3, router.unrouted());
    }

    @Test
    void registrationRejectsDuplicatesAndOverflow() {
        CompletionRouter router = new CompletionRouter(new SimNetwork(1).open(NodeId.replica(0)), 2);
        router.register(5, (id, s) -> { });
        assertThrows(IllegalArgumentException.class, () -> router.register(5, (id, s) -> { }));
        router.register(6, (id, s) -> { });
        assertThrows(IllegalArgumentException.class, () -> router.register(7, (id, s) -> { }));
    }

    @Test
    void dispatchAllocatesNothing() {
        CompletionRouter router = new CompletionRouter(new SimNetwork(1).open(NodeId.replica(0)), 8);
        long[] sum = new long[1];
        for (int tag = 0; tag < 8; tag++) {
            router.register(tag, (id, s) -> sum[0] += CompletionRouter.sequenceOf(id) + s.ordinal());
        }
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        for (int i = 0; i < 200_000; i++) { // warm up
            router.onCompletion(CompletionRouter.compose(i & 15, i), Status.SUCCESS);
        }
        long before = mx.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < 100_000; i++) {
            router.onCompletion(CompletionRouter.compose(i & 15, i), Status.SUCCESS);
        }
        long allocated = mx.getCurrentThreadAllocatedBytes() - before;
        assertTrue(allocated < 10_000, "dispatching 100k completions allocated " + allocated + " bytes");
        assertTrue(sum[0] > 0);
    }
}
