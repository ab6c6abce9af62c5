package org.ubft.apps.orderbook;

import org.ubft.consensus.app.StateMachine;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Objects;

/**
 * The order book as a replicated application: each request ({@link RequestCodec}) is one book operation and its
 * reply the operation's events ({@link ReplyCodec}). A request that is not a request of the codec is answered with a
 * single reject (order id 0, {@link RejectReason#MALFORMED}) and changes nothing. The state is the whole book
 * ({@link BookSnapshot}); its digest is the SHA-256 of the snapshot.
 */
public final class OrderBookMachine implements StateMachine {
    /**
     * @param book          the book's settings
     * @param maxReplyBytes the largest reply (the consensus layer's maximum reply size, 1 KiB by default); events
     *                      beyond are left out and the reply marked truncated
     */
    public record Config(OrderBook.Config book, int maxReplyBytes) {
        public Config {
            Objects.requireNonNull(book, "book");
            if (maxReplyBytes < ReplyCodec.HEADER_BYTES + 10) {
                throw new IllegalArgumentException("maxReplyBytes must be at least " + (ReplyCodec.HEADER_BYTES + 10)
                    + ", got " + maxReplyBytes);
            }
        }

        /** {@link OrderBook.Config#defaults()} and 1 KiB replies. */
        public static Config defaults() {
            return new Config(OrderBook.Config.defaults(), 1024);
        }
    }

    private final Config config;
    private final RequestCodec requests = new RequestCodec();
    private final ReplyCodec.Encoder reply;
    private OrderBook book;

    /** A machine with {@link Config#defaults()}. */
    public OrderBookMachine() {
        this(Config.defaults());
    }

    /** A machine holding an empty book with {@code config}. */
    public OrderBookMachine(Config config) {
        this.config = Objects.requireNonNull(config, "config");
        this.reply = new ReplyCodec.Encoder(config.maxReplyBytes());
        this.book = new OrderBook(config.book());
        book.addListener(reply);
    }

    @Override
    public byte[] execute(byte[] request) {
        reply.begin();
        if (!requests.apply(book, request)) {
            reply.onReject(0, RejectReason.MALFORMED);
        }
        return reply.finish();
    }

    @Override
    public byte[] snapshot() {
        return BookSnapshot.write(book);
    }

    @Override
    public void restore(byte[] snapshot) {
        OrderBook restored = BookSnapshot.read(snapshot, config.book());
        book.removeListener(reply);
        book = restored;
        book.addListener(reply);
    }

    @Override
    public int maxSnapshotBytes() {
        return BookSnapshot.maxBytes(config.book());
    }

    /** SHA-256 of {@link #snapshot()}: the state digest. */
    public byte[] digest() {
        try {
            return MessageDigest.getInstance("SHA-256").digest(snapshot());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
    }

    /** The book, for queries (do not change it: replicas would diverge). */
    public OrderBook book() {
        return book;
    }

    /** The settings this machine was made with. */
    public Config config() {
        return config;
    }
}
