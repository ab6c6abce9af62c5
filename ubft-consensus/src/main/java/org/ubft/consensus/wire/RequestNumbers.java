package org.ubft.consensus.wire;

/**
 * Client sessions in the request number ({@link ClientWire}): the i64 number is a session (bits 23-62, the high 41
 * bits with the sign bit 0) and a sequence in it (bits 0-22, from 1). A client starts a new session whenever it starts
 * (the wall-clock milliseconds since {@link #EPOCH_MILLIS}), so a restarted client's numbers are above every number of
 * its earlier runs, and the replicas serve it although its sequence restarts at 1.
 *
 * <p>The one execution rule ({@link #isNext}): after request {@code last} of a client, request {@code number} is
 * executed iff it is {@code last + 1} in the same session, or the first request of a later session. A request of an
 * earlier session than {@code last}'s is stale. Numbers order as (session, sequence), so "executed already" is still
 * {@code number <= last}. Sequence 0 is no request (a malformed REQUEST).
 */
public final class RequestNumbers {
    public static final int SEQUENCE_BITS = 23;
    /** Largest sequence in a session: a client that reaches it starts a new session. */
    public static final long MAX_SEQUENCE = (1L << SEQUENCE_BITS) - 1;
    /** Largest session (numbers stay positive): 2^40 - 1 ms after the epoch, in 2059. */
    public static final long MAX_SESSION = (1L << (63 - SEQUENCE_BITS)) - 1;
    /** Sessions count milliseconds from 2025-01-01T00:00:00Z. */
    public static final long EPOCH_MILLIS = 1_735_689_600_000L;

    private RequestNumbers() {
    }

    public static long session(long number) {
        return number >>> SEQUENCE_BITS;
    }

    public static long sequence(long number) {
        return number & MAX_SEQUENCE;
    }

    /** Request {@code sequence} of {@code session}. */
    public static long number(long session, long sequence) {
        if (session < 0 || session > MAX_SESSION || sequence < 0 || sequence > MAX_SEQUENCE) {
            throw new IllegalArgumentException("session " + session + " sequence " + sequence);
        }
        return (session << SEQUENCE_BITS) | sequence;
    }

    /** The first request of {@code session}. */
    public static long first(long session) {
        return number(session, 1);
    }

    /** The session a client starting at wall-clock time {@code epochMillis} (ms since 1970) takes, at least 1. */
    public static long sessionAt(long epochMillis) {
        return Math.min(MAX_SESSION, Math.max(1, epochMillis - EPOCH_MILLIS));
    }

    /** Whether {@code number} is a request number at all: positive, sequence not 0. */
    public static boolean valid(long number) {
        return number > 0 && sequence(number) != 0;
    }

    /**
     * The execution rule: whether request {@code number} of a client is executed after its request {@code last} (0:
     * none yet): {@code last + 1}, or the first request of a later session.
     */
    public static boolean isNext(long last, long number) {
        long q = sequence(number);
        return number > 0 && q != 0 && (number == last + 1 || (q == 1 && session(number) > session(last)));
    }

    /**
     * Whether a replica keeps request {@code number} pending after executing {@code last}: it is one of the next
     * {@code window} of {@code last}'s session, or one of the first {@code window} of a later session (which may arrive
     * in any order before that session's first is executed).
     */
    public static boolean inWindow(long last, long number, int window) {
        if (!valid(number) || number <= last) {
            return false;
        }
        return session(number) == session(last) ? number - last <= window : sequence(number) <= window;
    }

    /** Whether {@code number} belongs to an earlier session than {@code last}: it is never executed any more. */
    public static boolean stale(long last, long number) {
        return session(number) < session(last);
    }
}
