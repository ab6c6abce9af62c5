package org.ubft.apps.kv.gateway;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits an inline Redis command into arguments as Redis's sdssplitargs does: spaces separate arguments;
 * "double quotes" allow \n \r \t \b \a \\ \" and \xHH escapes; 'single quotes' allow \'; a closing quote must be
 * followed by a space or the end.
 */
final class InlineSplitter {
    private InlineSplitter() {
    }

    /** The arguments of {@code buf[from, to)}, or null if its quotes are unbalanced. */
    static List<byte[]> split(byte[] buf, int from, int to) {
        List<byte[]> args = new ArrayList<>();
        int p = from;
        while (true) {
            while (p < to && isSpace(buf[p])) {
                p++;
            }
            if (p >= to) {
                return args;
            }
            ByteArrayOutputStream cur = new ByteArrayOutputStream();
            boolean inDouble = false;
            boolean inSingle = false;
            boolean done = false;
            while (!done) {
                if (inDouble) {
                    if (p >= to) {
                        return null;
                    }
                    if (buf[p] == '\\' && p + 3 < to && buf[p + 1] == 'x' && hex(buf[p + 2]) >= 0
                        && hex(buf[p + 3]) >= 0) {
                        cur.write(hex(buf[p + 2]) * 16 + hex(buf[p + 3]));
                        p += 3;
                    } else if (buf[p] == '\\' && p + 1 < to) {
                        p++;
                        cur.write(switch (buf[p]) {
                            case 'n' -> '\n';
                            case 'r' -> '\r';
                            case 't' -> '\t';
                            case 'b' -> '\b';
                            case 'a' -> 7;
                            default -> buf[p];
                        });
                    } else if (buf[p] == '"') {
                        if (p + 1 < to && !isSpace(buf[p + 1])) {
                            return null; // a closing quote must be followed by a space
                        }
                        done = true;
                    } else {
                        cur.write(buf[p]);
                    }
                } else if (inSingle) {
                    if (p >= to) {
                        return null;
                    }
                    if (buf[p] == '\\' && p + 1 < to && buf[p + 1] == '\'') {
                        p++;
                        cur.write('\'');
                    } else if (buf[p] == '\'') {
                        if (p + 1 < to && !isSpace(buf[p + 1])) {
                            return null;
                        }
                        done = true;
                    } else {
                        cur.write(buf[p]);
                    }
                } else if (p >= to || isSpace(buf[p])) {
                    done = true;
                } else if (buf[p] == '"') {
                    inDouble = true;
                } else if (buf[p] == '\'') {
                    inSingle = true;
                } else {
                    cur.write(buf[p]);
                }
                if (p < to) {
                    p++;
                }
            }
            args.add(cur.toByteArray());
        }
    }

    private static boolean isSpace(byte b) {
        return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == 0x0B || b == '\f';
    }

    private static int hex(byte b) {
        return Character.digit(b, 16);
    }
}
