package org.ubft.ctbcast.core;

/**
 * Tokens the core hands its ports, so that results find their way back: kind (bits 63..61), stream = the
 * broadcaster's index (60..53), replica q whose register is concerned (52..45), slot k mod t (44..29) and a
 * generation (28..0) that tells a current request from a stale one.
 */
final class Tokens {
    static final int VERIFY_SIGNED = 1;
    static final int VERIFY_REGISTER = 2;
    static final int SIGN = 3;
    static final int WRITE = 4;
    static final int READ = 5;
    static final int GENERATION_MASK = (1 << 29) - 1;

    private Tokens() {
    }

    static long of(int kind, int stream, int q, int slot, int generation) {
        return ((long) kind << 61) | ((long) stream << 53) | ((long) q << 45) | ((long) slot << 29)
            | (generation & GENERATION_MASK);
    }

    static int kind(long token) {
        return (int) (token >>> 61);
    }

    static int stream(long token) {
        return (int) (token >>> 53) & 0xFF;
    }

    static int q(long token) {
        return (int) (token >>> 45) & 0xFF;
    }

    static int slot(long token) {
        return (int) (token >>> 29) & 0xFFFF;
    }

    static int generation(long token) {
        return (int) token & GENERATION_MASK;
    }
}
