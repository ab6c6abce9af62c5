package org.ubft.ctbcast.node;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

class FifoDeliveryTest {
    private static final int T = 8;
    private final List<String> out = new ArrayList<>();
    private final List<String> gaps = new ArrayList<>();
    private final FifoDelivery fifo = new FifoDelivery(2, T, 16,
        (k, m, off, len, p) -> {
            assertEquals(k, m.getLong(off), "the bytes of message " + k);
            out.add(p + ":" + k);
        },
        (p, from, to) -> gaps.add(p + ":" + from + "-" + to));

    private void arrive(int p, long k) {
        UnsafeBuffer m = new UnsafeBuffer(new byte[16]);
        m.putLong(0, k);
        fifo.deliver(k, m, 0, 8, p);
    }

    @Test
    void outOfOrderArrivalsGoOutInOrderPerBroadcaster() {
        List<Long> ks = new ArrayList<>();
        for (long k = 1; k <= 200; k++) {
            ks.add(k);
        }
        Random r = new Random(3);
        // shuffle within windows of T so that nothing falls out of the tail
        for (int i = 0; i + T <= ks.size(); i += T) {
            Collections.shuffle(ks.subList(i, i + T), r);
        }
        for (long k : ks) {
            arrive(0, k);
            arrive(1, k);
        }
        List<String> zero = out.stream().filter(s -> s.startsWith("0:")).toList();
        assertEquals(200, zero.size());
        for (int i = 0; i < 200; i++) {
            assertEquals("0:" + (i + 1), zero.get(i));
        }
        assertEquals(0, gaps.size());
    }

    /**
     * After a restart of every replica, a broadcaster goes on after its logged summary and nobody holds the messages
     * before it: once the layer above applied that summary, delivery goes on after it at once (the messages held
     * after the summary go out, those it covers are dropped, no gap is reported), instead of waiting for the holes
     * until later messages push the position past them.
     */
    @Test
    void aSummaryAppliedAboveLetsDeliveryGoOnAfterIt() {
        arrive(0, 10); // the first heard after a restart: 10 >= 1 + T, a gap up to 3 that a summary fills
        arrive(0, 4); // covered by the summary below: held, then dropped
        arrive(0, 9);
        assertEquals(List.of("0:1-3"), gaps, "1-2 fell out of the tail");
        assertEquals(List.of(), out, "3 is waited for");
        gaps.clear();
        fifo.passed(0, 9); // a summary at 8 was applied
        assertEquals(List.of("0:9", "0:10"), out);
        assertEquals(List.of(), gaps, "the summary filled it: no gap");
        fifo.passed(0, 5); // an older summary: nothing moves back
        arrive(0, 11);
        assertEquals(List.of("0:9", "0:10", "0:11"), out);
        arrive(0, 4);
        arrive(0, 10);
        assertEquals(3, out.size(), "passed identifiers are never delivered again");
    }

    @Test
    void aResumedStreamGoesOnAtItsNextIdentifierWithoutAGap() {
        fifo.resume(1, 5000); // a restarted replica's own stream: 4999 and below came from its log
        arrive(1, 4999);
        arrive(1, 5001);
        arrive(1, 5000);
        assertEquals(List.of("1:5000", "1:5001"), out);
        assertEquals(List.of(), gaps);
        assertEquals(1, fifo.late());
        org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class, () -> fifo.resume(1, 6000));
    }

    @Test
    void theIdentifiersOfAHoleThatOutlastsTheWaitAreAskedForAgainAndAgainNeverSkipped() {
        List<String> asked = new ArrayList<>();
        FifoDelivery.HoleListener listener = (p, k) -> asked.add(p + ":" + k);
        arrive(0, 1);
        arrive(0, 3); // 2 is missing, and no t later identifiers will come (a quiet broadcaster)
        arrive(0, 5); // and 4
        assertEquals(0, fifo.askForHoles(1_000, 500, listener)); // the hole is seen
        assertEquals(0, fifo.askForHoles(1_400, 500, listener)); // not long enough yet
        assertEquals(List.of(), asked);
        assertEquals(1, fifo.askForHoles(1_500, 500, listener));
        assertEquals(List.of("0:2", "0:4"), asked);
        assertEquals(0, fifo.askForHoles(1_900, 500, listener));
        assertEquals(1, fifo.askForHoles(2_000, 500, listener)); // asked again every wait
        assertEquals(List.of("0:2", "0:4", "0:2", "0:4"), asked);
        assertEquals(2, fifo.holesAsked());
        assertEquals(List.of("0:1"), out, "nothing skipped");
        assertEquals(List.of(), gaps);
        arrive(0, 2); // the broadcaster sent it again
        arrive(0, 4);
        assertEquals(List.of("0:1", "0:2", "0:3", "0:4", "0:5"), out);
    }

    @Test
    void aHoleFilledInTimeOrMovedOnIsNotAskedFor() {
        List<String> asked = new ArrayList<>();
        FifoDelivery.HoleListener listener = (p, k) -> asked.add(p + ":" + k);
        arrive(1, 2);
        fifo.askForHoles(0, 500, listener); // 1 is missing since 0
        arrive(1, 1); // filled: 1 and 2 go out
        arrive(1, 4); // a new hole at 3
        fifo.askForHoles(400, 500, listener); // seen at 400
        assertEquals(0, fifo.askForHoles(800, 500, listener), "the hole at 3 is 400 old, not 800");
        arrive(1, 3);
        assertEquals(0, fifo.askForHoles(10_000, 500, listener), "nothing held");
        assertEquals(List.of(), asked);
        assertEquals(List.of("1:1", "1:2", "1:3", "1:4"), out);
    }

    @Test
    void duplicatesAndPassedIdentifiersAreNeverDeliveredAgain() {
        arrive(0, 1);
        arrive(0, 1);
        arrive(0, 3);
        arrive(0, 3);
        arrive(0, 2);
        arrive(0, 2);
        assertEquals(List.of("0:1", "0:2", "0:3"), out);
        assertEquals(2, fifo.late(), "the second 1 and the second 2 came after they went out (the second 3 "
            + "arrived while 3 was held, and replaced it)");
    }

    @Test
    void aMessageBeyondTheTailSkipsTheGapAndReportsIt() {
        arrive(0, 1);
        arrive(0, 3);
        arrive(0, 5);
        arrive(0, 14); // 14 >= next (2) + T: identifiers before 14 - T + 1 = 7 can no longer be waited for
        assertEquals(List.of("0:1", "0:3", "0:5"), out);
        assertEquals(List.of("0:2-3", "0:4-5", "0:6-7"), gaps);
        assertEquals(7, fifo.nextK(0));
        for (long k = 7; k <= 13; k++) {
            arrive(0, k);
        }
        assertEquals(List.of("0:1", "0:3", "0:5", "0:7", "0:8", "0:9", "0:10", "0:11", "0:12", "0:13", "0:14"), out);
    }

    @Test
    void aHugeIdentifierFromAByzantineBroadcasterCostsAGapNotMemoryOrTime() {
        arrive(1, 1);
        arrive(1, Long.MAX_VALUE / 4);
        assertEquals(List.of("1:1"), out);
        assertEquals(List.of("1:2-" + (Long.MAX_VALUE / 4 - T + 1)), gaps);
        arrive(1, 5);
        assertEquals(1, fifo.late(), "nothing goes backwards");
    }

    /**
     * A stream has one start (identifier 1) for the cluster's life. Issue "Byzantine hardening", attack 1: a Byzantine
     * leader that dropped its stream log restarted at a fresh epoch (low 22 bits clear) and talked only to a receiver
     * that had never heard it; that receiver took the new run's first message as the stream's start, with no gap and
     * so no SUMMARY, and delivered a second history. Now that message is t or more past identifier 1: a gap that only
     * a summary can fill, and nothing of it goes out before.
     */
    @Test
    void aStreamHasOneStartAndAnyOtherFirstMessageIsAGap() {
        long epoch = 5L << CtbcastNode.EPOCH_SHIFT;
        arrive(0, epoch + 2);
        arrive(0, epoch + 1);
        assertEquals(List.of("0:1-" + (epoch + 2 - T + 1)), gaps, "the first message heard near an epoch is a gap");
        assertEquals(List.of(), out, "held behind the t identifiers below them (consensus holds what follows a gap"
            + " until a summary covers it)");
        // identifiers from 1 are late once passed: a broadcaster that starts its stream again is not heard
        int before = out.size();
        arrive(0, 1);
        arrive(0, 2);
        assertEquals(before, out.size());
        assertEquals(2, fifo.late());
        // a receiver that first hears a broadcaster within t of identifier 1 missed nothing
        arrive(1, 3);
        arrive(1, 1);
        arrive(1, 2);
        assertEquals(List.of("1:1", "1:2", "1:3"), out.stream().filter(x -> x.startsWith("1:")).toList());
        assertEquals(1, gaps.size(), gaps.toString());
    }

    @Test
    void identifiersBeyondTheBoundAreDropped() {
        arrive(0, org.ubft.ctbcast.core.CtbcastMessage.MAX_K + 1);
        arrive(0, Long.MAX_VALUE);
        assertEquals(List.of(), out);
        assertEquals(List.of(), gaps);
        assertEquals(2, fifo.late());
        arrive(0, 1);
        assertEquals(List.of("0:1"), out);
    }

    @Test
    void whatIsHeldAfterAGapGoesOutAtOnce() {
        arrive(0, 1);
        for (long k = 3; k <= 9; k++) {
            arrive(0, k); // held: 2 is missing
        }
        assertEquals(List.of("0:1"), out);
        arrive(0, 12); // 12 >= next (2) + T: 2, 3 and 4 fall out of the tail wait; 5 .. 9 are held, 10 and 11 missing
        assertEquals(List.of("0:2-3"), gaps);
        assertEquals(List.of("0:1", "0:3", "0:4", "0:5", "0:6", "0:7", "0:8", "0:9"), out,
            "everything held up to the next missing identifier goes out with the skip, not one per later arrival");
        assertEquals(10, fifo.nextK(0));
        arrive(0, 11);
        arrive(0, 10);
        assertEquals(List.of("0:10", "0:11", "0:12"), out.subList(8, 11));
        assertEquals(0, fifo.late());
    }
}
