package org.ubft.apps.kv;

/**
 * The status byte of a key-value reply ({@link KvReplyCodec}). Every reply carries one status and one value; what the
 * value means depends on the operation and the status (see {@link KvStore}).
 */
public enum KvStatus {
    /** The operation took effect (GET found the key, PUT stored, INCR added, CAS swapped). */
    OK(0),
    /** GET or CAS of a key that holds no value; nothing changed. */
    NOT_FOUND(1),
    /** CAS whose expected value differs from the current one; nothing changed, the value is the current one. */
    CAS_FAILED(2),
    /** PUT or INCR of a new key while the store already holds its maximum number of keys; nothing changed. */
    FULL(3),
    /** INCR whose result does not fit in a long; nothing changed, the value is the current one. */
    OVERFLOW(4),
    /** The request is not a request of {@link KvRequestCodec}; nothing changed. */
    MALFORMED(5);

    private static final KvStatus[] BY_CODE = values();

    private final int code;

    KvStatus(int code) {
        this.code = code;
    }

    /** The wire code. */
    public int code() {
        return code;
    }

    /** The status with wire code {@code code}, or {@code null} if there is none. */
    public static KvStatus ofCode(int code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}
