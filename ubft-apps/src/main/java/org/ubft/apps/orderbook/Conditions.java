package org.ubft.apps.orderbook;

/**
 * Order conditions, a bit set: {@link #ALL_OR_NONE} trades only its whole open quantity at once,
 * {@link #IMMEDIATE_OR_CANCEL} never rests (what it cannot fill on entry is cancelled), {@link #FILL_OR_KILL} is both.
 */
public final class Conditions {
    /** No condition: a plain order. */
    public static final int NONE = 0;
    /** All-or-none: trades its whole open quantity in one operation or not at all; a resting AON keeps its place. */
    public static final int ALL_OR_NONE = 1;
    /** Immediate-or-cancel: the quantity not filled on entry is cancelled. */
    public static final int IMMEDIATE_OR_CANCEL = 2;
    /** Fill-or-kill: all-or-none and immediate-or-cancel. */
    public static final int FILL_OR_KILL = ALL_OR_NONE | IMMEDIATE_OR_CANCEL;

    private Conditions() {
    }

    /** Whether {@code conditions} holds only known bits. */
    public static boolean valid(int conditions) {
        return (conditions & ~FILL_OR_KILL) == 0;
    }

    /** Whether {@code conditions} has the all-or-none bit. */
    public static boolean allOrNone(int conditions) {
        return (conditions & ALL_OR_NONE) != 0;
    }

    /** Whether {@code conditions} has the immediate-or-cancel bit. */
    public static boolean immediateOrCancel(int conditions) {
        return (conditions & IMMEDIATE_OR_CANCEL) != 0;
    }
}
