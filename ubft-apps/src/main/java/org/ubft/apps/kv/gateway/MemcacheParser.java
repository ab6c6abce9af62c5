package org.ubft.apps.kv.gateway;

import org.ubft.apps.kv.memcache.MemcacheCommands;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * memcached text protocol requests: a command line of space-separated tokens ending in CRLF (or LF), and for the
 * storage commands (set, add, replace, append, prepend, cas) a data block of the declared length and CRLF. Bounded:
 * lines of at most {@code maxLineBytes}, data blocks of at most {@code maxValueBytes} (a larger declared block is
 * answered "SERVER_ERROR object too large for cache" and skipped without being kept, as memcached does). A line too
 * long, a length that is not a number, or a data block not followed by CRLF cannot be resynchronised: answered with
 * a CLIENT_ERROR, then the connection is closed. Unknown commands are answered "ERROR" here; quit closes.
 */
public final class MemcacheParser implements Parser {
    private static final Set<String> KNOWN = Set.of("get", "gets", "gat", "gats", "set", "add", "replace", "append",
        "prepend", "cas", "delete", "incr", "decr", "touch", "flush_all", "version", "verbosity", "stats");
    /** A declared data block larger than this is not even skipped: the connection is closed. */
    static final long MAX_SKIP_BYTES = 1L << 30;

    private final int maxLineBytes;
    private final int maxValueBytes;
    private int consumed;
    private int needed;
    /** Bytes of an oversized data block still to skip. */
    private long skip;

    public MemcacheParser(int maxLineBytes, int maxValueBytes) {
        this.maxLineBytes = maxLineBytes;
        this.maxValueBytes = maxValueBytes;
    }

    @Override
    public int consumed() {
        return consumed;
    }

    @Override
    public int needed() {
        return needed;
    }

    @Override
    public Command parse(byte[] buf, int pos, int limit) {
        consumed = 0;
        needed = 1;
        if (skip > 0) {
            int n = (int) Math.min(skip, limit - pos);
            skip -= n;
            consumed = n;
            if (n == 0) {
                needed = 1;
            }
            return null;
        }
        int nl = -1;
        for (int i = pos, end = Math.min(limit, pos + maxLineBytes); i < end; i++) {
            if (buf[i] == '\n') {
                nl = i;
                break;
            }
        }
        if (nl < 0) {
            if (limit - pos >= maxLineBytes) {
                return Command.local("CLIENT_ERROR line too long (more than " + maxLineBytes + " bytes)\r\n", true);
            }
            needed = limit - pos + 1;
            return null;
        }
        int lineEnd = nl > pos && buf[nl - 1] == '\r' ? nl - 1 : nl;
        List<byte[]> tokens = tokens(buf, pos, lineEnd);
        int lineBytes = nl + 1 - pos;
        if (tokens.isEmpty()) {
            consumed = lineBytes;
            return Command.local("ERROR\r\n", false);
        }
        String name = new String(tokens.get(0), StandardCharsets.ISO_8859_1);
        if (name.equals("quit")) {
            consumed = lineBytes;
            return Command.local("", true);
        }
        if (!KNOWN.contains(name)) {
            consumed = lineBytes;
            return Command.local("ERROR\r\n", false);
        }
        if (!MemcacheCommands.isStorage(name)) {
            consumed = lineBytes;
            return Command.store(tokens);
        }
        if (tokens.size() < (name.equals("cas") ? 6 : 5)) {
            consumed = lineBytes;
            return Command.local("ERROR\r\n", false);
        }
        long length = declared(tokens.get(4));
        if (length < 0) {
            consumed = lineBytes;
            return Command.local("CLIENT_ERROR bad command line format\r\n", true);
        }
        if (length > maxValueBytes) {
            if (length + 2 > MAX_SKIP_BYTES) {
                consumed = lineBytes;
                return Command.local("SERVER_ERROR object too large for cache\r\n", true);
            }
            consumed = lineBytes;
            skip = length + 2;
            return Command.local("SERVER_ERROR object too large for cache\r\n", false);
        }
        long end = (long) nl + 1 + length + 2;
        if (end > limit) {
            needed = (int) (end - pos);
            return null;
        }
        int data = nl + 1;
        if (buf[data + (int) length] != '\r' || buf[data + (int) length + 1] != '\n') {
            consumed = (int) (end - pos);
            return Command.local("CLIENT_ERROR bad data chunk\r\n", true);
        }
        tokens.add(Arrays.copyOfRange(buf, data, data + (int) length));
        consumed = (int) (end - pos);
        return Command.store(tokens);
    }

    /** The declared data length, or -1 if the token is not a non-negative decimal of at most 10 digits. */
    private static long declared(byte[] token) {
        if (token.length == 0 || token.length > 10) {
            return -1;
        }
        long v = 0;
        for (byte b : token) {
            if (b < '0' || b > '9') {
                return -1;
            }
            v = v * 10 + (b - '0');
        }
        return v;
    }

    private static List<byte[]> tokens(byte[] buf, int from, int to) {
        List<byte[]> tokens = new ArrayList<>();
        int start = -1;
        for (int i = from; i <= to; i++) {
            boolean sep = i == to || buf[i] == ' ';
            if (sep && start >= 0) {
                tokens.add(Arrays.copyOfRange(buf, start, i));
                start = -1;
            } else if (!sep && start < 0) {
                start = i;
            }
        }
        return tokens;
    }
}
