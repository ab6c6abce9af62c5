package org.ubft.consensus.client;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.NanoClock;
import org.ubft.common.NodeId;
import org.ubft.common.config.ClusterConfig;
import org.ubft.consensus.wire.ClientWire;
import org.ubft.ctbcast.link.Envelope;
import org.ubft.ctbcast.link.LinkConfig;
import org.ubft.ctbcast.link.LinkStream;
import org.ubft.ctbcast.link.PeerLinks;
import org.ubft.fabric.CompletionRouter;

/**
 * The transport between clients and replicas: a star of tail channels over {@link PeerLinks}.
 *
 * <ul>
 *   <li>Replica side ({@link #forReplica}): members are {@code [replica(r), client(0), .., client(k-1)]}; peer
 *       {@code c} is client {@code c}.</li>
 *   <li>Client side ({@link #forClient}): members are {@code [client(c), replica(0), .., replica(n-1)]}; peer
 *       {@code r} is replica {@code r}.</li>
 * </ul>
 * Rings are named after their sender node ({@link org.ubft.ctbcast.channel.TailChannelLayout#regionId}), so a
 * replica's client rings never collide with the rings of its replica group. One stream, {@link #STREAM_ID}, carries
 * raw messages (ClientWire REQUEST/REPLY); there are no acknowledgements and no retransmission here (the client
 * retransmits, {@link ClientCore}). Both ends must use the same {@link LinkConfig} sizes (slots, payload): a ring is
 * laid out by its receiver and written by its sender. The caller's {@link LinkConfig#tagBase()} is used as is; tags
 * {@code tagBase .. tagBase + peers} must not be used by anything else on the same {@link CompletionRouter}.
 *
 * <p>Sans-IO and single-threaded, like {@link PeerLinks}: call {@link #send} and {@link #doWork()} from the
 * fabric's thread only. Malformed envelopes are dropped and counted by {@link PeerLinks} ({@link #malformed()}).
 */
public final class ClientLinks {
    /** The one stream id on client links. */
    public static final int STREAM_ID = 1;
    /**
     * Slots of each client link channel in {@link #defaultConfig(ClusterConfig)}: room for the replies to twice the
     * requests a client keeps in flight at a consensus batch's worth (8), since a reply the client has not read when
     * its slot is written again is lost, and a replica answers a retransmission only for the client's last request.
     */
    public static final int DEFAULT_CHANNEL_SLOTS = 16;
    /** Tag base of {@link #defaultConfig(ClusterConfig)}: far above the replica group's links (tags from 16). */
    public static final int DEFAULT_TAG_BASE = 4096;

    /** Receives the messages of the peers. */
    @FunctionalInterface
    public interface Handler {
        /**
         * A message from peer {@code peer} (client index on a replica, replica index on a client).
         *
         * @param buffer valid only during the call; the bytes are the peer's word and must be validated
         */
        void onMessage(int peer, DirectBuffer buffer, int offset, int length);
    }

    private final PeerLinks links;
    private final Handler handler;
    private final int peers;
    private long sendIndex;
    private long messagesSent;
    private long messagesReceived;
    private long unexpectedSelf;

    private ClientLinks(CompletionRouter router, NanoClock clock, int[] members, LinkConfig config, Handler handler) {
        if (handler == null) {
            throw new IllegalArgumentException("null handler");
        }
        this.handler = handler;
        this.peers = members.length - 1;
        this.links = new PeerLinks(router, clock, members, 0, config);
        this.links.register(new Stream());
    }

    /**
     * Replica {@code replica}'s end of the links to clients {@code 0 .. clients - 1}; the router's fabric must be
     * replica {@code replica}'s.
     */
    public static ClientLinks forReplica(CompletionRouter router, NanoClock clock, int replica, int clients,
                                         LinkConfig config, Handler handler) {
        if (clients <= 0) {
            throw new IllegalArgumentException("clients must be positive, got " + clients);
        }
        int[] members = new int[clients + 1];
        members[0] = NodeId.replica(replica);
        for (int c = 0; c < clients; c++) {
            members[c + 1] = NodeId.client(c);
        }
        return new ClientLinks(router, clock, members, config, handler);
    }

    /**
     * Client {@code client}'s end of the links to replicas {@code 0 .. n - 1}; the router's fabric must be client
     * {@code client}'s.
     */
    public static ClientLinks forClient(CompletionRouter router, NanoClock clock, int client, int n,
                                        LinkConfig config, Handler handler) {
        if (n <= 0) {
            throw new IllegalArgumentException("n must be positive, got " + n);
        }
        int[] members = new int[n + 1];
        members[0] = NodeId.client(client);
        for (int r = 0; r < n; r++) {
            members[r + 1] = NodeId.replica(r);
        }
        return new ClientLinks(router, clock, members, config, handler);
    }

    /**
     * The link sizes a cluster's clients and replicas agree on: {@link #DEFAULT_CHANNEL_SLOTS} slots, envelopes of
     * the cluster's {@code channel.max.message.bytes}, one stream, tags from {@link #DEFAULT_TAG_BASE}.
     */
    public static LinkConfig defaultConfig(ClusterConfig cluster) {
        return config(DEFAULT_CHANNEL_SLOTS, cluster.channelMaxMessageBytes() - envelopeOverhead(), DEFAULT_TAG_BASE);
    }

    /** A link config of {@code slots} slots carrying messages of up to {@code maxMessageBytes}, tags from {@code tagBase}. */
    public static LinkConfig config(int slots, int maxMessageBytes, int tagBase) {
        return new LinkConfig(slots, 4 * slots, 1, maxMessageBytes, 1, 1, 0, tagBase, 4 * slots);
    }

    /** Envelope bytes around a message on these links (header and the room of one ack entry). */
    public static int envelopeOverhead() {
        return Envelope.maxBytes(1, LinkConfig.ackWords(1), 0);
    }

    /** Largest REQUEST payload that fits messages of {@code maxMessageBytes} (signed requests included). */
    public static int maxRequestPayload(int maxMessageBytes) {
        return maxMessageBytes - ClientWire.HEADER_BYTES - ClientWire.SIGNATURE_BYTES;
    }

    /** Largest REPLY body that fits messages of {@code maxMessageBytes}. */
    public static int maxReplyBody(int maxMessageBytes) {
        return maxMessageBytes - ClientWire.HEADER_BYTES;
    }

    /**
     * Sends a message to peer {@code peer}; never blocks (the channel queues it or evicts its oldest queued message).
     *
     * @throws IllegalArgumentException if {@code peer} is out of range or the message too long (local errors)
     */
    public void send(int peer, DirectBuffer buffer, int offset, int length) {
        if (peer < 0 || peer >= peers) {
            throw new IllegalArgumentException("peer " + peer + " outside 0.." + (peers - 1));
        }
        links.send(peer + 1, STREAM_ID, 0, ++sendIndex, buffer, offset, length);
        messagesSent++;
    }

    /** Messages that can go to {@code peer} now without waiting or evicting a queued one. */
    public int sendRoom(int peer) {
        return links.sendRoom(peer + 1);
    }

    /** One duty cycle of the links: completions, then incoming messages to the handler. @return work done */
    public int doWork() {
        return links.doWork();
    }

    /** {@link #doWork()} without polling the router, for an owner that polled it in this duty cycle already. */
    public int doWorkRouterPolled() {
        return links.doWork(false);
    }

    /** Number of peers (clients on a replica, replicas on a client). */
    public int peers() {
        return peers;
    }

    /** Largest message {@link #send} takes. */
    public int maxMessageBytes() {
        return links.config().maxPayloadBytes();
    }

    /** The underlying links (for their channel counters). */
    public PeerLinks links() {
        return links;
    }

    public long messagesSent() {
        return messagesSent;
    }

    public long messagesReceived() {
        return messagesReceived;
    }

    /** Envelopes dropped whole by {@link PeerLinks}: bad layout or unknown stream. */
    public long malformed() {
        return links.malformed() + unexpectedSelf;
    }

    @Override
    public String toString() {
        return "ClientLinks[" + NodeId.toString(links.nodeOf(0)) + ", peers=" + peers + ", sent=" + messagesSent
            + ", received=" + messagesReceived + ", malformed=" + malformed() + "]";
    }

    private final class Stream implements LinkStream {
        @Override
        public int streamId() {
            return STREAM_ID;
        }

        @Override
        public int maxAckWords() {
            return 0;
        }

        @Override
        public void onData(int from, long index, int flags, long settledBelow, DirectBuffer buffer, int offset,
                           int length) {
            if (from == 0) {
                unexpectedSelf++; // never sent: nothing goes to the loopback
                return;
            }
            messagesReceived++;
            handler.onMessage(from - 1, buffer, offset, length);
        }

        @Override
        public void onAck(int from, long base, DirectBuffer buffer, int bitmapOffset, int words) {
            // No acknowledgements on client links; PeerLinks only passes acks of streams that exist, and this one
            // never writes any, so a peer's ack entry is ignored.
        }

        @Override
        public boolean hasAck(int to) {
            return false;
        }

        @Override
        public int writeAck(int to, MutableDirectBuffer dst, int entryOffset) {
            return 0;
        }

        @Override
        public int doWork(long nowNanos) {
            return 0;
        }
    }
}
