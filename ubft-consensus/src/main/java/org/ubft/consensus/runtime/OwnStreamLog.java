package org.ubft.consensus.runtime;

import org.agrona.DirectBuffer;
import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.common.Checksums;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The durable part of a replica's own CTBcast stream, so that a restarted replica goes on with its stream instead of
 * starting a new one its peers cannot summarize: its latest SUMMARY (Algorithm 4, line 8) and the messages it
 * broadcast after it, each written before it is broadcast. A correct replica broadcasts at most t messages after its
 * latest summary (Algorithm 4, lines 4-5), so the log is a fixed-size region: a header, two summary slots (the newer
 * is the latest; the older survives a write torn by a crash) and t message slots indexed k mod t.
 *
 * <p>Each record carries an xxHash64 of its identifier, length and bytes: a record torn by a crash fails it and counts
 * as never written (write-ahead: its message was not broadcast yet). The file is memory-mapped; by default it is not
 * forced to the device, so it survives the crash of the process (kill -9), not a crash of the machine; with
 * {@code durability.fsync} each record is forced before its message leaves.
 *
 * <p>Not thread-safe: the replica's thread writes it; {@link #recover()} runs once, before the first write.
 */
public final class OwnStreamLog implements AutoCloseable {
    private static final long MAGIC = 0x314E_574F_5446_4255L; // "UBFTOWN1", little-endian
    private static final int VERSION = 1;
    private static final int HEADER = 64;
    private static final int FIRST_K_AT = 24;
    private static final int RECORD_HEADER = 24; // i64 k, i32 length, i32 pad, i64 checksum

    /** The log cannot be used: the message names the file, the problem and the fix. */
    public static final class UnusableLogException extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        UnusableLogException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** What an earlier run of this replica left in its log. */
    public record Recovered(long firstK, long summaryK, byte[] summary, List<byte[]> messages) {
        /** Nothing: a first run, or no log. */
        public static final Recovered NOTHING = new Recovered(0, -1, null, List.of());

        /** Whether an earlier run broadcast anything. */
        public boolean isEmpty() {
            return firstK == 0;
        }

        /** The identifier of the first logged message after the summary (the first to broadcast again). */
        public long resumeK() {
            return summaryK >= 0 ? summaryK + 1 : firstK;
        }
    }

    private final int t;
    private final int maxMessage;
    private final int maxSummary;
    private final int messageSlot;
    private final int summarySlot;
    private final UnsafeBuffer region;
    private final MappedByteBuffer mapped;
    private final Path file;
    /** The slot (0 or 1) of the latest summary; the next goes to the other. */
    private int latestSummarySlot = 1;
    /** Whether each record is forced to the device before {@link #append} and {@link #summary} return. */
    private boolean fsync;
    private boolean forcedHeader;

    private OwnStreamLog(UnsafeBuffer region, MappedByteBuffer mapped, Path file, int t, int maxMessage,
                         int maxSummary) {
        this.region = region;
        this.mapped = mapped;
        this.file = file;
        this.t = t;
        this.maxMessage = maxMessage;
        this.maxSummary = maxSummary;
        this.messageSlot = messageSlot(maxMessage);
        this.summarySlot = summarySlot(maxSummary);
    }

    private static int messageSlot(int maxMessage) {
        return RECORD_HEADER + align(maxMessage);
    }

    private static int summarySlot(int maxSummary) {
        return RECORD_HEADER + align(maxSummary);
    }

    private static int size(int t, int maxMessage, int maxSummary) {
        return HEADER + 2 * summarySlot(maxSummary) + t * messageSlot(maxMessage);
    }

    /** A log in memory, for the simulator and tests (it survives a replica's restart as long as the object does). */
    public static OwnStreamLog inMemory(int t, int maxMessageBytes, int maxSummaryBytes) {
        return new OwnStreamLog(new UnsafeBuffer(new byte[size(t, maxMessageBytes, maxSummaryBytes)]), null, null, t,
            maxMessageBytes, maxSummaryBytes);
    }

    /**
     * A copy of this log as it is now, in memory: the simulator's "disk" rolled back to this moment (a replica
     * restarted with an old backup of its data directory: amnesia, which makes it count as faulty).
     */
    public OwnStreamLog copyInMemory() {
        byte[] bytes = new byte[region.capacity()];
        region.getBytes(0, bytes);
        OwnStreamLog copy = new OwnStreamLog(new UnsafeBuffer(bytes), null, null, t, maxMessage, maxSummary);
        copy.latestSummarySlot = latestSummarySlot;
        return copy;
    }

    /**
     * The log in {@code file}, created (with its directories) if missing.
     *
     * @throws UnusableLogException if the file cannot be created or mapped, is another kind of file, or was written
     *                               with another tail or message size (the message says how to go on)
     */
    public static OwnStreamLog open(Path file, int t, int maxMessageBytes, int maxSummaryBytes) {
        return open(file, t, maxMessageBytes, maxSummaryBytes, false);
    }

    /**
     * As {@link #open(Path, int, int, int)}; with {@code fsync} every record is forced to the device before the
     * method that writes it returns ({@code durability.fsync}: the stream survives a power loss too).
     */
    public static OwnStreamLog open(Path file, int t, int maxMessageBytes, int maxSummaryBytes, boolean fsync) {
        long size = size(t, maxMessageBytes, maxSummaryBytes);
        try {
            MappedLogFile m = MappedLogFile.map(file, size, what -> mismatch(file, what));
            MappedByteBuffer mapped = m.buffer();
            boolean existed = m.existed();
            OwnStreamLog log = new OwnStreamLog(new UnsafeBuffer(mapped), mapped, file, t, maxMessageBytes,
                maxSummaryBytes);
            if (existed && !log.blankHeader()) {
                log.checkHeader();
            }
            log.writeHeader(); // at once: a replica that never broadcast leaves a log its restart recognises
            log.fsync = fsync;
            if (fsync) {
                mapped.force(0, HEADER);
            }
            return log;
        } catch (IOException e) {
            throw new UnusableLogException("cannot open the replica's stream log " + file + ": " + e
                + "; check that its directory is writable (replica option --data-dir)", e);
        }
    }

    private static String mismatch(Path file, String what) {
        return "the replica's stream log " + file + " was written by another configuration (" + what + "); restore"
            + " the configuration it was written with, or delete the file to start this replica's stream afresh (it"
            + " then recovers its state from the others but cannot take part in a view change until its next"
            + " summary)";
    }

    /**
     * Whether the header is all zeros: a log created by a run that broadcast nothing before this version wrote the
     * header at open (then the file was only sized), or one whose creation a crash cut short: nothing in it.
     */
    private boolean blankHeader() {
        for (int i = 0; i < HEADER; i += 8) {
            if (region.getLong(i) != 0) {
                return false;
            }
        }
        return true;
    }

    /** Magic, version and this configuration's sizes; the first identifier stays 0 until the first append. */
    private void writeHeader() {
        region.putLong(0, MAGIC);
        region.putInt(8, VERSION);
        region.putInt(12, t);
        region.putInt(16, maxMessage);
        region.putInt(20, maxSummary);
    }

    private void checkHeader() {
        if (region.getLong(0) != MAGIC || region.getInt(8) != VERSION) {
            throw new UnusableLogException(mismatch(file, "not a version " + VERSION + " stream log"), null);
        }
        if (region.getInt(12) != t || region.getInt(16) != maxMessage || region.getInt(20) != maxSummary) {
            throw new UnusableLogException(mismatch(file, "tail " + region.getInt(12) + ", messages up to "
                + region.getInt(16) + " bytes, summaries up to " + region.getInt(20) + "; now " + t + ", " + maxMessage
                + ", " + maxSummary), null);
        }
    }

    private static int align(int bytes) {
        return (bytes + 7) & ~7;
    }

    /**
     * What an earlier run left: its first identifier, its latest intact summary and the intact messages after it, in
     * identifier order up to the first one missing. Call once, before {@link #append}.
     */
    public Recovered recover() {
        if (!hasStream()) {
            return Recovered.NOTHING;
        }
        long firstK = region.getLong(FIRST_K_AT);
        long summaryK = -1;
        int best = -1;
        for (int s = 0; s < 2; s++) {
            int at = HEADER + s * summarySlot;
            if (intact(at, maxSummary) && region.getLong(at) > summaryK) {
                summaryK = region.getLong(at);
                best = at;
            }
        }
        byte[] summary = null;
        if (best >= 0) {
            summary = new byte[region.getInt(best + 8)];
            region.getBytes(best + RECORD_HEADER, summary);
            latestSummarySlot = (best - HEADER) / summarySlot; // the next summary goes to the other slot
        }
        List<byte[]> messages = new ArrayList<>();
        for (long k = summaryK >= 0 ? summaryK + 1 : firstK; ; k++) {
            int at = messageAt(k);
            if (!intact(at, maxMessage) || region.getLong(at) != k) {
                break;
            }
            byte[] m = new byte[region.getInt(at + 8)];
            region.getBytes(at + RECORD_HEADER, m);
            messages.add(m);
        }
        return new Recovered(firstK, summaryK, summary, messages);
    }

    /** Whether a run of this replica broadcast something (the header holds its first identifier). */
    private boolean hasStream() {
        return region.getLong(0) == MAGIC && region.getLong(FIRST_K_AT) != 0;
    }

    private boolean intact(int at, int max) {
        long k = region.getLong(at);
        int length = region.getInt(at + 8);
        return k > 0 && length >= 0 && length <= max && region.getLong(at + 16) == checksum(at, length);
    }

    private long checksum(int at, int length) {
        return Checksums.xxHash64(region, at, 12) ^ Long.rotateLeft(Checksums.xxHash64(region, at + RECORD_HEADER,
            length), 17);
    }

    /** Before this replica broadcasts its message {@code k}: writes it to slot k mod t. */
    public void append(long k, DirectBuffer message, int offset, int length) {
        if (length > maxMessage) {
            throw new IllegalArgumentException("message of " + length + " bytes; the log holds up to " + maxMessage);
        }
        if (!hasStream()) { // the first message ever: k is the stream's first identifier
            writeHeader();
            region.putLong(FIRST_K_AT, k);
        }
        write(messageAt(k), k, message, offset, length);
    }

    /** This replica's SUMMARY at {@code k} formed: written over the older of the two summary slots. */
    public void summary(long k, DirectBuffer message, int offset, int length) {
        if (length > maxSummary) {
            throw new IllegalArgumentException("summary of " + length + " bytes; the log holds up to " + maxSummary);
        }
        if (!hasStream()) {
            return; // nothing broadcast yet (cannot happen: a summary is about a broadcast message)
        }
        latestSummarySlot ^= 1;
        write(HEADER + latestSummarySlot * summarySlot, k, message, offset, length);
    }

    private void write(int at, long k, DirectBuffer message, int offset, int length) {
        region.putLong(at + 16, 0); // torn from here until the checksum is back
        region.putLong(at, k);
        region.putInt(at + 8, length);
        region.putInt(at + 12, 0);
        region.putBytes(at + RECORD_HEADER, message, offset, length);
        region.putLong(at + 16, checksum(at, length));
        if (fsync && mapped != null) {
            mapped.force(at, RECORD_HEADER + length);
            if (!forcedHeader) {
                mapped.force(0, HEADER); // the first identifier, written by the first append
                forcedHeader = true;
            }
        }
    }

    private int messageAt(long k) {
        return HEADER + 2 * summarySlot + (int) (k % t) * messageSlot;
    }

    /** The file, or "the in-memory log". */
    public String describe() {
        return file != null ? file.toString() : "the in-memory log";
    }

    /** Unmaps the file (an in-memory log stays as it is). */
    @Override
    public void close() {
        if (mapped != null) {
            IoUtil.unmap(mapped);
        }
    }
}
