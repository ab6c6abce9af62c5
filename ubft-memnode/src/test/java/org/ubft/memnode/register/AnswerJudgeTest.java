package org.ubft.memnode.register;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** Sub-register encoding and the per-answer rules of paper §6.1, on hand-made answers. */
class AnswerJudgeTest {
    private static final long DELTA = 10_000;
    private static final long FAST = 2_000;
    private static final long SLOW = DELTA;

    private final RegisterLayout layout = new RegisterLayout(1, 1, 20);
    private final AnswerJudge judge = new AnswerJudge(layout, DELTA);
    private final int sub = layout.subRegisterBytes();

    private UnsafeBuffer register() {
        return new UnsafeBuffer(new byte[layout.registerBytes()]);
    }

    private void valid(UnsafeBuffer reg, int s, long ts) {
        UnsafeBuffer v = new UnsafeBuffer(new byte[layout.valueBytes()]);
        RegisterRegularityTest.fill(v, 0, ts);
        SubRegisterCodec.encode(reg, s * sub, layout, ts, v, 0);
    }

    private void invalid(UnsafeBuffer reg, int s, long ts) {
        valid(reg, s, ts);
        reg.putByte(s * sub + RegisterLayout.VALUE_OFFSET + 3, (byte) ~reg.getByte(s * sub + RegisterLayout.VALUE_OFFSET + 3));
    }

    private AnswerJudge.Verdict judge(UnsafeBuffer reg, long elapsed) {
        byte[] before = reg.byteArray().clone();
        AnswerJudge.Verdict v = judge.judge(reg, 0, elapsed);
        assertArrayEquals(before, reg.byteArray(), "judging must leave the answer as it was");
        return v;
    }

    @Test
    void anyMixOfTwoWritesIsDetected() {
        UnsafeBuffer a = register();
        UnsafeBuffer b = register();
        valid(a, 0, 4);
        valid(b, 0, 6);
        assertEquals(SubRegisterCodec.VALID, SubRegisterCodec.classify(a, 0, layout));
        int words = sub / 8;
        SplittableRandom random = new SplittableRandom(5);
        for (int trial = 0; trial < 2_000; trial++) {
            UnsafeBuffer mix = register();
            int fromB = 0;
            for (int w = 0; w < words; w++) {
                boolean takeB = trial < words ? w == trial : random.nextBoolean();
                fromB += takeB ? 1 : 0;
                mix.putLong(w * 8, (takeB ? b : a).getLong(w * 8));
            }
            int expected = fromB == 0 || fromB == words ? SubRegisterCodec.VALID : SubRegisterCodec.INVALID;
            assertEquals(expected, SubRegisterCodec.classify(mix, 0, layout), "trial " + trial);
        }
    }

    @Test
    void zerosAreTheEmptyRegisterAndNegativeTimestampsAreInvalid() {
        UnsafeBuffer reg = register();
        assertEquals(SubRegisterCodec.EMPTY, SubRegisterCodec.classify(reg, 0, layout));
        valid(reg, 0, -5);
        assertEquals(SubRegisterCodec.INVALID, SubRegisterCodec.classify(reg, 0, layout));
    }

    @Test
    void theValidSubRegisterWithTheHighestTimestampWins() {
        UnsafeBuffer reg = register();
        valid(reg, 0, 5);
        valid(reg, 1, 6);
        assertEquals(AnswerJudge.Verdict.SUB1, judge(reg, SLOW));
        valid(reg, 0, 7);
        assertEquals(AnswerJudge.Verdict.SUB0, judge(reg, SLOW));
        invalid(reg, 0, 9); // torn newer write: the older whole one is returned
        assertEquals(AnswerJudge.Verdict.SUB1, judge(reg, FAST));
        assertEquals(1, judge.lastInvalid());
        valid(reg, 0, 9);
        invalid(reg, 1, 10);
        assertEquals(AnswerJudge.Verdict.SUB0, judge(reg, SLOW));
    }

    @Test
    void aNeverWrittenRegisterHoldsTheDefaultValue() {
        UnsafeBuffer reg = register();
        assertEquals(AnswerJudge.Verdict.EMPTY, judge(reg, SLOW));
        invalid(reg, 0, 1); // first write in progress
        assertEquals(AnswerJudge.Verdict.EMPTY, judge(reg, SLOW));
        valid(reg, 0, 1);
        assertEquals(AnswerJudge.Verdict.SUB0, judge(reg, SLOW));
    }

    @Test
    void bothInvalidIsByzantineWhenTheReadWasFasterThanDeltaAndRetriedOtherwise() {
        UnsafeBuffer reg = register();
        invalid(reg, 0, 1);
        invalid(reg, 1, 2);
        assertEquals(AnswerJudge.Verdict.BYZANTINE, judge(reg, FAST));
        assertEquals(2, judge.lastInvalid());
        assertEquals(AnswerJudge.Verdict.BYZANTINE, judge(reg, DELTA - 1));
        assertEquals(AnswerJudge.Verdict.RETRY, judge(reg, SLOW));
        assertEquals(AnswerJudge.Verdict.RETRY, judge(reg, 10 * DELTA));
    }

    @Test
    void equalTimestampsAreByzantine() {
        UnsafeBuffer reg = register();
        valid(reg, 0, 3);
        valid(reg, 1, 3);
        assertEquals(AnswerJudge.Verdict.BYZANTINE, judge(reg, FAST));
        assertEquals(AnswerJudge.Verdict.BYZANTINE, judge(reg, SLOW));
    }
}
