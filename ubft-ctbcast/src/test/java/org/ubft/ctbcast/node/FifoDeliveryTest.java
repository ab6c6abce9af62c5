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

    @Test
    void theFirstMessagesOfARunStartingAtAnEpochAreNoGapButARestartIs() {
        long epoch = 5L << CtbcastNode.EPOCH_SHIFT;
        arrive(0, epoch + 2); // out of order within the first t of the run: held, no gap
        arrive(0, epoch + 1);
        assertEquals(List.of("0:" + (epoch + 1), "0:" + (epoch + 2)), out);
        assertEquals(List.of(), gaps);
        // broadcaster 0 restarts with a later epoch: what it sent before is unknown here, so that is a gap, up to the
        // new epoch and no further; the new run's messages go out as they come, the first one at once
        long later = 9L << CtbcastNode.EPOCH_SHIFT;
        arrive(0, later + 1);
        assertEquals(List.of("0:" + (epoch + 3) + "-" + (later + 1)), gaps);
        assertEquals("0:" + (later + 1), out.get(out.size() - 1));
        arrive(0, later + 3);
        arrive(0, later + 2);
        assertEquals(List.of("0:" + (later + 1), "0:" + (later + 2), "0:" + (later + 3)), out.subList(2, 5));
        assertEquals(1, gaps.size(), gaps.toString());
        // a receiver that first hears a broadcaster far into its run missed its earlier messages: a gap too
        arrive(1, epoch + 100);
        assertEquals("1:" + 1 + "-" + (epoch + 100 - T + 1), gaps.get(1));
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
