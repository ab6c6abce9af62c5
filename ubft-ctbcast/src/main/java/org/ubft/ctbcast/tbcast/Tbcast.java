package org.ubft.ctbcast.tbcast;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.common.timing.AdaptiveTimeout;
import org.ubft.ctbcast.link.Envelope;
import org.ubft.ctbcast.link.LinkConfig;
import org.ubft.ctbcast.link.LinkStream;
import org.ubft.ctbcast.link.PeerLinks;

/**
 * Tail Broadcast (TBcast, paper §4.2): one stream of a replica, in both roles. As broadcaster it numbers
 * its messages 1, 2, 3, ... ({@link #broadcast}); as receiver it delivers every member's messages on this
 * stream, its own included ({@link TbcastHandler}). Properties (§4.1, all of CTBcast's but agreement):
 * <ul>
 *   <li><b>Tail-validity</b> for the last 2t messages: if a correct replica broadcasts (k, m) and never
 *       broadcasts k + 2t or later, every correct replica eventually delivers (k, m).</li>
 *   <li><b>Integrity</b>: a message delivered from a correct broadcaster p was broadcast by p, with those
 *       bytes and that index (the tail channel from p is writable only by p and checksummed).</li>
 *   <li><b>No duplication</b>: no index of a broadcaster is delivered twice.</li>
 * </ul>
 *
 * <h2>How (§4.2)</h2>
 * "The broadcaster buffers its last 2t messages and retransmits them until it receives acknowledgements
 * from all receivers. Then, to broadcast a new message when the buffer is full, the broadcaster simply
 * makes room for it by evicting the oldest buffered message." Here: a ring of 2t preallocated slots,
 * message k in slot k mod 2t; per receiver, a bit per slot saying it acknowledged that slot's message;
 * once a receiver's retransmission timeout passed ({@link AdaptiveTimeout}: its measured acknowledgement
 * time, between the configured period and {@link #MAX_BACKOFF} periods), each buffered message goes again to
 * it if it has not acknowledged it. A receiver keeps, per broadcaster, a window of the 2t indices up to the
 * highest seen
 * ({@link DeliveryWindow}): it delivers an index of the window the first time it arrives, drops a second
 * copy (duplicate) and anything below the window (out of tail). Its acknowledgement (an {@link Envelope}
 * ack entry: the lowest undelivered index and a bitmap of the delivered ones above it) rides on every
 * envelope it sends that broadcaster, on any stream, and goes alone after the links' ack delay if an
 * arrival changed it and nothing else went; a duplicate or out-of-tail arrival also asks for one, so a
 * lost acknowledgement is repaired. Retransmissions use only the free room of the channel, and at most half
 * its slots per receiver and round ({@link #doWork}): the free room counts the WRITEs the fabric completed, not the
 * messages the receiver read, so a whole channel of them could lap a fresh message still unread; half leaves room
 * for what was sent since the receiver last polled. A slow receiver is not flooded.
 *
 * <h2>Why acknowledgements and 2t buffering give tail-validity on top of the tail channel</h2>
 * The tail channel (§6.2) alone guarantees only the last t messages <em>of the channel</em>: a burst on
 * any stream sharing it, or a receiver slow to poll, laps older messages, and a WRITE lost to a fault is
 * never written again. So a message handed to the channel once may never arrive. Take (k, m) among the
 * last 2t messages of a correct broadcaster p that stops before k + 2t. (1) It is never evicted: only the
 * broadcast of k + 2t would overwrite its slot. (2) So p keeps sending it, once per timeout (at most
 * {@link #MAX_BACKOFF} periods), as soon as the channel has room, to every receiver q that has not acknowledged it. (3) A correct q acknowledges exactly what it delivered, plus
 * indices below its window, which it will never deliver; but q's window ends at the highest index p sent,
 * which is below k + 2t, so k is inside it: q never dismisses k as out of tail, and p never takes it as
 * acknowledged before q delivered it. (4) Every retransmission is a fresh channel message (and rewrites
 * the ring slots, so a receiver stalled on a lost WRITE moves on); after the network stabilizes (eventual
 * synchrony: WRITEs succeed, q polls), the unacknowledged set only shrinks, so the traffic p sends q
 * dies down to a finite set of retransmissions that the channel delivers once they are among its last t.
 * Hence q delivers (k, m). (The tail is 2t for a CTBcast tail of t,
 * presumably because Algorithm 1 TBcast-broadcasts two messages, LOCK and SIGNED, per identifier.)
 * Memory stays bounded because eviction, not acknowledgement, frees a slot: a crashed or silent receiver
 * costs at most 2t retransmissions per timeout, a timeout that backs off to {@link #MAX_BACKOFF} periods (and no
 * more than its channel takes), and never blocks
 * {@link #broadcast}.
 *
 * <h2>Delivery order</h2>
 * Each index at most once, in arrival order: first transmissions arrive in increasing index order (the
 * channel is FIFO), but a retransmission can fill a gap after later indices were delivered, so
 * deliveries are not FIFO. Indices from a Byzantine broadcaster can be anything in 1..2^62-1: a huge one
 * moves its window (and only its window) up; it cannot make this replica throw, allocate or grow.
 *
 * <h2>Use</h2>
 * Construct one per stream on a {@link PeerLinks} (the constructor registers it); drive everything with
 * {@link PeerLinks#doWork()}, which delivers, acknowledges and fires retransmission timers from the
 * links' clock. Single-threaded. Memory, fixed at construction: 2t × maxMessageBytes for the buffer,
 * n × 2t send times, O(n·t) bits besides; nothing is allocated per message.
 */
public final class Tbcast implements LinkStream {
    /** Indices stay below 2^62 (unreachable in practice; keeps arithmetic far from overflow). */
    public static final long MAX_INDEX = 1L << 62;
    /** The retransmission timeout grows, by measurement or by backing off, to at most this many periods. */
    public static final int MAX_BACKOFF = 64;
    /** {@link #broadcast(DirectBuffer, int, int, long)} to every member, this one included. */
    public static final long EVERY_MEMBER = -1L;

    private final PeerLinks links;
    private final int streamId;
    private final TbcastConfig config;
    private final TbcastHandler handler;
    private final int n;
    private final int window;
    private final int maxBytes;
    private final int ackWords;
    /** The shortest retransmission timeout (the configured period); a quarter of it paces a full channel. */
    private final long period;

    // ---- broadcaster ----
    /** §4.2: the last 2t messages, message k at slot k mod 2t. */
    private final UnsafeBuffer buffer;
    private final int[] lengths;
    /** Per receiver, per slot: when the slot's message last went to the receiver. */
    private final long[][] lastSent;
    /** Per receiver, per slot: the receiver acknowledged the slot's current message. */
    private final long[][] acked;
    /** Per receiver, per slot: the slot's current message went to the receiver more than once (Karn: not timed). */
    private final long[][] resent;
    /** Per receiver: how long to wait for its acknowledgement before sending again. */
    private final AdaptiveTimeout[] timeouts;
    /** Per receiver: every index below this was acknowledged (highest valid ack base seen). */
    private final long[] settledBelow;
    /** Per receiver: where {@link #settledFor} resumes (every buffered index below it is acknowledged). */
    private final long[] settledCursor;
    private long nextIndex = 1;
    /** The first index this stream broadcast ({@link #startAt}): nothing below it is buffered. */
    private long firstIndex = 1;
    private boolean retransmitArmed;
    private long retransmitAt;

    /** Retransmissions to one receiver per round: half its channel's slots (at least 1). */
    private final int retransmitsPerRound;

    // ---- receiver ----
    private final DeliveryWindow[] windows;

    // ---- counters ----
    private long broadcasts;
    private long sent;
    private long retransmitted;
    private final long[] retransmittedTo;
    private long evicted;
    private long delivered;
    private long duplicates;
    private long outOfWindow;
    private long malformed;
    private long acksReceived;

    /**
     * Creates stream {@code streamId} on {@code links} and registers it there.
     *
     * @throws IllegalArgumentException if the stream does not fit the links' configuration or its id is taken
     */
    public Tbcast(PeerLinks links, int streamId, TbcastConfig config, TbcastHandler handler) {
        LinkConfig lc = links.config();
        if (config.maxMessageBytes() > lc.maxPayloadBytes()) {
            throw new IllegalArgumentException("messages of " + config.maxMessageBytes() + " bytes; the links carry "
                + lc.maxPayloadBytes());
        }
        if (config.window() > lc.maxWindow()) {
            throw new IllegalArgumentException("window 2t = " + config.window() + " exceeds the links' " + lc.maxWindow());
        }
        this.links = links;
        this.streamId = streamId;
        this.config = config;
        this.handler = handler;
        this.n = links.members();
        this.window = config.window();
        this.maxBytes = config.maxMessageBytes();
        this.ackWords = LinkConfig.ackWords(window);
        this.period = config.retransmitPeriodNanos();
        this.buffer = new UnsafeBuffer(new byte[window * maxBytes]);
        this.lengths = new int[window];
        this.lastSent = new long[n][window];
        this.acked = new long[n][(window + 63) / 64];
        this.resent = new long[n][(window + 63) / 64];
        this.timeouts = new AdaptiveTimeout[n];
        this.settledBelow = new long[n];
        this.settledCursor = new long[n];
        this.retransmitsPerRound = Math.max(1, lc.channelSlots() / 2);
        this.windows = new DeliveryWindow[n];
        this.retransmittedTo = new long[n];
        for (int p = 0; p < n; p++) {
            windows[p] = new DeliveryWindow(window);
            timeouts[p] = new AdaptiveTimeout(period, period * MAX_BACKOFF);
            settledBelow[p] = 1;
        }
        links.register(this);
    }

    // ---- broadcaster ---------------------------------------------------------------------------------

    /**
     * Starts this stream's indices at {@code firstIndex} instead of 1 (before its first broadcast): a restarted process
     * takes indices above its old ones, which receivers still hold as seen ({@link DeliveryWindow} moves up to them).
     *
     * @throws IllegalStateException if a message was broadcast already
     */
    public void startAt(long firstIndex) {
        if (nextIndex != 1) {
            throw new IllegalStateException("stream " + streamId + " already broadcast messages");
        }
        if (firstIndex < 1 || firstIndex >= MAX_INDEX / 2) {
            throw new IllegalArgumentException("first index " + firstIndex + " outside 1.." + MAX_INDEX / 2);
        }
        this.nextIndex = firstIndex;
        this.firstIndex = firstIndex;
    }

    /**
     * TBcast-broadcasts {@code length} bytes of {@code src} from {@code offset} to every member, this one
     * included. Never blocks; when 2t messages are buffered the oldest is evicted (§4.2).
     *
     * @return the message's index k (1 for the first)
     * @throws IllegalArgumentException if the message exceeds {@link TbcastConfig#maxMessageBytes()}
     */
    public long broadcast(DirectBuffer src, int offset, int length) {
        return broadcast(src, offset, length, EVERY_MEMBER);
    }

    /**
     * TBcast-broadcasts to the members in {@code to} only (bit r for member r; {@link #EVERY_MEMBER} for all): the
     * others take the index as acknowledged at once, never get it, and are told so by the settle claim of the next
     * envelope they get on this stream ({@link PeerLinks#send(int, int, int, long, long, DirectBuffer, int, int)}),
     * so their acknowledgement base moves past it. Otherwise as {@link #broadcast(DirectBuffer, int, int)}.
     *
     * @return the message's index k
     */
    public long broadcast(DirectBuffer src, int offset, int length, long to) {
        if (length < 0 || length > maxBytes) {
            throw new IllegalArgumentException("message of " + length + " bytes; at most " + maxBytes);
        }
        if (nextIndex >= MAX_INDEX) {
            throw new IllegalStateException("stream " + streamId + " exhausted its indices");
        }
        final long k = nextIndex;
        final int slot = slot(k);
        if (k > window && !ackedByAll(slot)) {
            evicted++; // §4.2: make room by evicting the oldest buffered message, acknowledged or not
        }
        nextIndex++;
        final int at = slot * maxBytes;
        buffer.putBytes(at, src, offset, length);
        lengths[slot] = length;
        for (int r = 0; r < n; r++) {
            acked[r][slot >>> 6] &= ~(1L << slot);
            resent[r][slot >>> 6] &= ~(1L << slot);
        }
        long now = links.clock().nanoTime();
        broadcasts++;
        for (int r = 0; r < n; r++) {
            if ((to & (1L << r)) == 0) {
                acked[r][slot >>> 6] |= 1L << slot; // not addressed to r: nothing to wait for
                continue;
            }
            links.send(r, streamId, 0, k, settledFor(r), buffer, at, length);
            lastSent[r][slot] = now;
            sent++;
            arm(now + timeouts[r].nanos());
        }
        return k;
    }

    /**
     * Retransmits, oldest first, each buffered message whose timeout elapsed to each receiver that did not
     * acknowledge it, as far as the channel to that receiver has {@link PeerLinks#sendRoom room}: a
     * retransmission never evicts a fresher message from the channel, and a slow or dead receiver gets at
     * most a channel's worth at a time. A message that found no room is looked at again a quarter period later.
     * The timeout is the receiver's own ({@link AdaptiveTimeout}, RFC 6298 with Karn's rule: its measured acknowledgement
     * time, at least the configured period), and doubles after each round that retransmitted to it.
     */
    @Override
    public int doWork(long now) {
        if (!retransmitArmed || now - retransmitAt < 0) {
            return 0;
        }
        retransmitArmed = false;
        int work = 0;
        final long oldest = oldest();
        for (int r = 0; r < n; r++) {
            int room = -1; // asked lazily: most rounds find nothing due
            long[] sentAt = lastSent[r];
            long timeout = timeouts[r].nanos();
            boolean resentTo = false;
            // everything below the receiver's highest ack base is acknowledged: only what is above can be due
            for (long k = Math.max(oldest, settledBelow[r]); k < nextIndex; k++) {
                int slot = slot(k);
                if (isAcked(r, slot)) {
                    continue;
                }
                long due = sentAt[slot] + timeout;
                if (now - due >= 0) {
                    if (room < 0) {
                        // at most half the channel a round: its free room counts WRITEs done, not messages the
                        // receiver read, so a whole channel of retransmissions could lap a fresh one still unread
                        room = Math.min(links.sendRoom(r), retransmitsPerRound);
                    }
                    if (room > 0) {
                        links.send(r, streamId, Envelope.FLAG_RETRANSMISSION, k, settledFor(r), buffer,
                            slot * maxBytes, lengths[slot]);
                        room--;
                        sentAt[slot] = now;
                        resent[r][slot >>> 6] |= 1L << slot;
                        resentTo = true;
                        retransmitted++;
                        retransmittedTo[r]++;
                        work++;
                        due = now + 2 * timeout;
                    } else {
                        due = now + Math.max(1, period / 4);
                    }
                }
                arm(due);
            }
            if (resentTo) {
                timeouts[r].backOff();
            }
        }
        return work;
    }

    /**
     * Takes an acknowledgement from receiver {@code from}. One that acknowledges an index not yet broadcast
     * (a base beyond the next index, a bit beyond the newest) or has a base of 0 is absurd: dropped whole,
     * counted as malformed. Acknowledgements only ever add: a stale one changes nothing.
     */
    @Override
    public void onAck(int from, long base, DirectBuffer bitmap, int bitmapOffset, int words) {
        final long newest = nextIndex - 1;
        if (base < 1 || base > nextIndex || words < 0 || words > ackWords) {
            malformed++;
            return;
        }
        for (int i = words - 1; i >= 0; i--) {
            long w = bitmap.getLong(bitmapOffset + 8 * i, Envelope.ORDER);
            if (w != 0) {
                long highest = base + 1 + 64L * i + (63 - Long.numberOfLeadingZeros(w));
                if (highest > newest) {
                    malformed++;
                    return;
                }
                break;
            }
        }
        acksReceived++;
        final long oldest = oldest();
        final long now = links.clock().nanoTime();
        long fastest = Long.MAX_VALUE; // the shortest acknowledgement time among messages sent once, newly acked
        for (long k = Math.max(oldest, settledBelow[from]), end = Math.min(base, nextIndex); k < end; k++) { // <= 2t
            fastest = Math.min(fastest, setAcked(from, slot(k), now));
        }
        settledBelow[from] = Math.max(settledBelow[from], base);
        for (int i = 0; i < words; i++) {
            long w = bitmap.getLong(bitmapOffset + 8 * i, Envelope.ORDER);
            long first = base + 1 + 64L * i;
            if (first < oldest) { // indices below the oldest buffered: their slots hold later messages now
                w = oldest - first >= 64 ? 0 : w & (-1L << (oldest - first));
            }
            if (w == 0) {
                continue;
            }
            int firstSlot = slot(first); // one division a word, not one an index
            if (window >= 64) {
                w &= ~RingBits.window(acked[from], window, firstSlot); // only what is newly acknowledged
            }
            while (w != 0) {
                int s = firstSlot + Long.numberOfTrailingZeros(w);
                fastest = Math.min(fastest, setAcked(from, s < window ? s : s % window, now));
                w &= w - 1;
            }
        }
        if (fastest != Long.MAX_VALUE) {
            timeouts[from].sample(fastest);
        }
    }

    // ---- receiver ------------------------------------------------------------------------------------

    /** A message of this stream from member {@code from}: delivered if new, else dropped and counted. */
    @Override
    public void onData(int from, long index, int flags, long settleClaim, DirectBuffer src, int offset, int length) {
        if (index < 1 || index >= MAX_INDEX || length > maxBytes) {
            malformed++;
            return;
        }
        int outcome = windows[from].accept(index);
        if (settleClaim > 0) {
            windows[from].settle(settleClaim); // the broadcaster's word, about its own stream only
        }
        // Acknowledge every arrival: a duplicate or an out-of-tail copy means the broadcaster missed an ack.
        links.requestAck(from);
        if (outcome == DeliveryWindow.NEW) {
            delivered++;
            handler.onDeliver(from, index, src, offset, length);
        } else if (outcome == DeliveryWindow.DUPLICATE) {
            duplicates++;
        } else {
            outOfWindow++;
        }
    }

    /** Whether anything arrived from {@code to} on this stream: then every envelope to it carries our ack. */
    @Override
    public boolean hasAck(int to) {
        return windows[to].high() > 0;
    }

    /** Writes the ack for broadcaster {@code to}: its window's lowest undelivered index and the delivered ones above. */
    @Override
    public int writeAck(int to, MutableDirectBuffer dst, int entryOffset) {
        DeliveryWindow w = windows[to];
        long base = w.low();
        long span = w.high() - base; // indices base + 1 .. high; < 2t
        int words = span <= 0 ? 0 : (int) ((span + 63) / 64);
        Envelope.putAckEntry(dst, entryOffset, streamId, base, words);
        for (int i = 0; i < words; i++) {
            long first = base + 1 + 64L * i; // > low >= the window's start
            Envelope.putAckWord(dst, entryOffset, i, w.deliveredBits(first, (int) Math.min(64, w.high() - first + 1)));
        }
        return Envelope.ackEntryBytes(words);
    }

    // ---- helpers -------------------------------------------------------------------------------------

    private int slot(long index) {
        return (int) (index % window);
    }

    /**
     * The settle claim for an envelope to receiver {@code r}: the lowest buffered index r has not acknowledged (indices
     * not addressed to r count as acknowledged), or the next index if there is none. Below it r will get nothing more
     * from this stream: what it acknowledged, what was never for it, and what left the buffer. Amortized O(1): the
     * cursor only moves up.
     */
    private long settledFor(int r) {
        long k = Math.max(settledCursor[r], oldest());
        while (k < nextIndex && isAcked(r, slot(k))) {
            k++;
        }
        settledCursor[r] = k;
        return k;
    }

    /** Oldest index still buffered. */
    private long oldest() {
        return Math.max(firstIndex, nextIndex - window);
    }

    private boolean isAcked(int r, int slot) {
        return (acked[r][slot >>> 6] & (1L << slot)) != 0;
    }

    /**
     * Marks the slot's message acknowledged by {@code r}; returns how long the acknowledgement took if it is new and
     * the message went to {@code r} once, else {@link Long#MAX_VALUE} (nothing to measure).
     */
    private long setAcked(int r, int slot, long now) {
        long bit = 1L << slot;
        int word = slot >>> 6;
        if ((acked[r][word] & bit) != 0) {
            return Long.MAX_VALUE;
        }
        acked[r][word] |= bit;
        return (resent[r][word] & bit) != 0 ? Long.MAX_VALUE : now - lastSent[r][slot];
    }

    private boolean ackedByAll(int slot) {
        for (int r = 0; r < n; r++) {
            if (!isAcked(r, slot)) {
                return false;
            }
        }
        return true;
    }

    private void arm(long at) {
        if (!retransmitArmed || at - retransmitAt < 0) {
            retransmitAt = at;
            retransmitArmed = true;
        }
    }

    // ---- introspection -------------------------------------------------------------------------------

    @Override
    public int streamId() {
        return streamId;
    }

    @Override
    public int maxAckWords() {
        return ackWords;
    }

    public TbcastConfig config() {
        return config;
    }

    /** Index the next broadcast will get (= broadcasts + 1). */
    public long nextIndex() {
        return nextIndex;
    }

    /** Messages in the buffer: min(broadcasts, 2t). */
    public int buffered() {
        return (int) (nextIndex - oldest());
    }

    /** Buffered messages that member {@code receiver} has not acknowledged. */
    public int unacknowledged(int receiver) {
        int count = 0;
        for (long k = oldest(); k < nextIndex; k++) {
            if (!isAcked(receiver, slot(k))) {
                count++;
            }
        }
        return count;
    }

    /** Highest index seen from {@code broadcaster} (0 before any). */
    public long highestSeen(int broadcaster) {
        return windows[broadcaster].high();
    }

    /** Messages broadcast. */
    public long broadcasts() {
        return broadcasts;
    }

    /** First transmissions: one per member per broadcast. */
    public long sent() {
        return sent;
    }

    /** Retransmissions, all receivers together. */
    public long retransmitted() {
        return retransmitted;
    }

    /** The current retransmission timeout for member {@code receiver}, in nanoseconds ({@link AdaptiveTimeout}). */
    public long retransmitTimeoutNanos(int receiver) {
        return timeouts[receiver].nanos();
    }

    /** Retransmissions to member {@code receiver}. */
    public long retransmittedTo(int receiver) {
        return retransmittedTo[receiver];
    }

    /** Buffered messages evicted while some receiver had not acknowledged them. */
    public long evicted() {
        return evicted;
    }

    /** Messages delivered, from all broadcasters. */
    public long delivered() {
        return delivered;
    }

    /** Arrivals of an index already delivered, dropped. */
    public long duplicates() {
        return duplicates;
    }

    /** Arrivals of an index below the broadcaster's window (out of the tail), dropped. */
    public long outOfWindow() {
        return outOfWindow;
    }

    /**
     * Dropped as malformed: messages with an index outside 1..2^62-1 or longer than the maximum, and
     * absurd acknowledgements (base 0, or acknowledging indices not yet broadcast).
     */
    public long malformed() {
        return malformed;
    }

    /** Valid acknowledgements taken. */
    public long acksReceived() {
        return acksReceived;
    }
}
