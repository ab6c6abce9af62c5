package org.ubft.consensus.transfer;

import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Exception;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.common.crypto.Fingerprints;

import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Objects;
import java.util.SplittableRandom;

/**
 * Application state transfer, sans-IO: serves this replica's latest certified checkpoint to others and fetches a
 * checkpoint's state from them, in LZ4-compressed chunks ({@link TransferWire}), verified against the SHA-256
 * digest that f+1 replicas certified.
 *
 * <p><b>Serving.</b> {@link #offer} compresses a state once and keeps it with the previous one (two at most). A
 * STATE_REQUEST for a kept checkpoint is answered with that chunk, any other checkpoint with STATE_UNAVAILABLE:
 * one message out per message in.
 *
 * <p><b>Fetching.</b> One peer at a time (the <i>source</i>, in an order drawn from the seed, never this replica;
 * first the peer the caller names, if any: the one that showed it the checkpoint, known to be up)
 * is asked for up to {@code chunksInFlight} chunks at once; only its answers are accepted. Chunk 0 is asked alone
 * first: it gives the snapshot's shape (chunk count, compressed and raw lengths). The fetch moves to the next peer when the source makes
 * no progress for {@code requestTimeoutNanos}, answers STATE_UNAVAILABLE, or contradicts its own shape. Chunks
 * collected from earlier sources are kept if the new source confirms the same shape (a crashed peer costs no
 * refetch), dropped otherwise. Once all chunks are in, the block is decompressed with LZ4's <i>safe</i> decompressor
 * into at most the announced raw length, and hashed: if that fails (a Byzantine source, or chunks of two different
 * snapshots mixed), everything collected is dropped and counted, and the fetch restarts from the next peer in
 * <i>single-source</i> mode, where changing peer also drops what was collected, so a correct responsive peer then
 * completes it alone. (Mixing chunks of correct peers assumes they compress a state to the same bytes; if their LZ4
 * implementations differ, the fallback still converges.) A {@link #fetch} of a newer checkpoint retargets; late
 * chunks of the old one are dropped. A lost request or chunk costs {@code reaskNanos}: a source that makes no
 * progress that long is asked again for the chunks outstanding (links may drop: the tail channel keeps the last t
 * messages only, and a receiver that lags loses older ones), so only a peer silent for {@code requestTimeoutNanos}
 * costs a change of peer.
 *
 * <p><b>Byzantine input</b> is data: whatever a peer sends is checked in place and, if wrong, dropped and counted
 * under a {@link Drop} reason; nothing is thrown or allocated for it. Memory is fixed at construction: two
 * compressed snapshots to serve, one being assembled, one decompression scratch; plus the verified state handed to
 * the {@link Listener} (one array per completed fetch).
 *
 * <p>Single-threaded: the owning agent calls every method. The {@link Port} must consume the bytes before it
 * returns and must not call back into this object; the {@link Listener} may.
 */
public final class StateTransfer {
    /** Point-to-point, best effort, may drop. The buffer is reused after the call returns. */
    public interface Port {
        void send(int replica, DirectBuffer b, int off, int len);
    }

    /** Receives verified state bytes (the array is the listener's to keep). */
    public interface Listener {
        void onStateFetched(long checkpoint, byte[] state);
    }

    /** Why a message or collected state was dropped. */
    public enum Drop {
        /** Too short, wrong length, bad field (negative length, index out of range), or a type this does not know. */
        MALFORMED,
        /** A chunk or STATE_UNAVAILABLE of a checkpoint that is not being fetched. */
        UNKNOWN_CHECKPOINT,
        /** The assembled state's SHA-256 is not the certified one (all collected chunks dropped). */
        BAD_DIGEST,
        /** The assembled block does not decompress to exactly its raw length (all collected chunks dropped). */
        BAD_COMPRESSION,
        /** A message, raw length or compressed length above the configured bounds. */
        OVERSIZE,
        /** From this replica, from no replica, or a chunk from a peer that is not the current source. */
        UNEXPECTED_SENDER,
        /** A chunk whose shape contradicts the snapshot's (from the source: next peer; after a change: restart). */
        INCONSISTENT
    }

    private static final Drop[] DROPS = Drop.values();

    private final int n;
    private final int self;
    private final TransferConfig config;
    private final Port port;
    private final Listener listener;
    private final NanoClock clock;

    private final LZ4Compressor compressor = LZ4Factory.fastestJavaInstance().fastCompressor();
    private final LZ4SafeDecompressor decompressor = LZ4Factory.safeInstance().safeDecompressor();
    private final Fingerprints fingerprints = new Fingerprints();
    private final byte[] digestScratch = new byte[Fingerprints.FINGERPRINT_BYTES];
    private final UnsafeBuffer sendBuffer;
    private final int maxCompressed;
    private final int chunkBytes;

    private final SnapshotServer server;

    // fetching
    private final int[] peers;
    private int peerCursor;
    private boolean fetching;
    private long target;
    private final byte[] targetDigest = new byte[Fingerprints.FINGERPRINT_BYTES];
    private boolean singleSource;
    private int source = -1;
    private boolean shapeKnown;
    private boolean shapeConfirmed;
    private int shapeCount;
    private int shapeCompressed;
    private int shapeRaw;
    private final byte[] assembly;
    private final byte[] raw;
    private final long[] received;
    private final long[] inFlight;
    private int receivedCount;
    private int inFlightCount;
    private int scan;
    private long lastProgressNanos;
    private long lastAskNanos;

    // counters
    private long chunksReceived;
    private long unavailableReceived;
    private long fetchesCompleted;
    private long retries;
    private long reasks;
    private final long[] dropped = new long[DROPS.length];

    /**
     * @param n        replicas (indices 0..n-1), at least 2
     * @param self     this replica's index
     * @param seed     seeds the order in which peers are asked
     */
    public StateTransfer(int n, int self, TransferConfig config, Port port, Listener listener, NanoClock clock,
                         long seed) {
        if (n < 2 || self < 0 || self >= n) {
            throw new IllegalArgumentException("need n >= 2 and 0 <= self < n, not n=" + n + " self=" + self);
        }
        this.n = n;
        this.self = self;
        this.config = Objects.requireNonNull(config, "config");
        this.port = Objects.requireNonNull(port, "port");
        this.listener = Objects.requireNonNull(listener, "listener");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.chunkBytes = config.chunkBytes();
        this.maxCompressed = compressor.maxCompressedLength(config.maxStateBytes());
        this.sendBuffer = new UnsafeBuffer(new byte[config.maxMessageBytes()]);
        this.server = new SnapshotServer(config, compressor, port);
        this.assembly = new byte[maxCompressed];
        this.raw = new byte[config.maxStateBytes()];
        int maxChunks = TransferWire.chunkCount(maxCompressed, chunkBytes);
        this.received = new long[(maxChunks + 63) >>> 6];
        this.inFlight = new long[received.length];

        peers = new int[n - 1];
        for (int r = 0, i = 0; r < n; r++) {
            if (r != self) {
                peers[i++] = r;
            }
        }
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = peers.length - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int t = peers[i];
            peers[i] = peers[j];
            peers[j] = t;
        }
        peerCursor = random.nextInt(peers.length);
    }

    // ---------------------------------------------------------------- serving

    /**
     * The replica's latest certified checkpoint: serve it (compressed here, once, at the first request for it). The
     * previous one is kept too; older ones are forgotten. Offering a checkpoint already kept, or older than both kept
     * ones, does nothing. {@code state} is kept as given, so the caller must never change it afterwards (the replica's
     * states are fresh arrays: {@code Executor.encodeState}, a fetched state's copy, a restored file's).
     *
     * @throws IllegalArgumentException if {@code state} is larger than {@code maxStateBytes}
     */
    public void offer(long checkpoint, byte[] state) {
        server.offer(checkpoint, state);
    }

    // ---------------------------------------------------------------- fetching

    /**
     * Starts a fetch of checkpoint {@code checkpoint} whose uncompressed state has SHA-256 {@code digest}, or
     * retargets a running fetch to it if it is newer. A checkpoint not newer than the one being fetched is ignored.
     *
     * @throws IllegalArgumentException if {@code digest} is not 32 bytes
     */
    public void fetch(long checkpoint, byte[] digest) {
        fetch(checkpoint, digest, -1);
    }

    /**
     * {@link #fetch(long, byte[])}, asking peer {@code source} first when it is one (not this replica, in range):
     * the caller knows it is up and holds the checkpoint (it just showed its certificate). If it does not answer,
     * the fetch goes on through the peers in the seed's order as usual.
     */
    public void fetch(long checkpoint, byte[] digest, int source) {
        if (Objects.requireNonNull(digest, "digest").length != Fingerprints.FINGERPRINT_BYTES) {
            throw new IllegalArgumentException("digest must be " + Fingerprints.FINGERPRINT_BYTES + " bytes, not "
                + digest.length);
        }
        if (fetching && checkpoint <= target) {
            return;
        }
        fetching = true;
        target = checkpoint;
        System.arraycopy(digest, 0, targetDigest, 0, targetDigest.length);
        singleSource = false;
        resetCollected();
        for (int i = 0; i < peers.length; i++) {
            if (peers[i] == source) {
                peerCursor = i;
            }
        }
        this.source = -1;
        switchSource();
    }

    /** Whether a fetch is running. */
    public boolean fetching() {
        return fetching;
    }

    /** The checkpoint being (or last) fetched. */
    public long fetchTarget() {
        return target;
    }

    private void onChunk(int from, DirectBuffer b, int off, int len) {
        if (len < TransferWire.CHUNK_HEADER) {
            drop(Drop.MALFORMED);
            return;
        }
        if (len > TransferWire.CHUNK_HEADER + chunkBytes) {
            drop(Drop.OVERSIZE);
            return;
        }
        long checkpoint = TransferWire.checkpoint(b, off);
        int index = TransferWire.index(b, off);
        int count = TransferWire.count(b, off);
        int compressedLength = TransferWire.compressedLength(b, off);
        int rawLength = TransferWire.rawLength(b, off);
        int payload = len - TransferWire.CHUNK_HEADER;
        if (rawLength < 0 || compressedLength < 1) {
            drop(Drop.MALFORMED);
            return;
        }
        if (rawLength > config.maxStateBytes() || compressedLength > maxCompressed) {
            drop(Drop.OVERSIZE);
            return;
        }
        if (compressedLength > compressor.maxCompressedLength(rawLength)
            || count != TransferWire.chunkCount(compressedLength, chunkBytes) || index < 0 || index >= count
            || payload != TransferWire.chunkLength(compressedLength, chunkBytes, index)) {
            drop(Drop.MALFORMED);
            return;
        }
        if (!fetching || checkpoint != target) {
            drop(Drop.UNKNOWN_CHECKPOINT);
            return;
        }
        if (from != source) {
            drop(Drop.UNEXPECTED_SENDER);
            return;
        }
        boolean sameShape = shapeKnown && count == shapeCount && compressedLength == shapeCompressed
            && rawLength == shapeRaw;
        if (!sameShape) {
            if (shapeConfirmed) {
                drop(Drop.INCONSISTENT); // the source contradicts itself
                switchSource();
                return;
            }
            if (shapeKnown) {
                drop(Drop.INCONSISTENT); // a new source disagrees with an earlier one: restart with the new one
                resetCollected();
                Arrays.fill(inFlight, 0L); // requests sized for the old shape; re-asked below (duplicates are ignored)
                inFlightCount = 0;
            }
            shapeKnown = true;
            shapeCount = count;
            shapeCompressed = compressedLength;
            shapeRaw = rawLength;
        }
        shapeConfirmed = true;
        if (clear(inFlight, index)) {
            inFlightCount--;
        }
        lastProgressNanos = clock.nanoTime();
        lastAskNanos = lastProgressNanos;
        if (!get(received, index)) {
            set(received, index);
            receivedCount++;
            chunksReceived++;
            b.getBytes(off + TransferWire.CHUNK_HEADER, assembly, index * chunkBytes, payload);
        }
        if (receivedCount == shapeCount) {
            complete();
        } else {
            requestMore();
        }
    }

    private void onUnavailable(int from, DirectBuffer b, int off, int len) {
        if (len != TransferWire.UNAVAILABLE_LENGTH) {
            drop(Drop.MALFORMED);
            return;
        }
        if (!fetching || TransferWire.checkpoint(b, off) != target) {
            drop(Drop.UNKNOWN_CHECKPOINT);
            return;
        }
        if (from != source) {
            drop(Drop.UNEXPECTED_SENDER);
            return;
        }
        unavailableReceived++;
        switchSource();
    }

    private void complete() {
        int got;
        try {
            got = decompressor.decompress(assembly, 0, shapeCompressed, raw, 0, shapeRaw);
        } catch (LZ4Exception | IndexOutOfBoundsException e) { // the safe decompressor's verdict on peer bytes
            got = -1;
        }
        if (got != shapeRaw) {
            failSnapshot(Drop.BAD_COMPRESSION);
            return;
        }
        fingerprints.fingerprint(raw, 0, shapeRaw, digestScratch, 0);
        if (!MessageDigest.isEqual(digestScratch, targetDigest)) {
            failSnapshot(Drop.BAD_DIGEST);
            return;
        }
        byte[] state = Arrays.copyOf(raw, shapeRaw);
        fetching = false;
        fetchesCompleted++;
        resetCollected();
        listener.onStateFetched(target, state);
    }

    private void failSnapshot(Drop reason) {
        drop(reason);
        resetCollected();
        singleSource = true;
        switchSource();
    }

    /** Moves the fetch to the next peer (a retry unless the fetch just started) and asks it for missing chunks. */
    private void switchSource() {
        if (source >= 0) {
            retries++;
        }
        if (singleSource) {
            resetCollected();
        }
        source = peers[peerCursor];
        peerCursor = (peerCursor + 1) % peers.length;
        shapeConfirmed = false;
        Arrays.fill(inFlight, 0L);
        inFlightCount = 0;
        scan = 0;
        lastProgressNanos = clock.nanoTime();
        lastAskNanos = lastProgressNanos;
        requestMore();
    }

    /** Asks the source again for every chunk still outstanding (one of them, or its request, may have been lost). */
    private void reask() {
        reasks++;
        lastAskNanos = clock.nanoTime();
        int limit = shapeKnown ? shapeCount : 1;
        for (int index = 0; index < limit; index++) {
            if (get(inFlight, index)) {
                port.send(source, sendBuffer, 0, TransferWire.encodeRequest(sendBuffer, 0, target, index));
            }
        }
    }

    private void resetCollected() {
        Arrays.fill(received, 0L);
        receivedCount = 0;
        shapeKnown = false;
        shapeConfirmed = false;
        scan = 0;
    }

    /** Fills the window of outstanding requests to the source (just chunk 0 while the shape is unknown). */
    private void requestMore() {
        int limit = shapeKnown ? shapeCount : 1;
        while (inFlightCount < config.chunksInFlight() && scan < limit) {
            int index = scan++;
            if (get(received, index) || get(inFlight, index)) {
                continue;
            }
            set(inFlight, index);
            inFlightCount++;
            port.send(source, sendBuffer, 0, TransferWire.encodeRequest(sendBuffer, 0, target, index));
        }
    }

    // ---------------------------------------------------------------- input and duty cycle

    /**
     * A point-to-point message from replica {@code from}. Types {@value TransferWire#MIN_TYPE}..{@value
     * TransferWire#MAX_TYPE} are handled; anything else, malformed or unexpected is dropped and counted.
     * May call the {@link Listener} (a fetch completed) and the {@link Port} (an answer, more requests).
     */
    public void onMessage(int from, DirectBuffer b, int off, int len) {
        if (b == null || off < 0 || len < 1 || off > b.capacity() - len) {
            drop(Drop.MALFORMED);
            return;
        }
        if (from < 0 || from >= n || from == self) {
            drop(Drop.UNEXPECTED_SENDER);
            return;
        }
        switch (b.getByte(off)) {
            case TransferWire.STATE_REQUEST -> {
                if (!server.onRequest(from, b, off, len)) {
                    drop(Drop.MALFORMED);
                }
            }
            case TransferWire.STATE_CHUNK -> onChunk(from, b, off, len);
            case TransferWire.STATE_UNAVAILABLE -> onUnavailable(from, b, off, len);
            default -> drop(Drop.MALFORMED);
        }
    }

    /**
     * Timeouts: a source that made no progress for {@code reaskNanos} is asked again for the chunks outstanding (and
     * again every {@code reaskNanos}); one that made none for {@code requestTimeoutNanos} is replaced. Returns work done.
     */
    public int doWork() {
        if (!fetching) {
            return 0;
        }
        long now = clock.nanoTime();
        if (now - lastProgressNanos >= config.requestTimeoutNanos()) {
            switchSource();
            return 1;
        }
        if (now - lastAskNanos >= config.reaskNanos() && inFlightCount > 0) {
            reask();
            return 1;
        }
        return 0;
    }

    // ---------------------------------------------------------------- counters

    /** One line of the fetch's state and the counters, for diagnostics (allocates). */
    public String describe() {
        StringBuilder b = new StringBuilder("transfer{fetching=").append(fetching).append(" target=").append(target)
            .append(" source=").append(source).append(" received=").append(receivedCount).append('/')
            .append(shapeKnown ? shapeCount : -1).append(" completed=").append(fetchesCompleted)
            .append(" retries=").append(retries).append(" reasks=").append(reasks).append(" unavailable=").append(unavailableReceived)
            .append(" served=").append(server.chunksServed()).append(" unavailable_sent=")
            .append(server.unavailableSent());
        for (Drop d : DROPS) {
            if (dropped[d.ordinal()] > 0) {
                b.append(' ').append(d).append('=').append(dropped[d.ordinal()]);
            }
        }
        return b.append('}').toString();
    }

    /** Chunks sent in answer to STATE_REQUESTs. */
    public long chunksServed() {
        return server.chunksServed();
    }

    /** New chunks accepted from sources (duplicates not counted). */
    public long chunksReceived() {
        return chunksReceived;
    }

    /** States compressed to serve them: one per offered checkpoint that was asked for. */
    long compressions() {
        return server.compressions();
    }

    /** STATE_UNAVAILABLE answers sent. */
    public long unavailableSent() {
        return server.unavailableSent();
    }

    /** STATE_UNAVAILABLE answers from the source, each moving the fetch to the next peer. */
    public long unavailableReceived() {
        return unavailableReceived;
    }

    /** Fetches that delivered verified state. */
    public long fetchesCompleted() {
        return fetchesCompleted;
    }

    /** Times a fetch moved to another peer (timeout, STATE_UNAVAILABLE, inconsistent or failed snapshot). */
    public long retries() {
        return retries;
    }

    /** Times the source was asked again for its outstanding chunks ({@code reaskNanos} without progress). */
    public long reasks() {
        return reasks;
    }

    /** Messages (or assembled states) dropped for {@code reason}. */
    public long dropped(Drop reason) {
        return dropped[reason.ordinal()];
    }

    /** Drops for all reasons. */
    public long droppedTotal() {
        long sum = 0;
        for (long d : dropped) {
            sum += d;
        }
        return sum;
    }

    private void drop(Drop reason) {
        dropped[reason.ordinal()]++;
    }

    // ---------------------------------------------------------------- bitsets

    private static boolean get(long[] bits, int i) {
        return (bits[i >>> 6] & (1L << i)) != 0;
    }

    private static void set(long[] bits, int i) {
        bits[i >>> 6] |= 1L << i;
    }

    /** Clears bit {@code i}; returns whether it was set. */
    private static boolean clear(long[] bits, int i) {
        long mask = 1L << i;
        boolean was = (bits[i >>> 6] & mask) != 0;
        bits[i >>> 6] &= ~mask;
        return was;
    }
}
