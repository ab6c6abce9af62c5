package org.ubft.ctbcast.link;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.ubft.common.NodeId;
import org.ubft.fabric.CompletionRouter;
import org.ubft.fabric.sim.SimNetwork;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@link PeerLinks#outboundTap}: the tap sees each message once per receiver and decides what goes out (here: a
 * rewritten message to member 1, nothing to member 2, two copies to itself); without a tap the links send as before.
 */
class OutboundTapTest {
    private static final int[] MEMBERS = {NodeId.replica(0), NodeId.replica(1), NodeId.replica(2)};

    @Test
    void theTapRewritesDropsAndDuplicatesPerReceiver() {
        SimNetwork net = new SimNetwork(3);
        PeerLinks[] links = new PeerLinks[3];
        List<List<String>> received = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        DirectStream[] streams = new DirectStream[3];
        for (int i = 0; i < 3; i++) {
            final int me = i;
            links[i] = new PeerLinks(new CompletionRouter(net.open(MEMBERS[i]), 8), net.clock(), MEMBERS, i,
                LinkConfig.defaults(8, 64));
            streams[i] = new DirectStream(links[i], 1, (from, b, off, len) ->
                received.get(me).add(from + ":" + b.getStringWithoutLengthAscii(off, len)));
        }
        List<String> seen = new ArrayList<>();
        UnsafeBuffer rewritten = new UnsafeBuffer(new byte[64]);
        links[0].outboundTap((to, stream, flags, index, src, off, len, sink) -> {
            seen.add(to + ":" + src.getStringWithoutLengthAscii(off, len));
            if (to == 1) {
                int n = rewritten.putStringWithoutLengthAscii(0, "forged");
                sink.send(to, stream, flags, index, rewritten, 0, n);
            } else if (to == 0) {
                sink.send(to, stream, flags, index, src, off, len);
                sink.send(to, stream, flags, index, src, off, len);
            }
        });
        UnsafeBuffer m = new UnsafeBuffer(new byte[8]);
        int len = m.putStringWithoutLengthAscii(0, "hello");
        for (int to = 0; to < 3; to++) {
            streams[0].send(to, m, 0, len);
        }
        run(net, links);
        assertEquals(List.of("0:hello", "1:hello", "2:hello"), seen);
        assertEquals(List.of("0:hello", "0:hello"), received.get(0));
        assertEquals(List.of("0:forged"), received.get(1));
        assertEquals(List.of(), received.get(2));

        links[0].outboundTap(null);
        streams[0].send(2, m, 0, len);
        run(net, links);
        assertEquals(List.of("0:hello"), received.get(2));
        assertEquals(3, seen.size(), "a removed tap sees nothing");
    }

    private static void run(SimNetwork net, PeerLinks[] links) {
        net.runUntil(() -> {
            for (PeerLinks l : links) {
                l.doWork();
            }
            return false;
        }, 1_000_000);
    }
}
