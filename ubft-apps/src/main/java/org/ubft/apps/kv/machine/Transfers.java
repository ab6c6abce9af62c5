package org.ubft.apps.kv.machine;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;

/**
 * Requests and replies larger than one consensus request or reply, in transit: uploads (a BATCH arriving in PARTs)
 * and downloads (a LARGE reply the gateway FETCHes piece by piece). Part of the replicated state (in the snapshot),
 * ordered by id, bounded in count and bytes; a transfer untouched for the timeout (by the store's clock) is dropped.
 */
final class Transfers {
    private static final class Transfer {
        final byte[] data;
        final boolean download;
        int filled;
        long touched;

        Transfer(byte[] data, boolean download, int filled, long touched) {
            this.data = data;
            this.download = download;
            this.filled = filled;
            this.touched = touched;
        }
    }

    private final TreeMap<Long, Transfer> transfers = new TreeMap<>();
    private final int maxTransfers;
    private final long maxBytes;
    private final long timeoutMillis;
    private long bytes;

    Transfers(int maxTransfers, long maxBytes, long timeoutMillis) {
        this.maxTransfers = maxTransfers;
        this.maxBytes = maxBytes;
        this.timeoutMillis = timeoutMillis;
    }

    /** Drops the transfers untouched since {@code now - timeout}. */
    void expire(long now) {
        for (Iterator<Transfer> it = transfers.values().iterator(); it.hasNext(); ) {
            Transfer t = it.next();
            if (now - t.touched >= timeoutMillis) {
                bytes -= t.data.length;
                it.remove();
            }
        }
    }

    /** Whether a new transfer of {@code length} bytes fits now. */
    boolean hasRoom(long length) {
        return transfers.size() < maxTransfers && bytes + length <= maxBytes;
    }

    /**
     * Adds piece {@code piece} at {@code offset} of upload {@code id} of {@code total} bytes: the whole upload when
     * this piece completes it (and it is removed), else null.
     *
     * @throws IllegalStateException with the reason if the piece does not continue the upload or does not fit
     */
    byte[] part(long id, int total, int offset, byte[] piece, long now) {
        Transfer t = transfers.get(id);
        if (t == null || t.download) {
            if (offset != 0) {
                throw new IllegalStateException("no upload " + Long.toHexString(id) + " in progress (expired after "
                    + timeoutMillis + " ms, or never started)");
            }
            if (t != null) {
                remove(id);
            }
            if (!hasRoom(total)) {
                throw new IllegalStateException("busy: " + transfers.size() + " transfers of " + bytes
                    + " bytes in progress; try again");
            }
            t = new Transfer(new byte[total], false, 0, now);
            transfers.put(id, t);
            bytes += total;
        }
        if (total != t.data.length || offset != t.filled || piece.length > total - offset) {
            remove(id);
            throw new IllegalStateException("piece at " + offset + " of " + piece.length + " bytes does not continue"
                + " upload " + Long.toHexString(id) + " (" + t.filled + " of " + t.data.length + " bytes received)");
        }
        System.arraycopy(piece, 0, t.data, offset, piece.length);
        t.filled += piece.length;
        t.touched = now;
        if (t.filled < total) {
            return null;
        }
        remove(id);
        return t.data;
    }

    /** Bytes received so far of upload {@code id}. */
    int received(long id) {
        Transfer t = transfers.get(id);
        return t == null ? 0 : t.filled;
    }

    /** Keeps {@code reply} as download {@code id} (replacing a transfer of that id); the caller checked the room. */
    void download(long id, byte[] reply, long now) {
        if (transfers.containsKey(id)) {
            remove(id);
        }
        transfers.put(id, new Transfer(reply, true, reply.length, now));
        bytes += reply.length;
    }

    /**
     * At most {@code max} bytes of download {@code id} from {@code offset}; the download is removed when this piece
     * ends it.
     *
     * @throws IllegalStateException if there is no such download or the offset is outside it
     */
    byte[] fetch(long id, int offset, int max, long now) {
        Transfer t = transfers.get(id);
        if (t == null || !t.download) {
            throw new IllegalStateException("no reply " + Long.toHexString(id) + " to fetch (expired after "
                + timeoutMillis + " ms, or fetched already)");
        }
        if (offset < 0 || offset >= t.data.length) {
            throw new IllegalStateException("offset " + offset + " is outside reply " + Long.toHexString(id) + " of "
                + t.data.length + " bytes");
        }
        int n = Math.min(max, t.data.length - offset);
        byte[] piece = java.util.Arrays.copyOfRange(t.data, offset, offset + n);
        t.touched = now;
        if (offset + n == t.data.length) {
            remove(id);
        }
        return piece;
    }

    private void remove(long id) {
        Transfer t = transfers.remove(id);
        if (t != null) {
            bytes -= t.data.length;
        }
    }

    int count() {
        return transfers.size();
    }

    long bytes() {
        return bytes;
    }

    /** Snapshot bytes at most. */
    long maxSnapshotBytes() {
        return 4 + (long) maxTransfers * 25 + maxBytes;
    }

    void writeTo(DataOutputStream out) throws IOException {
        out.writeInt(transfers.size());
        for (Map.Entry<Long, Transfer> e : transfers.entrySet()) {
            Transfer t = e.getValue();
            out.writeLong(e.getKey());
            out.writeBoolean(t.download);
            out.writeInt(t.filled);
            out.writeLong(t.touched);
            out.writeInt(t.data.length);
            out.write(t.data);
        }
    }

    void readFrom(DataInputStream in) throws IOException {
        int count = in.readInt();
        if (count < 0 || count > maxTransfers) {
            throw new IllegalArgumentException("a key-value snapshot with " + count + " transfers (at most "
                + maxTransfers + ")");
        }
        TreeMap<Long, Transfer> read = new TreeMap<>();
        long total = 0;
        for (int i = 0; i < count; i++) {
            long id = in.readLong();
            boolean download = in.readBoolean();
            int filled = in.readInt();
            long touched = in.readLong();
            int length = in.readInt();
            if (length < 0 || total + length > maxBytes || filled < 0 || filled > length) {
                throw new IllegalArgumentException("a key-value snapshot with a transfer of " + length + " bytes");
            }
            byte[] data = new byte[length];
            in.readFully(data);
            read.put(id, new Transfer(data, download, filled, touched));
            total += length;
        }
        transfers.clear();
        transfers.putAll(read);
        bytes = total;
    }
}
