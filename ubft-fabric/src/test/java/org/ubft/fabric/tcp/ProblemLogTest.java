package org.ubft.fabric.tcp;

import org.junit.jupiter.api.Test;
import org.ubft.common.NodeId;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The connection problem log: a line names this node, the peer, what happened and the fix; a flood is held back. */
class ProblemLogTest {
    private static final long S = 1_000_000_000L;

    @Test
    void oneLinePerKindAndPeerEveryIntervalWithTheCountHeldBack() {
        List<String> lines = new ArrayList<>();
        ProblemLog log = new ProblemLog(NodeId.replica(1), lines::add);
        for (int i = 0; i < 1_000; i++) {
            log.report(ProblemLog.Kind.AUTHENTICATION, "client-0", "the signature of client-0 does not verify", i);
        }
        log.report(ProblemLog.Kind.AUTHENTICATION, "client-1", "the signature of client-1 does not verify", 5);
        log.report(ProblemLog.Kind.MALFORMED, "client-0", "bad frame header", 6);
        assertEquals(3, lines.size(), String.join("\n", lines));
        assertTrue(lines.get(0).startsWith("ubft tcp replica-1: authentication failed with client-0: the signature of "
            + "client-0 does not verify. Fix: "), lines.get(0));
        assertTrue(lines.get(0).contains("keys.dir"), lines.get(0));
        assertTrue(lines.get(2).contains("malformed frame with client-0"), lines.get(2));
        log.report(ProblemLog.Kind.AUTHENTICATION, "client-0", "again", 10 * S + 1);
        assertEquals(4, lines.size());
        assertTrue(lines.get(3).endsWith("(999 more like it in the last 10 s)"), lines.get(3));
        assertTrue(log.last().contains("again"), log.last());
    }

    @Test
    void peersWithoutEndFillNoMoreThanABoundedMap() {
        List<String> lines = new ArrayList<>();
        ProblemLog log = new ProblemLog(NodeId.replica(0), lines::add);
        for (int i = 0; i < 100_000; i++) {
            log.report(ProblemLog.Kind.HANDSHAKE, "/10.0.0.1:" + i, "no HELLO in time", i);
        }
        assertTrue(lines.size() <= 257, lines.size() + " lines for one flood within a second");
    }
}
