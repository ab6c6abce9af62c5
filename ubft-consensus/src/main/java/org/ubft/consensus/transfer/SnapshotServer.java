package org.ubft.consensus.transfer;

import net.jpountz.lz4.LZ4Compressor;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.Objects;

/**
 * The serving half of {@link StateTransfer}: {@link #offer} keeps a certified checkpoint's state with the previous one
 * (two at most); a STATE_REQUEST for a kept checkpoint is answered with that chunk, any other checkpoint with
 * STATE_UNAVAILABLE: one message out per message in. A kept state is compressed at the first request for it, once:
 * most checkpoints are never fetched, and compressing each one cost every checkpoint an LZ4 pass and its hash table.
 * The offered arrays are kept as given (their owner never changes them). Memory is fixed at construction (two
 * compressed snapshots and one send buffer) besides the two kept states. Single-threaded, like its owner.
 */
final class SnapshotServer {
    private final LZ4Compressor compressor;
    private final StateTransfer.Port port;
    private final int maxStateBytes;
    private final int maxCompressed;
    private final int chunkBytes;
    private final UnsafeBuffer sendBuffer;
    private final Snapshot[] served = new Snapshot[2];
    private long chunksServed;
    private long unavailableSent;
    private long compressions;

    SnapshotServer(TransferConfig config, LZ4Compressor compressor, StateTransfer.Port port) {
        this.compressor = compressor;
        this.port = port;
        this.maxStateBytes = config.maxStateBytes();
        this.maxCompressed = compressor.maxCompressedLength(maxStateBytes);
        this.chunkBytes = config.chunkBytes();
        this.sendBuffer = new UnsafeBuffer(new byte[config.maxMessageBytes()]);
        for (int i = 0; i < served.length; i++) {
            served[i] = new Snapshot(new byte[maxCompressed]);
        }
    }

    /** See {@link StateTransfer#offer}. */
    void offer(long checkpoint, byte[] state) {
        Objects.requireNonNull(state, "state");
        if (state.length > maxStateBytes) {
            throw new IllegalArgumentException("state of " + state.length + " bytes exceeds maxStateBytes "
                + maxStateBytes);
        }
        Snapshot slot = null;
        for (Snapshot s : served) {
            if (s.present && s.checkpoint == checkpoint) {
                return;
            }
            if (slot == null || !s.present || (slot.present && s.checkpoint < slot.checkpoint)) {
                slot = s;
            }
        }
        if (slot.present && checkpoint < slot.checkpoint) {
            return;
        }
        slot.raw = state;
        slot.compressedLength = -1; // at the first request
        slot.rawLength = state.length;
        slot.checkpoint = checkpoint;
        slot.present = true;
    }

    private void compress(Snapshot s) {
        s.compressedLength = compressor.compress(s.raw, 0, s.raw.length, s.compressed, 0, maxCompressed);
        s.count = TransferWire.chunkCount(s.compressedLength, chunkBytes);
        compressions++;
    }

    private Snapshot servedSnapshot(long checkpoint) {
        for (Snapshot s : served) {
            if (s.present && s.checkpoint == checkpoint) {
                return s;
            }
        }
        return null;
    }

    /** A STATE_REQUEST from peer {@code from}: answered; false if malformed (the caller counts the drop). */
    boolean onRequest(int from, DirectBuffer b, int off, int len) {
        if (len != TransferWire.REQUEST_LENGTH) {
            return false;
        }
        long checkpoint = TransferWire.checkpoint(b, off);
        int index = TransferWire.index(b, off);
        Snapshot s = servedSnapshot(checkpoint);
        if (s == null) {
            unavailableSent++;
            port.send(from, sendBuffer, 0, TransferWire.encodeUnavailable(sendBuffer, 0, checkpoint));
            return true;
        }
        if (s.compressedLength < 0) {
            compress(s);
        }
        if (index < 0 || index >= s.count) {
            return false;
        }
        int length = TransferWire.chunkLength(s.compressedLength, chunkBytes, index);
        int header = TransferWire.encodeChunkHeader(sendBuffer, 0, checkpoint, index, s.count, s.compressedLength,
            s.rawLength);
        sendBuffer.putBytes(header, s.compressed, index * chunkBytes, length);
        chunksServed++;
        port.send(from, sendBuffer, 0, header + length);
        return true;
    }

    long chunksServed() {
        return chunksServed;
    }

    long unavailableSent() {
        return unavailableSent;
    }

    /** States compressed so far: one per kept checkpoint that was asked for, none for the others. */
    long compressions() {
        return compressions;
    }

    private static final class Snapshot {
        final byte[] compressed;
        byte[] raw;
        boolean present;
        long checkpoint;
        int compressedLength;
        int rawLength;
        int count;

        Snapshot(byte[] compressed) {
            this.compressed = compressed;
        }
    }
}
