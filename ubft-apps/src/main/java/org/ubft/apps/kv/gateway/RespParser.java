package org.ubft.apps.kv.gateway;

import org.ubft.apps.kv.resp.RespCommands;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * RESP2 requests: multibulk ({@code *N CRLF} then N times {@code $LEN CRLF bytes CRLF}) and inline commands (a line
 * of space-separated arguments, with Redis's quoting). Bounded: at most {@code maxArgs} arguments, bulks of at most
 * {@code maxBulkBytes}, commands of at most {@code maxCommandBytes}, inline lines of at most 64 KiB. A framing error
 * answers Redis's "-ERR Protocol error: ..." and closes the connection (the stream cannot be resynchronised); an
 * unknown command is answered here ("-ERR unknown command ...": it touches no state) and the connection goes on;
 * QUIT answers +OK and closes.
 */
public final class RespParser implements Parser {
    /** Longest inline command or multibulk header line (Redis's PROTO_INLINE_MAX_SIZE). */
    public static final int MAX_INLINE_BYTES = 64 * 1024;

    private final int maxArgs;
    private final int maxBulkBytes;
    private final int maxCommandBytes;
    private int consumed;
    private int needed;

    public RespParser(int maxArgs, int maxBulkBytes, int maxCommandBytes) {
        this.maxArgs = maxArgs;
        this.maxBulkBytes = maxBulkBytes;
        this.maxCommandBytes = maxCommandBytes;
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
        if (pos >= limit) {
            return null;
        }
        return buf[pos] == '*' ? multibulk(buf, pos, limit) : inline(buf, pos, limit);
    }

    private static Command protocolError(String what) {
        return Command.local("-ERR Protocol error: " + what + "\r\n", true);
    }

    /** Index of the LF ending the line at {@code from}, or -1. */
    private static int lineEnd(byte[] buf, int from, int limit) {
        for (int i = from; i < limit; i++) {
            if (buf[i] == '\n') {
                return i;
            }
        }
        return -1;
    }

    /** The decimal of {@code buf[from, to)} (to excludes CR LF), or Long.MIN_VALUE if it is not one. */
    private static long number(byte[] buf, int from, int to) {
        if (to <= from || to - from > 19) {
            return Long.MIN_VALUE;
        }
        boolean negative = buf[from] == '-';
        int i = negative ? from + 1 : from;
        if (i == to) {
            return Long.MIN_VALUE;
        }
        long v = 0;
        for (; i < to; i++) {
            int d = buf[i] - '0';
            if (d < 0 || d > 9) {
                return Long.MIN_VALUE;
            }
            v = v * 10 + d;
        }
        return negative ? -v : v;
    }

    private Command multibulk(byte[] buf, int pos, int limit) {
        int nl = lineEnd(buf, pos, Math.min(limit, pos + MAX_INLINE_BYTES));
        if (nl < 0) {
            if (limit - pos >= MAX_INLINE_BYTES) {
                return protocolError("too big mbulk count string");
            }
            needed = limit - pos + 1;
            return null;
        }
        if (nl == pos || buf[nl - 1] != '\r') {
            return protocolError("invalid multibulk length");
        }
        long n = number(buf, pos + 1, nl - 1);
        if (n == Long.MIN_VALUE || n > maxArgs) {
            return protocolError("invalid multibulk length");
        }
        int p = nl + 1;
        if (n <= 0) {
            consumed = p - pos; // *0 and *-1: nothing to run
            return null;
        }
        List<byte[]> args = new ArrayList<>((int) Math.min(n, 64));
        long declared = 0;
        for (int i = 0; i < n; i++) {
            if (p >= limit) {
                needed = p - pos + 1;
                return null;
            }
            if (buf[p] != '$') {
                return protocolError("expected '$', got '" + printable(buf[p]) + "'");
            }
            int end = lineEnd(buf, p, Math.min(limit, p + 32));
            if (end < 0) {
                if (limit - p >= 32) {
                    return protocolError("invalid bulk length");
                }
                needed = limit - pos + 1;
                return null;
            }
            if (buf[end - 1] != '\r') {
                return protocolError("invalid bulk length");
            }
            long len = number(buf, p + 1, end - 1);
            if (len < 0 || len > maxBulkBytes) {
                return protocolError(len > maxBulkBytes ? "invalid bulk length (" + len + " bytes; this gateway"
                    + " accepts at most " + maxBulkBytes + ")" : "invalid bulk length");
            }
            declared += 4 + len;
            if (declared > maxCommandBytes) {
                return protocolError("command larger than this gateway's limit of " + maxCommandBytes + " bytes");
            }
            int data = end + 1;
            if ((long) data + len + 2 > limit) {
                needed = (int) (data + len + 2 - pos);
                return null;
            }
            if (buf[data + (int) len] != '\r' || buf[data + (int) len + 1] != '\n') {
                return protocolError("expected CRLF after a bulk of " + len + " bytes");
            }
            args.add(Arrays.copyOfRange(buf, data, data + (int) len));
            p = data + (int) len + 2;
        }
        consumed = p - pos;
        return command(args);
    }

    private static String printable(byte b) {
        return b >= 0x20 && b < 0x7F && b != '\'' ? String.valueOf((char) b) : String.format("\\x%02x", b & 0xFF);
    }

    private Command inline(byte[] buf, int pos, int limit) {
        int nl = lineEnd(buf, pos, Math.min(limit, pos + MAX_INLINE_BYTES));
        if (nl < 0) {
            if (limit - pos >= MAX_INLINE_BYTES) {
                return protocolError("too big inline request");
            }
            needed = limit - pos + 1;
            return null;
        }
        int end = nl > pos && buf[nl - 1] == '\r' ? nl - 1 : nl;
        List<byte[]> args = InlineSplitter.split(buf, pos, end);
        consumed = nl + 1 - pos;
        if (args == null) {
            return protocolError("unbalanced quotes in request");
        }
        if (args.isEmpty()) {
            return null; // an empty line
        }
        if (args.size() > maxArgs) {
            return protocolError("invalid multibulk length");
        }
        return command(args);
    }

    private static Command command(List<byte[]> args) {
        String name = new String(args.get(0), StandardCharsets.ISO_8859_1).toLowerCase(Locale.ROOT);
        if (name.equals("quit")) {
            return Command.local("+OK\r\n", true);
        }
        if (!RespCommands.isKnown(name)) {
            StringBuilder sb = new StringBuilder("-ERR unknown command '")
                .append(org.ubft.apps.kv.resp.Resp.printable(args.get(0))).append("', with args beginning with: ");
            for (int i = 1; i < args.size() && i < 4; i++) {
                sb.append('\'').append(org.ubft.apps.kv.resp.Resp.printable(args.get(i))).append("' ");
            }
            return Command.local(sb.append("\r\n").toString(), false);
        }
        return Command.store(args);
    }
}
