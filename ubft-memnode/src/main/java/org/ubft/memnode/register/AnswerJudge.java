package org.ubft.memnode.register;

import org.agrona.MutableDirectBuffer;

/**
 * What one memory node's answer to a register READ (both sub-registers at once) says, by the rules of paper
 * §6.1. Byzantine contents are data: every input yields a verdict, none throws. One instance per reader; it
 * remembers how many invalid sub-registers the last answer had, for counters.
 */
final class AnswerJudge {
    /** Outcome of one answer. */
    enum Verdict {
        /** Sub-register 0 holds the answer's value. */
        SUB0,
        /** Sub-register 1 holds the answer's value. */
        SUB1,
        /** The register was never written: the default value. */
        EMPTY,
        /** The writer is Byzantine: the default value. */
        BYZANTINE,
        /** Both sub-registers invalid and the READ was slow: read that node again. */
        RETRY
    }

    private final RegisterLayout layout;
    private final long cooldownNanos;
    private int lastInvalid;

    AnswerJudge(RegisterLayout layout, long cooldownNanos) {
        this.layout = layout;
        this.cooldownNanos = cooldownNanos;
    }

    /**
     * @param register     the bytes of both sub-registers, from {@code index}; checksum fields are restored
     * @param elapsedNanos how long the READ took, from post to completion
     */
    Verdict judge(MutableDirectBuffer register, int index, long elapsedNanos) {
        int second = index + layout.subRegisterBytes();
        int c0 = SubRegisterCodec.classify(register, index, layout);
        int c1 = SubRegisterCodec.classify(register, second, layout);
        lastInvalid = (c0 == SubRegisterCodec.INVALID ? 1 : 0) + (c1 == SubRegisterCodec.INVALID ? 1 : 0);
        if (c0 == SubRegisterCodec.VALID && c1 == SubRegisterCodec.VALID) {
            long ts0 = SubRegisterCodec.timestamp(register, index);
            long ts1 = SubRegisterCodec.timestamp(register, second);
            if (ts0 == ts1) {
                return Verdict.BYZANTINE; // §6.1: both sub-registers carry the same timestamp
            }
            return ts0 > ts1 ? Verdict.SUB0 : Verdict.SUB1;
        }
        if (c0 == SubRegisterCodec.VALID) {
            return Verdict.SUB0;
        }
        if (c1 == SubRegisterCodec.VALID) {
            return Verdict.SUB1;
        }
        if (c0 == SubRegisterCodec.EMPTY || c1 == SubRegisterCodec.EMPTY) {
            return Verdict.EMPTY; // never written, or its first WRITE is in progress
        }
        // §6.1, both checksums invalid: a correct writer waits δ between WRITEs to a register, so a READ
        // shorter than δ cannot overlap WRITEs to both sub-registers; the writer is Byzantine. A READ that
        // took δ or longer proves nothing and is retried.
        return elapsedNanos < cooldownNanos ? Verdict.BYZANTINE : Verdict.RETRY;
    }

    /** Invalid sub-registers (torn or bogus) in the last judged answer: 0, 1 or 2. */
    int lastInvalid() {
        return lastInvalid;
    }
}
