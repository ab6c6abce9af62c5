package org.ubft.apps.kv.store;

/** Strict decimal parsing of command arguments (no sign where none is allowed, no spaces, no overflow). */
public final class Numbers {
    private Numbers() {
    }

    /**
     * Redis's integer syntax (string2ll): an optional '-', then digits without leading zeros ("0" alone), at most
     * 20 characters, in the range of a long. Returns null if {@code b} is not one.
     */
    public static Long redisLong(byte[] b) {
        if (b.length == 0 || b.length > 20) {
            return null;
        }
        int i = 0;
        boolean negative = b[0] == '-';
        if (negative) {
            i = 1;
            if (b.length == 1) {
                return null;
            }
        }
        if (b[i] == '0' && (b.length > i + 1 || negative)) {
            return null;
        }
        long v = 0;
        for (; i < b.length; i++) {
            int d = b[i] - '0';
            if (d < 0 || d > 9) {
                return null;
            }
            // accumulate negatively: Long.MIN_VALUE has no positive counterpart
            if (v < (Long.MIN_VALUE + d) / 10) {
                return null;
            }
            v = v * 10 - d;
        }
        if (!negative) {
            if (v == Long.MIN_VALUE) {
                return null;
            }
            v = -v;
        }
        return v;
    }

    /**
     * An unsigned decimal of at most 20 digits that fits in 64 bits (memcached's incr/decr and CAS values), as the
     * long with the same bits; null if {@code b} is not one.
     */
    public static Long unsigned64(byte[] b) {
        if (b.length == 0 || b.length > 20) {
            return null;
        }
        long v = 0;
        for (byte c : b) {
            int d = c - '0';
            if (d < 0 || d > 9) {
                return null;
            }
            // v * 10 + d must not pass 2^64 - 1
            if (Long.compareUnsigned(v, Long.divideUnsigned(-1L - d, 10)) > 0) {
                return null;
            }
            v = v * 10 + d;
        }
        return v;
    }

    /** A (possibly negative) decimal int such as memcached's flags or exptime; null if not one or out of range. */
    public static Long decimal(byte[] b, long min, long max) {
        Long v = b.length > 0 && b[0] == '-' ? redisLong(b) : unsignedOrNull(b);
        return v == null || v < min || v > max ? null : v;
    }

    private static Long unsignedOrNull(byte[] b) {
        Long v = unsigned64(b);
        return v == null || v < 0 ? null : v;
    }
}
