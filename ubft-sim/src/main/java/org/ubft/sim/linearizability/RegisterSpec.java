package org.ubft.sim.linearizability;

/**
 * A read/write register of longs, initially 0: a write returns the value it wrote, a read the current value.
 * State: the register's value.
 */
public final class RegisterSpec implements SequentialSpec<Long, RegisterSpec.Op, Long> {
    /** A register operation: a read, or a write of {@code value}. */
    public record Op(boolean write, long value) {
        /** A read. */
        public static Op read() {
            return new Op(false, 0);
        }

        /** A write of {@code value}. */
        public static Op write(long value) {
            return new Op(true, value);
        }

        @Override
        public String toString() {
            return write ? "write(" + value + ")" : "read";
        }
    }

    @Override
    public Long initialState() {
        return 0L;
    }

    @Override
    public Long step(Long state, Op op, Long observed) {
        if (op.write()) {
            return observed == null || observed == op.value() ? op.value() : null;
        }
        return observed == null || observed.equals(state) ? state : null;
    }
}
