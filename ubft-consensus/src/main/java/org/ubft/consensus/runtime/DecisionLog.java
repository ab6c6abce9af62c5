package org.ubft.consensus.runtime;

import org.agrona.DirectBuffer;
import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.common.Checksums;
import org.ubft.consensus.replica.DecisionStore;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * A replica's {@link DecisionStore} in its data directory, so that a cluster whose replicas all crashed comes back
 * with every request it acknowledged (docs/design.md §13). Two files:
 * <ul>
 *   <li>{@code replica-N.checkpoint}: the latest stable checkpoint this replica holds the state of (sequence number,
 *       digest, certificate, state), replaced as a whole by writing a new file and renaming it over the old one (a
 *       crash leaves the old or the new, never a mix), with an xxHash64 over the content;</li>
 *   <li>{@code replica-N.decisions}: the batches of the slots executed after it, each written before its replies
 *       leave, in a memory-mapped file of W records indexed slot mod W (execution never runs more than W slots past
 *       the checkpoint), each record with an xxHash64: a record torn by a crash counts as never written (its slot's
 *       replies had not left).</li>
 * </ul>
 * By default both survive the crash of the process (kill -9), not of the machine: nothing is forced to the device.
 * With {@code durability.fsync = true} each record and checkpoint is forced to the device before the replica goes on
 * (its replies wait for it), which survives power loss and costs a device flush per executed slot.
 *
 * <p>Not thread-safe: the replica's thread writes it; {@link #recover()} runs once, before the first write.
 */
public final class DecisionLog implements DecisionStore, AutoCloseable {
    private static final long MAGIC = 0x3143_4544_5446_4255L; // "UBFTDEC1", little-endian
    private static final long CHECKPOINT_MAGIC = 0x3150_4B43_5446_4255L; // "UBFTCKP1"
    private static final int VERSION = 1;
    private static final int HEADER = 64;
    private static final int RECORD_HEADER = 24; // i64 slot, i32 length, i32 pad, i64 checksum
    private static final int CHECKPOINT_HEADER = 8 + 4 + 4 + 8 + 32 + 4 + 4;

    /** What an earlier run left: a checkpoint (or none: {@code state == null}, slot 0) and the batches after it. */
    public record Recovered(long seq, byte[] digest, byte[] shares, byte[] state, List<byte[]> batches) {
        /** Nothing kept: a first run, or no data directory. */
        public static final Recovered NOTHING = new Recovered(0, null, null, null, List.of());

        /** Whether an earlier run kept nothing. */
        public boolean isEmpty() {
            return state == null && batches.isEmpty();
        }
    }

    private final int window;
    private final int maxBatch;
    private final int recordSlot;
    private final UnsafeBuffer region;
    private final MappedByteBuffer mapped;
    private final Path decisionsFile;
    private final Path checkpointFile;
    private final boolean fsync;
    /** The in-memory log's checkpoint file (null: none yet, or kept on disk). */
    private byte[] checkpointInMemory;

    private DecisionLog(UnsafeBuffer region, MappedByteBuffer mapped, Path decisionsFile, Path checkpointFile,
                        int window, int maxBatch, boolean fsync) {
        this.region = region;
        this.mapped = mapped;
        this.decisionsFile = decisionsFile;
        this.checkpointFile = checkpointFile;
        this.window = window;
        this.maxBatch = maxBatch;
        this.recordSlot = RECORD_HEADER + align(maxBatch);
        this.fsync = fsync;
    }

    private static int align(int bytes) {
        return (bytes + 7) & ~7;
    }

    private static long size(int window, int maxBatch) {
        return HEADER + (long) window * (RECORD_HEADER + align(maxBatch));
    }

    /** A log in memory (for tests; it survives a replica's restart as long as the object does). */
    public static DecisionLog inMemory(int window, int maxBatchBytes) {
        long size = size(window, maxBatchBytes);
        if (size > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("a decision log of " + size + " bytes");
        }
        DecisionLog log = new DecisionLog(new UnsafeBuffer(new byte[(int) size]), null, null, null, window,
            maxBatchBytes, false);
        log.writeHeader();
        return log;
    }

    /**
     * The log in {@code decisionsFile} and {@code checkpointFile} (created, with their directory, if missing).
     *
     * @throws OwnStreamLog.UnusableLogException if a file cannot be created or mapped, is another kind of file, or was
     *                                           written with another window or batch size (the message says how to
     *                                           go on)
     */
    public static DecisionLog open(Path decisionsFile, Path checkpointFile, int window, int maxBatchBytes,
                                   boolean fsync) {
        long size = size(window, maxBatchBytes);
        if (size > Integer.MAX_VALUE) {
            throw new OwnStreamLog.UnusableLogException("a decision log of " + size + " bytes (consensus.window"
                + " times the batch size) does not fit one mapping; lower consensus.window or consensus.batch", null);
        }
        try {
            MappedLogFile m = MappedLogFile.map(decisionsFile, size, what -> mismatch(decisionsFile, what));
            DecisionLog log = new DecisionLog(new UnsafeBuffer(m.buffer()), m.buffer(), decisionsFile, checkpointFile,
                window, maxBatchBytes, fsync);
            if (m.existed() && log.region.getLong(0) != 0) {
                log.checkHeader();
            }
            log.writeHeader();
            return log;
        } catch (IOException e) {
            throw new OwnStreamLog.UnusableLogException("cannot open the replica's decision log " + decisionsFile + ": "
                + e + "; check that its directory is writable (replica option --data-dir)", e);
        }
    }

    private static String mismatch(Path file, String what) {
        return "the replica's decision log " + file + " was written by another configuration (" + what + "); restore"
            + " the configuration it was written with, or delete it and the .checkpoint file next to it (the replica"
            + " then fetches its state from the others; if every replica lost its files, the cluster starts empty)";
    }

    private void writeHeader() {
        region.putLong(0, MAGIC);
        region.putInt(8, VERSION);
        region.putInt(12, window);
        region.putInt(16, maxBatch);
    }

    private void checkHeader() {
        if (region.getLong(0) != MAGIC || region.getInt(8) != VERSION) {
            throw new OwnStreamLog.UnusableLogException(mismatch(decisionsFile, "not a version " + VERSION
                + " decision log"), null);
        }
        if (region.getInt(12) != window || region.getInt(16) != maxBatch) {
            throw new OwnStreamLog.UnusableLogException(mismatch(decisionsFile, "window " + region.getInt(12)
                + ", batches up to " + region.getInt(16) + " bytes; now " + window + ", " + maxBatch), null);
        }
    }

    /**
     * What an earlier run kept: its latest intact checkpoint and the intact batches of the slots after it, in order
     * up to the first one missing. Call once, before the first write.
     *
     * @throws OwnStreamLog.UnusableLogException if the checkpoint file cannot be read
     */
    public Recovered recover() {
        long seq = 0;
        byte[] digest = null;
        byte[] shares = null;
        byte[] state = null;
        byte[] cp = readCheckpoint();
        if (cp != null) {
            UnsafeBuffer b = new UnsafeBuffer(cp);
            int sharesLength = b.getInt(56);
            int stateLength = b.getInt(60);
            seq = b.getLong(16);
            digest = new byte[32];
            b.getBytes(24, digest);
            shares = new byte[sharesLength];
            b.getBytes(CHECKPOINT_HEADER, shares);
            state = new byte[stateLength];
            b.getBytes(CHECKPOINT_HEADER + sharesLength, state);
        }
        List<byte[]> batches = new ArrayList<>();
        for (long s = seq; s < seq + window; s++) {
            int at = recordAt(s);
            if (!intact(at) || region.getLong(at) != s) {
                break;
            }
            byte[] batch = new byte[region.getInt(at + 8)];
            region.getBytes(at + RECORD_HEADER, batch);
            batches.add(batch);
        }
        return state == null && batches.isEmpty() ? Recovered.NOTHING
            : new Recovered(seq, digest, shares, state, batches);
    }

    /** The checkpoint file's content if it is intact, null if there is none (or a torn one). */
    private byte[] readCheckpoint() {
        byte[] cp;
        if (checkpointFile == null) {
            cp = checkpointInMemory;
        } else {
            try {
                cp = Files.exists(checkpointFile) ? Files.readAllBytes(checkpointFile) : null;
            } catch (IOException e) {
                throw new OwnStreamLog.UnusableLogException("cannot read the replica's checkpoint " + checkpointFile
                    + ": " + e + "; check its permissions, or delete it (the replica then fetches its state from the"
                    + " others)", e);
            }
        }
        if (cp == null || cp.length < CHECKPOINT_HEADER + 8) {
            return null;
        }
        UnsafeBuffer b = new UnsafeBuffer(cp);
        long sharesLength = b.getInt(56) & 0xFFFF_FFFFL;
        long stateLength = b.getInt(60) & 0xFFFF_FFFFL;
        if (b.getLong(0) != CHECKPOINT_MAGIC || b.getInt(8) != VERSION
            || CHECKPOINT_HEADER + sharesLength + stateLength + 8 != cp.length
            || b.getLong(cp.length - 8) != Checksums.xxHash64(b, 0, cp.length - 8)) {
            return null; // torn or foreign: as if none were kept (a rename replaces it whole, so this is damage)
        }
        return cp;
    }

    private boolean intact(int at) {
        int length = region.getInt(at + 8);
        return region.getLong(at) >= 0 && length >= 0 && length <= maxBatch
            && region.getLong(at + 16) == checksum(at, length);
    }

    private long checksum(int at, int length) {
        return Checksums.xxHash64(region, at, 12) ^ Long.rotateLeft(Checksums.xxHash64(region, at + RECORD_HEADER,
            length), 17) ^ 0x5DEECE66DL; // never 0: a zeroed record is not intact
    }

    private int recordAt(long slot) {
        return HEADER + (int) (slot % window) * recordSlot;
    }

    @Override
    public void executing(long slot, DirectBuffer batch, int offset, int length) {
        if (length > maxBatch) {
            throw new IllegalArgumentException("a batch of " + length + " bytes; the log holds up to " + maxBatch);
        }
        int at = recordAt(slot);
        region.putLong(at + 16, 0); // torn from here until the checksum is back
        region.putLong(at, slot);
        region.putInt(at + 8, length);
        region.putInt(at + 12, 0);
        region.putBytes(at + RECORD_HEADER, batch, offset, length);
        region.putLong(at + 16, checksum(at, length));
        if (fsync && mapped != null) {
            mapped.force(at, RECORD_HEADER + length);
        }
    }

    @Override
    public void checkpoint(long seq, byte[] digest, DirectBuffer shares, int offset, int length, byte[] state) {
        byte[] cp = new byte[CHECKPOINT_HEADER + length + state.length + 8];
        UnsafeBuffer b = new UnsafeBuffer(cp);
        b.putLong(0, CHECKPOINT_MAGIC);
        b.putInt(8, VERSION);
        b.putLong(16, seq);
        b.putBytes(24, digest, 0, 32);
        b.putInt(56, length);
        b.putInt(60, state.length);
        b.putBytes(CHECKPOINT_HEADER, shares, offset, length);
        b.putBytes(CHECKPOINT_HEADER + length, state);
        b.putLong(cp.length - 8, Checksums.xxHash64(b, 0, cp.length - 8));
        if (checkpointFile == null) {
            checkpointInMemory = cp;
            return;
        }
        Path tmp = checkpointFile.resolveSibling(checkpointFile.getFileName() + ".tmp");
        try {
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
                ByteBuffer bb = ByteBuffer.wrap(cp);
                while (bb.hasRemaining()) {
                    ch.write(bb);
                }
                if (fsync) {
                    ch.force(true);
                }
            }
            Files.move(tmp, checkpointFile, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            if (fsync) {
                forceDirectory(checkpointFile.toAbsolutePath().getParent());
            }
        } catch (IOException e) {
            throw new OwnStreamLog.UnusableLogException("cannot write the replica's checkpoint " + checkpointFile + ": "
                + e + "; check the free space and permissions of --data-dir", e);
        }
    }

    private static void forceDirectory(Path dir) throws IOException {
        if (dir == null) {
            return;
        }
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true); // the rename's directory entry (Linux allows a directory's descriptor to be forced)
        }
    }

    /** The two files, or "the in-memory decision log". */
    public String describe() {
        return decisionsFile != null ? decisionsFile + " and " + checkpointFile : "the in-memory decision log";
    }

    /** Unmaps the file (an in-memory log stays as it is). */
    @Override
    public void close() {
        if (mapped != null) {
            IoUtil.unmap(mapped);
        }
    }
}
