package org.ubft.sim.byzantine;

import org.junit.jupiter.api.Test;
import org.ubft.sim.check.BoundedMemoryChecker;
import org.ubft.sim.check.ExceptionChecker;
import org.ubft.sim.check.ResourceChecker;
import org.ubft.sim.scenario.ByzantineScenarios;
import org.ubft.sim.scenario.Scenarios;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A follower broadcasts CTBcast messages at and past the largest valid one, right behind COMMITs whose shares the
 * receivers check off their agent threads ({@link OversizedMessages}), so that they arrive while its stream is parked
 * in StreamChecks' room (slots of the largest valid CTBcast message). The correct replicas stay safe and live, within
 * the memory and resource checkers' bounds, and their counters show each kind of message received and dropped.
 */
class OversizedMessagesTest {
    /**
     * The default channel carries nothing longer than the largest valid message M: the LOCKs naming M + 1 and M + 64
     * bytes are refused by the receivers' CTBcast (counted {@code tooLong}), the consensus layer never sees a message
     * too long for the room, and the messages of exactly M bytes, waiting behind the parked COMMITs, are dropped.
     */
    @Test
    void onTheDefaultChannelTheLongestMessagesStopAtCtbcast() {
        assertTrue(Scenarios.ALL.contains(ByzantineScenarios.OVERSIZED));
        for (long seed = 1; seed <= 3; seed++) {
            ByzProbe p = new ByzProbe(ByzantineScenarios.OVERSIZED, seed);
            OversizedMessages b = (OversizedMessages) p.behaviour();
            String where = p.toString();
            System.out.println("byz-oversized seed " + seed + ": " + b + " M=" + b.maxValid() + " C=" + b.channel()
                + " atMax=" + b.sentAtMax() + " lengthened=" + b.lengthened() + " locks=" + b.locksLengthened()
                + "\n" + p.result.countersLines());
            safeLiveAndBounded(p, where);
            assertEquals(b.maxValid(), b.channel(), "CTBcast carries up to the largest consensus message\n" + where);
            assertTrue(b.salvos() > 20 && b.lengthened() > 10, "the follower sent its salvos\n" + where);
            for (int r = 0; r < 2; r++) {
                assertTrue(ctbcast(p, r, "tooLong") >= b.lengthened(),
                    "replica " + r + "'s CTBcast refused every lengthened LOCK\n" + where);
                assertEquals(0, p.counter(r, "ctbcast_too_long"), "nothing longer than M past CTBcast\n" + where);
                assertTrue(p.counter(r, "commits_parked") > 10, "replica " + r + " parked the stream\n" + where);
                assertTrue(p.counter(r, "MALFORMED") + p.counter(r, "UNKNOWN_TYPE") > b.salvos(),
                    "replica " + r + " dropped the messages of M bytes\n" + where);
            }
        }
    }

    /**
     * On a channel 8 KiB wider than M (every replica's), messages of M + 1 and of the channel's maximum C reach the
     * consensus layer, many while the follower's stream is parked: StreamChecks handles what waits first, then them
     * ({@code too_long_flushes}); they are dropped, and LOCKs naming C + 1 and C + 64 bytes are refused by CTBcast.
     */
    @Test
    void onAWideChannelTheLongestMessagesFlushTheRoomAndAreDropped() {
        assertTrue(Scenarios.ALL.contains(ByzantineScenarios.OVERSIZED_WIDE));
        for (long seed = 1; seed <= 3; seed++) {
            ByzProbe p = new ByzProbe(ByzantineScenarios.OVERSIZED_WIDE, seed);
            OversizedMessages b = (OversizedMessages) p.behaviour();
            String where = p.toString();
            System.out.println("byz-oversized-wide seed " + seed + ": " + b + " M=" + b.maxValid() + " C="
                + b.channel() + " longer=" + b.sentLonger() + " lengthened=" + b.lengthened() + "\n"
                + p.result.countersLines());
            safeLiveAndBounded(p, where);
            assertEquals(b.maxValid() + ByzantineScenarios.WIDE_CHANNEL_EXTRA_BYTES, b.channel(), where);
            assertTrue(b.sentLonger() > 10 && b.lengthened() > 10, "the follower sent its salvos\n" + where);
            for (int r = 0; r < 2; r++) {
                long tooLong = p.counter(r, "ctbcast_too_long");
                assertTrue(tooLong > 10 && tooLong <= b.sentLonger(),
                    "replica " + r + " received the messages longer than M\n" + where);
                long flushes = p.counter(r, "too_long_flushes");
                assertTrue(flushes > 10, "replica " + r + ": some came while the stream was parked\n" + where);
                assertTrue(p.counter(r, "commits_forced") >= flushes,
                    "replica " + r + " handled the parked COMMIT (and what waited) before each of those\n" + where);
                assertTrue(ctbcast(p, r, "tooLong") >= b.lengthened(),
                    "replica " + r + "'s CTBcast refused every lengthened LOCK\n" + where);
                assertTrue(p.counter(r, "MALFORMED") + p.counter(r, "UNKNOWN_TYPE") >= tooLong,
                    "replica " + r + " dropped them\n" + where);
            }
        }
    }

    private static void safeLiveAndBounded(ByzProbe p, String where) {
        assertTrue(p.result.ok(), where);
        assertTrue(!p.result.violations().has(ResourceChecker.NAME), where);
        assertTrue(!p.result.violations().has(BoundedMemoryChecker.NAME), where);
        assertTrue(!p.result.violations().has(ExceptionChecker.NAME), where);
        assertTrue(p.result.accepted() > 100, "the correct clients were served\n" + where);
    }

    /** Counter {@code name} inside replica {@code r}'s {@code ctbcast={...}} group. */
    private static long ctbcast(ByzProbe p, int r, String name) {
        for (String line : p.result.countersLines().split("\n")) {
            if (line.startsWith("replica-" + r + " ")) {
                Matcher m = Pattern.compile("ctbcast=\\{[^}]*[{ ,]" + name + "=(\\d+)").matcher(line);
                return m.find() ? Long.parseLong(m.group(1)) : -1;
            }
        }
        return -1;
    }
}
