package org.ubft.ctbcast.link;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.common.NodeId;
import org.ubft.ctbcast.channel.TailChannelLayout;
import org.ubft.ctbcast.channel.TailChannelReceiver;
import org.ubft.ctbcast.channel.TailChannelSender;
import org.ubft.ctbcast.channel.TailMessageHandler;
import org.ubft.fabric.CompletionRouter;
import org.ubft.fabric.Fabric;

/**
 * One replica's links to the n members of its group (itself included): the replica-to-replica
 * transport that TBcast and the consensus streams run on.
 *
 * <ul>
 *   <li>To every other member p: a {@link TailChannelSender} writing the ring that p registered for this
 *       replica ({@link TailChannelLayout#regionId(int) regionId(self)} at p); from every other member p:
 *       a {@link TailChannelReceiver} over the ring {@code regionId(p)} registered here, writable by p
 *       only. So what arrives on a ring comes from the member it is named after (fabric permissions).
 *       All on the replica's one {@link Fabric}; the senders' completions come through the
 *       {@link CompletionRouter} under tags {@code tagBase + p}.</li>
 *   <li>To itself: a bounded loopback queue, no fabric; delivered on the next {@link #doWork()}.</li>
 *   <li>Every message is an {@link Envelope}: a stream id lets several {@link LinkStream}s share a
 *       channel; the current ack entry of every stream that has one for the destination rides on
 *       everything that goes there (paper §6.2, "acknowledgements are piggybacked"); when a stream asked
 *       for an acknowledgement ({@link #requestAck}) and nothing went there within
 *       {@link LinkConfig#ackDelayNanos()}, an ACK envelope carries the acks alone, as soon as the
 *       channel has {@link #sendRoom room} for it (it never pushes a queued message out).</li>
 *   <li>An envelope that fails {@link Envelope#validate} or names an unregistered stream is dropped whole
 *       and counted ({@link #malformed()}); nothing a peer writes makes this class throw, block or
 *       allocate. Channel guarantees are the tail channel's: the last t messages of a channel, FIFO, no
 *       retransmission; streams that need more (TBcast) retransmit themselves.</li>
 * </ul>
 *
 * <p>Sans-IO: single-threaded, on the fabric's thread; time only from the injected {@link NanoClock};
 * memory fixed at construction ({@link LinkConfig}). Streams' callbacks may {@link #send} (also to
 * this replica) but must not call {@link #doWork()}.
 */
public final class PeerLinks {
    /**
     * Sees every DATA envelope this replica sends, once per receiver and transmission (retransmissions included),
     * before it goes out, and decides what goes out instead: nothing, the message, a rewritten one, or several,
     * each through {@code sink}. A test hook for Byzantine behaviours (a broadcaster that sends different messages to
     * different receivers); production code never sets one. The buffer is valid only during the call.
     */
    @FunctionalInterface
    public interface OutboundTap {
        void onSend(int to, int streamId, int flags, long index, DirectBuffer src, int offset, int length, Sink sink);
    }

    /** Where an {@link OutboundTap} sends: the links' own send, without the tap. */
    @FunctionalInterface
    public interface Sink {
        void send(int to, int streamId, int flags, long index, DirectBuffer src, int offset, int length);
    }

    private final Fabric fabric;
    private final CompletionRouter router;
    private final NanoClock clock;
    private final LinkConfig config;
    private final int[] members;
    private final int self;
    private final int n;
    private final TailChannelLayout layout;
    private final TailChannelSender[] senders;
    private final TailChannelReceiver[] receivers;
    private final TailMessageHandler[] handlers;
    private final LoopbackRing loopback;
    private final UnsafeBuffer loopbackCopy;
    private final UnsafeBuffer scratch;
    private final Envelope envelope = new Envelope();
    private final LinkStream[] streams;
    private int streamCount;
    private final boolean[] ackRequested;
    private final long[] ackDueAt;
    /** Stream whose timers run first in the next duty cycle (rotates, so no stream starves the others of room). */
    private int firstStream;
    private OutboundTap tap;
    /** The settle claim of the message being sent, for every envelope the tap makes of it. */
    private long settle;
    private final Sink untapped = this::sendUntapped;

    private long envelopesSent;
    private long envelopesReceived;
    /** Valid envelopes received from each member (a sign of life, acknowledgements included). */
    private final long[] receivedFrom;
    private long ackEnvelopes;
    private long malformed;
    private long unknownStream;

    /**
     * Registers the receive rings of this replica's peers on the router's fabric and creates the senders.
     *
     * @param members node ids of the group, in member order (member i is {@code members[i]})
     * @param self    this replica's member position; {@code members[self]} must be the fabric's node
     */
    public PeerLinks(CompletionRouter router, NanoClock clock, int[] members, int self, LinkConfig config) {
        this.fabric = router.fabric();
        this.router = router;
        this.clock = clock;
        this.config = config;
        this.members = members.clone();
        this.n = members.length;
        this.self = self;
        if (self < 0 || self >= n) {
            throw new IllegalArgumentException("self " + self + " outside 0.." + (n - 1));
        }
        if (members[self] != fabric.localNode()) {
            throw new IllegalArgumentException("member " + self + " is " + NodeId.toString(members[self])
                + " but the fabric is " + NodeId.toString(fabric.localNode()));
        }
        if (config.tagBase() + n - 1 > CompletionRouter.MAX_TAG) {
            throw new IllegalArgumentException("tags " + config.tagBase() + ".." + (config.tagBase() + n - 1)
                + " exceed " + CompletionRouter.MAX_TAG);
        }
        for (int i = 0; i < n; i++) {
            if (!NodeId.isValid(members[i])) {
                throw new IllegalArgumentException("member " + i + " is not a node id: " + members[i]);
            }
            for (int j = 0; j < i; j++) {
                if (members[i] == members[j]) {
                    throw new IllegalArgumentException("members " + j + " and " + i + " are both "
                        + NodeId.toString(members[i]));
                }
            }
        }
        this.layout = new TailChannelLayout(config.channelSlots(), config.maxEnvelopeBytes());
        this.senders = new TailChannelSender[n];
        this.receivers = new TailChannelReceiver[n];
        this.handlers = new TailMessageHandler[n];
        this.receivedFrom = new long[n];
        for (int p = 0; p < n; p++) {
            if (p == self) {
                continue;
            }
            final int from = p;
            receivers[p] = TailChannelReceiver.register(fabric, TailChannelLayout.regionId(members[p]), members[p], layout);
            handlers[p] = (buffer, offset, length, channelIndex) -> dispatch(from, buffer, offset, length);
            senders[p] = new TailChannelSender(fabric, config.tagBase() + p, members[p],
                TailChannelLayout.regionId(members[self]), layout, config.stagingCapacity());
            router.register(config.tagBase() + p, senders[p]);
        }
        this.loopback = new LoopbackRing(config.loopbackCapacity(), config.maxEnvelopeBytes());
        this.loopbackCopy = new UnsafeBuffer(new byte[config.maxEnvelopeBytes()]);
        this.scratch = new UnsafeBuffer(new byte[config.maxEnvelopeBytes()]);
        this.streams = new LinkStream[config.maxStreams()];
        this.ackRequested = new boolean[n];
        this.ackDueAt = new long[n];
    }

    /**
     * Adds a stream (at set-up, before traffic).
     *
     * @throws IllegalArgumentException if its id is taken or out of range, its acks too large, or the
     *                                  links already carry {@link LinkConfig#maxStreams()} streams
     */
    public void register(LinkStream stream) {
        int id = stream.streamId();
        if (id < 0 || id > Envelope.MAX_STREAM_ID) {
            throw new IllegalArgumentException("stream id " + id + " outside 0.." + Envelope.MAX_STREAM_ID);
        }
        if (streamFor(id) != null) {
            throw new IllegalArgumentException("stream " + id + " is already registered");
        }
        if (streamCount == streams.length) {
            throw new IllegalArgumentException("links are full (" + streams.length + " streams)");
        }
        if (stream.maxAckWords() > config.maxAckWords()) {
            throw new IllegalArgumentException("stream " + id + " writes acks of " + stream.maxAckWords()
                + " words; the links carry at most " + config.maxAckWords());
        }
        streams[streamCount++] = stream;
    }

    /**
     * Sends a DATA envelope of stream {@code streamId} to member {@code to} (this replica included),
     * carrying every acknowledgement pending for {@code to}. Never blocks: the channel queues it (or evicts
     * its oldest queued message) if its slot is busy.
     *
     * @throws IllegalArgumentException if the payload is longer than {@link LinkConfig#maxPayloadBytes()},
     *                                  or {@code to}, the stream or the flags are out of range (local errors)
     */
    public void send(int to, int streamId, int flags, long index, DirectBuffer src, int offset, int length) {
        send(to, streamId, flags, index, 0, src, offset, length);
    }

    /**
     * {@link #send(int, int, int, long, DirectBuffer, int, int)} with a settle claim ({@link Envelope#settledBelow()}):
     * {@code settledBelow} is 0 (none) or an index from {@code index - 2^31 + 2} to {@code index}.
     */
    public void send(int to, int streamId, int flags, long index, long settledBelow, DirectBuffer src, int offset,
                     int length) {
        if (settledBelow < 0 || settledBelow > index || (settledBelow > 0 && index - settledBelow > Integer.MAX_VALUE - 1)) {
            throw new IllegalArgumentException("settled below " + settledBelow + " for index " + index);
        }
        settle = settledBelow;
        if (tap != null) {
            tap.onSend(to, streamId, flags, index, src, offset, length, untapped);
        } else {
            sendUntapped(to, streamId, flags, index, src, offset, length);
        }
    }

    /**
     * Puts {@code tap} between the streams and the channels ({@code null}: none, the default). Test-only: the
     * simulator's Byzantine behaviours use it to equivocate.
     */
    public void outboundTap(OutboundTap tap) {
        this.tap = tap;
    }

    private void sendUntapped(int to, int streamId, int flags, long index, DirectBuffer src, int offset, int length) {
        if (to < 0 || to >= n) {
            throw new IllegalArgumentException("member " + to + " outside 0.." + (n - 1));
        }
        if (length < 0 || length > config.maxPayloadBytes()) {
            throw new IllegalArgumentException("payload of " + length + " bytes; at most " + config.maxPayloadBytes());
        }
        if (streamId < 0 || streamId > Envelope.MAX_STREAM_ID || (flags & ~Envelope.FLAG_RETRANSMISSION) != 0) {
            throw new IllegalArgumentException("stream " + streamId + " or flags " + flags + " out of range");
        }
        int at = Envelope.putHeader(scratch, 0, Envelope.TYPE_DATA, flags, streamId, index);
        if (settle > 0 && settle <= index) { // a tap's rewrite with another index claims nothing
            Envelope.putSettledBelow(scratch, 0, index, settle);
        }
        at = appendAcks(to, at);
        Envelope.putLength(scratch, 0, length);
        scratch.putBytes(at, src, offset, length);
        transmit(to, at + length);
    }

    /**
     * Tells the links that a stream's acknowledgement for member {@code to} changed: it goes with the next
     * envelope to {@code to}, or alone {@link LinkConfig#ackDelayNanos()} from now (later if the channel
     * to {@code to} is full).
     */
    public void requestAck(int to) {
        if (!ackRequested[to]) {
            ackRequested[to] = true;
            ackDueAt[to] = clock.nanoTime() + config.ackDelayNanos();
        }
    }

    /**
     * One duty cycle: the router's completions, then at most {@link LinkConfig#pollLimit()} messages from
     * each channel and from the loopback (dispatched to the streams), the streams' timers, and the ACK
     * envelopes that are due.
     *
     * @return work done (0 when idle)
     */
    public int doWork() {
        return doWork(true);
    }

    /**
     * {@link #doWork()}, polling the router only if {@code pollRouter}: links that share their router with others
     * polled in the same duty cycle leave it out (each poll of a tcp fabric running on the caller's thread is a
     * network duty cycle, with a system call).
     */
    public int doWork(boolean pollRouter) {
        int work = pollRouter ? router.poll(config.pollLimit()) : 0;
        for (int p = 0; p < n; p++) {
            if (p != self) {
                work += receivers[p].poll(handlers[p], config.pollLimit());
            }
        }
        for (int i = 0; i < config.pollLimit(); i++) {
            int length = loopback.take(loopbackCopy);
            if (length < 0) {
                break;
            }
            dispatch(self, loopbackCopy, 0, length);
            work++;
        }
        long now = clock.nanoTime();
        for (int i = 0; i < streamCount; i++) {
            work += streams[(firstStream + i) % streamCount].doWork(now);
        }
        if (streamCount > 0) {
            firstStream = (firstStream + 1) % streamCount;
        }
        for (int p = 0; p < n; p++) {
            if (ackRequested[p] && now - ackDueAt[p] >= 0 && sendRoom(p) > 0) {
                sendAcks(p);
                work++;
            }
        }
        return work;
    }

    /**
     * Messages that can go to member {@code to} now without waiting behind others or evicting any: free
     * slots of the channel not claimed by queued messages (free loopback entries for this replica).
     * Retransmissions and standalone ACKs use only this room, so that they never push out fresher
     * messages and a slow or dead peer costs at most one channel's worth of them at a time.
     */
    public int sendRoom(int to) {
        if (to == self) {
            return config.loopbackCapacity() - loopback.size();
        }
        TailChannelSender s = senders[to];
        return Math.max(0, layout.t() - s.inFlight() - s.staged());
    }

    private void sendAcks(int to) {
        Envelope.putHeader(scratch, 0, Envelope.TYPE_ACK, 0, 0, 0);
        int at = appendAcks(to, Envelope.HEADER_BYTES);
        if (at > Envelope.HEADER_BYTES) {
            ackEnvelopes++;
            transmit(to, at);
        }
    }

    /** Appends every stream's ack entry for {@code to} at {@code at} of the scratch envelope. */
    private int appendAcks(int to, int at) {
        int count = 0;
        for (int s = 0; s < streamCount; s++) {
            if (streams[s].hasAck(to)) {
                at += streams[s].writeAck(to, scratch, at);
                count++;
            }
        }
        Envelope.putAckCount(scratch, 0, count);
        ackRequested[to] = false;
        return at;
    }

    private void transmit(int to, int length) {
        envelopesSent++;
        if (to == self) {
            loopback.add(scratch, 0, length);
        } else {
            senders[to].send(scratch, 0, length);
        }
    }

    /** Validates an envelope from member {@code from} and hands its acks, then its message, to the streams. */
    private void dispatch(int from, DirectBuffer buffer, int offset, int length) {
        Envelope e = envelope.wrap(buffer, offset, length);
        if (e.validate(streamCount, config.maxAckWords()) != Envelope.VALID) {
            malformed++;
            return;
        }
        // Every stream named must exist before anything is acted upon: the envelope is taken or dropped whole.
        int acks = e.ackCount();
        int entry = e.firstAck();
        for (int i = 0; i < acks; i++, entry = e.nextAck(entry)) {
            LinkStream s = streamFor(e.ackStream(entry));
            if (s == null || e.ackWords(entry) > s.maxAckWords()) {
                unknownStream++;
                malformed++;
                return;
            }
        }
        LinkStream data = null;
        if (e.type() == Envelope.TYPE_DATA && (data = streamFor(e.stream())) == null) {
            unknownStream++;
            malformed++;
            return;
        }
        envelopesReceived++;
        receivedFrom[from]++;
        entry = e.firstAck();
        for (int i = 0; i < acks; i++, entry = e.nextAck(entry)) {
            streamFor(e.ackStream(entry)).onAck(from, e.ackBase(entry), buffer, Envelope.ackBitmap(entry), e.ackWords(entry));
        }
        if (data != null) {
            data.onData(from, e.index(), e.flags(), e.settledBelow(), buffer, e.payloadOffset(), e.payloadLength());
        }
    }

    private LinkStream streamFor(int id) {
        for (int s = 0; s < streamCount; s++) {
            if (streams[s].streamId() == id) {
                return streams[s];
            }
        }
        return null;
    }

    // ---- introspection -------------------------------------------------------------------------------

    /** Members in the group, n. */
    public int members() {
        return n;
    }

    /** Node id of member {@code member}. */
    public int nodeOf(int member) {
        return members[member];
    }

    /** This replica's member position. */
    public int self() {
        return self;
    }

    public NanoClock clock() {
        return clock;
    }

    public LinkConfig config() {
        return config;
    }

    public Fabric fabric() {
        return fabric;
    }

    /** The channel to member {@code member} ({@code null} for this replica). */
    /** Starts every sender's channel indices at {@code firstIndex} (before traffic; see {@link TailChannelSender#startAt}). */
    public void startAt(long firstIndex) {
        for (TailChannelSender s : senders) {
            if (s != null) {
                s.startAt(firstIndex);
            }
        }
    }

    public TailChannelSender sender(int member) {
        return senders[member];
    }

    /** The channel from member {@code member} ({@code null} for this replica). */
    public TailChannelReceiver receiver(int member) {
        return receivers[member];
    }

    public TailChannelLayout layout() {
        return layout;
    }

    /** Envelopes sent (to peers and to itself), DATA and ACK. */
    public long envelopesSent() {
        return envelopesSent;
    }

    /** Valid envelopes received and dispatched. */
    public long envelopesReceived() {
        return envelopesReceived;
    }

    /** Valid envelopes received from member {@code member} (acknowledgements included): a sign of its life. */
    public long envelopesReceived(int member) {
        return receivedFrom[member];
    }

    /** Standalone ACK envelopes sent. */
    public long ackEnvelopes() {
        return ackEnvelopes;
    }

    /** Envelopes dropped whole: bad layout ({@link Envelope#validate}) or a stream not registered here. */
    public long malformed() {
        return malformed;
    }

    /** Of {@link #malformed()}: envelopes naming a stream not registered here (or acks too large for it). */
    public long unknownStream() {
        return unknownStream;
    }

    /** Messages to itself evicted from the loopback before they were polled. */
    public long loopbackEvicted() {
        return loopback.evicted();
    }

    /** Messages to itself waiting for the next poll. */
    public int loopbackQueued() {
        return loopback.size();
    }

    /**
     * Messages queued for member {@code to}: the loopback's for this member, otherwise the tail channel's WRITEs in
     * flight and staged messages (read-only, for bounded-memory probes).
     */
    public int queued(int to) {
        if (to == self) {
            return loopback.size();
        }
        return senders[to].inFlight() + senders[to].staged();
    }

    /** The most {@link #queued} can be: the loopback capacity, or t slots plus the staging capacity. */
    public int queueCapacity(int to) {
        return to == self ? config.loopbackCapacity() : layout.t() + config.stagingCapacity();
    }
}
