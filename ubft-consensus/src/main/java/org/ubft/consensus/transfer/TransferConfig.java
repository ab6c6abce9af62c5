package org.ubft.consensus.transfer;

import net.jpountz.lz4.LZ4Factory;

/**
 * Settings of one {@link StateTransfer}. Its buffers are sized from these at construction (docs/design.md §1, bounded
 * memory): about {@code 3 * maxCompressedBytes() + maxStateBytes}.
 *
 * @param maxStateBytes       largest (uncompressed) state that can be offered or fetched; at most {@value #MAX_STATE_LIMIT}
 * @param chunkBytes          compressed bytes per STATE_CHUNK; a chunk message is {@link TransferWire#CHUNK_HEADER}
 *                            bytes more and must fit one point-to-point message
 * @param requestTimeoutNanos a fetch that makes no progress this long moves to the next peer
 * @param chunksInFlight      chunk requests outstanding at once to the current peer
 * @param reaskNanos          a fetch that makes no progress this long asks the current peer again for the chunks
 *                            outstanding (a request or chunk lost on a link that drops, such as the tail channel
 *                            when the receiver lags, costs this instead of a change of peer); at most
 *                            {@code requestTimeoutNanos}
 */
public record TransferConfig(int maxStateBytes, int chunkBytes, long requestTimeoutNanos, int chunksInFlight,
                             long reaskNanos) {
    /** Upper bound of {@code maxStateBytes}: 1 GiB, so that every length and offset fits an {@code int}. */
    public static final int MAX_STATE_LIMIT = 1 << 30;

    public TransferConfig {
        if (maxStateBytes < 0 || maxStateBytes > MAX_STATE_LIMIT || chunkBytes < 1 || requestTimeoutNanos <= 0
            || chunksInFlight < 1 || reaskNanos <= 0 || reaskNanos > requestTimeoutNanos) {
            throw new IllegalArgumentException("invalid transfer config " + this);
        }
    }

    /** Re-asks after an eighth of {@code requestTimeoutNanos} without progress. */
    public TransferConfig(int maxStateBytes, int chunkBytes, long requestTimeoutNanos, int chunksInFlight) {
        this(maxStateBytes, chunkBytes, requestTimeoutNanos, chunksInFlight, Math.max(1, requestTimeoutNanos / 8));
    }

    /**
     * 4 KiB chunks, 8 in flight; 2 ms without progress asks the peer again, 20 ms moves to the next peer (a silent
     * Byzantine peer costs that much per turn, with peers taken in turn).
     */
    public static TransferConfig defaults(int maxStateBytes) {
        return new TransferConfig(maxStateBytes, 4096, 20_000_000L, 8, 2_000_000L);
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
