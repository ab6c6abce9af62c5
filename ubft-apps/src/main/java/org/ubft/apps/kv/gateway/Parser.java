package org.ubft.apps.kv.gateway;

/**
 * Reads commands of one protocol from a connection's bytes. Not thread-safe; one per connection (it may keep state
 * between calls, such as bytes still to skip).
 */
public interface Parser {
    /**
     * Parses one command from {@code buf[pos, limit)}. Returns it and sets {@link #consumed()}; returns null when the
     * bytes hold no whole command yet ({@link #needed()} then says how many bytes from {@code pos} must be there
     * before it is worth trying again), or when the bytes were consumed without a command (an empty line: then
     * {@link #consumed()} is positive).
     */
    Command parse(byte[] buf, int pos, int limit);

    /** Bytes the last call consumed. */
    int consumed();

    /** After a null without consumption: bytes from pos needed before parsing again (at least one more than had). */
    int needed();
}
