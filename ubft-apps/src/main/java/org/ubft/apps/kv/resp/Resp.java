package org.ubft.apps.kv.resp;

import org.ubft.apps.kv.store.ReplyBuffer;

/** RESP2 reply encoding. */
public final class Resp {
    private Resp() {
    }

    public static void ok(ReplyBuffer out) {
        out.ascii("+OK").crlf();
    }

    public static void simple(ReplyBuffer out, String s) {
        out.write((byte) '+').ascii(s).crlf();
    }

    /** An error reply; {@code message} starts with its code (ERR, OOM, ...) and has no CR or LF. */
    public static void error(ReplyBuffer out, String message) {
        out.write((byte) '-').ascii(message).crlf();
    }

    public static void integer(ReplyBuffer out, long v) {
        out.write((byte) ':').decimal(v).crlf();
    }

    public static void bulk(ReplyBuffer out, byte[] b) {
        if (b == null) {
            nil(out);
            return;
        }
        out.write((byte) '$').decimal(b.length).crlf().write(b).crlf();
    }

    public static void nil(ReplyBuffer out) {
        out.ascii("$-1").crlf();
    }

    public static void arrayHeader(ReplyBuffer out, int n) {
        out.write((byte) '*').decimal(n).crlf();
    }

    /** The text of an argument for an error message: printable ASCII kept, anything else escaped, at most 128. */
    public static String printable(byte[] b) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < b.length && sb.length() < 128; i++) {
            int c = b[i] & 0xFF;
            if (c >= 0x20 && c < 0x7F && c != '\'') {
                sb.append((char) c);
            } else {
                sb.append(String.format("\\x%02x", c));
            }
        }
        return sb.toString();
    }
}
