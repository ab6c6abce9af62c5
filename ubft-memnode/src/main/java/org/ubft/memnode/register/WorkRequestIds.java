package org.ubft.memnode.register;

import org.ubft.fabric.CompletionRouter;

/**
 * How register clients number their fabric operations, so that components sharing one fabric's completion
 * stream can be told apart: the component's tag, given at construction, sits in bits 63..48 of every
 * work-request id it posts; bits 47..0 are the component's own (see {@link RegisterWriter} and
 * {@link RegisterReader}). The layout is {@link CompletionRouter}'s, which dispatches on the tag.
 *
 * <p>Operation ids handed to callers by {@code write} and {@code read} are {@code generation << 16 | slot}:
 * a slot of the component's preallocated operation table and that slot's reuse count.
 */
public final class WorkRequestIds {
    /** Position of the tag in a work-request id. */
    public static final int TAG_SHIFT = CompletionRouter.SEQUENCE_BITS;
    public static final int MAX_TAG = CompletionRouter.MAX_TAG;
    /** Most operation slots of one component. */
    public static final int MAX_SLOTS = 1 << 16;
    static final int GENERATION_MASK = 0xFF_FFFF;

    private WorkRequestIds() {
    }

    /** The tag carried by {@code workRequestId}. */
    public static int tag(long workRequestId) {
        return CompletionRouter.tagOf(workRequestId);
    }

    /** {@code tag} in position, to be or-ed with a component's low 48 bits. */
    static long tagBits(int tag) {
        if (tag < 0 || tag > MAX_TAG) {
            throw new IllegalArgumentException("tag " + tag + " outside 0.." + MAX_TAG);
        }
        return CompletionRouter.compose(tag, 0);
    }

    static long operationId(int generation, int slot) {
        return ((long) (generation & GENERATION_MASK) << 16) | slot;
    }

    /** The slot of an operation id, or -1 if {@code operationId} cannot be one. */
    static int operationSlot(long operationId, int slots) {
        if (operationId < 0 || (operationId >>> 16) > GENERATION_MASK) {
            return -1;
        }
        int slot = (int) operationId & 0xFFFF;
        return slot < slots ? slot : -1;
    }

    static int operationGeneration(long operationId) {
        return (int) (operationId >>> 16) & GENERATION_MASK;
    }
}
