package org.ubft.consensus.transfer;

import net.jpountz.lz4.LZ4Factory;

/**
 * Settings of one {@link StateTransfer}. Its buffers are sized from these at construction (DESIGN.md §1, bounded
 * memory): about {@code 3 * maxCompressedBytes() + maxStateBytes}.
 *
 * @param maxStateBytes       largest (uncompressed) state that can be offered or fetched; at most {@value #MAX_STATE_LIMIT}
 * @param chunkBytes          compressed bytes per STATE_CHUNK; a chunk message is {@link TransferWire#CHUNK_HEADER}
 *                            bytes more and must fit one point-to-point message
 * @param requestTimeoutNanos a fetch that makes no progress this long moves to the next peer
 * @param chunksInFlight      chunk requests outstanding at once to the current peer
 */
public record TransferConfig(int maxStateBytes, int chunkBytes, long requestTimeoutNanos, int chunksInFlight) {
    /** Upper bound of {@code maxStateBytes}: 1 GiB, so that every length and offset fits an {@code int}. */
    public static final int MAX_STATE_LIMIT = 1 << 30;

    public TransferConfig {
        if (maxStateBytes < 0 || maxStateBytes > MAX_STATE_LIMIT || chunkBytes < 1 || requestTimeoutNanos <= 0
            || chunksInFlight < 1) {
            throw new IllegalArgumentException("invalid transfer config " + this);
        }
    }

    /** 4 KiB chunks, 8 in flight, 50 ms without progress moves to the next peer. */
    public static TransferConfig defaults(int maxStateBytes) {
        return new TransferConfig(maxStateBytes, 4096, 50_000_000L, 8);
    }

    /** Largest LZ4 block of a state of {@code maxStateBytes} (LZ4's worst case for incompressible input). */
    public int maxCompressedBytes() {
        return LZ4Factory.fastestJavaInstance().fastCompressor().maxCompressedLength(maxStateBytes);
    }

    /** Largest message this transfer sends or accepts: a full STATE_CHUNK. */
    public int maxMessageBytes() {
        return TransferWire.CHUNK_HEADER + chunkBytes;
    }
}
