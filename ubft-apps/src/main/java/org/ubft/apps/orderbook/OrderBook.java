package org.ubft.apps.orderbook;

import java.util.Objects;

/**
 * A limit order book with the feature set of Liquibook: limit and market orders (price 0), all-or-none,
 * immediate-or-cancel and fill-or-kill conditions, stop-market and stop-limit orders, cancel and replace, a depth book
 * of the top N levels per side and the BBO. The matching rules are those of {@link Matcher}; the events and their
 * order those of {@link OrderBookListener}.
 *
 * <p>Ids: the book gives every {@code add} the next id (1, 2, 3, ...), also when it rejects the order, and returns
 * it. Prices are in ticks (1..{@link #MAX_PRICE}, 0 = market), quantities in lots (1..{@link #MAX_QUANTITY}). The book
 * holds at most {@link Config#maxOrders()} open orders and held stops together; an add beyond is rejected with
 * {@link RejectReason#BOOK_FULL}. Invalid arguments are rejected through events, never thrown.
 *
 * <p>Deterministic: the events and the state depend only on the sequence of calls. Single-threaded: call it from one
 * thread, and not from a listener.
 */
public final class OrderBook {
    /** The largest price, in ticks. */
    public static final long MAX_PRICE = 1L << 40;
    /** The largest order quantity. */
    public static final long MAX_QUANTITY = 1L << 40;
    /** The price of a market order. */
    public static final long MARKET = 0;
    /** The largest {@link Config#maxOrders()} (so that no level's total quantity can overflow). */
    public static final int MAX_ORDERS_LIMIT = 1 << 22;

    /**
     * Book settings.
     *
     * @param depthLevels   levels per side in the depth book (N), 1..1000
     * @param maxOrders     open orders and held stops the book holds at most, 1..{@link #MAX_ORDERS_LIMIT}
     * @param closedHistory closed orders remembered for {@link #order} queries, 0..{@link #MAX_ORDERS_LIMIT}
     */
    public record Config(int depthLevels, int maxOrders, int closedHistory) {
        public Config {
            if (depthLevels < 1 || depthLevels > 1000) {
                throw new IllegalArgumentException("depthLevels must be 1..1000, got " + depthLevels);
            }
            if (maxOrders < 1 || maxOrders > MAX_ORDERS_LIMIT) {
                throw new IllegalArgumentException("maxOrders must be 1.." + MAX_ORDERS_LIMIT + ", got " + maxOrders);
            }
            if (closedHistory < 0 || closedHistory > MAX_ORDERS_LIMIT) {
                throw new IllegalArgumentException("closedHistory must be 0.." + MAX_ORDERS_LIMIT + ", got "
                    + closedHistory);
            }
        }

        /** 5 depth levels, 65,536 open orders, 1,024 closed orders remembered. */
        public static Config defaults() {
            return new Config(5, 1 << 16, 1 << 10);
        }
    }

    private final Config config;
    private final ListenerList listeners = new ListenerList();
    private final OrderStore store;
    private final Matcher matcher;
    private final DepthTracker depth;
    private long nextId = 1;
    private boolean busy;

    /** A book with {@link Config#defaults()}. */
    public OrderBook() {
        this(Config.defaults());
    }

    /** An empty book with {@code config}. */
    public OrderBook(Config config) {
        this.config = Objects.requireNonNull(config, "config");
        this.store = new OrderStore(config.maxOrders(), config.closedHistory());
        this.matcher = new Matcher(store, listeners);
        this.depth = new DepthTracker(config.depthLevels());
    }

    /** The settings this book was made with. */
    public Config config() {
        return config;
    }

    /** Adds a listener; listeners are called in the order added. */
    public void addListener(OrderBookListener listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
    }

    /** Removes a listener; false if it was not registered. */
    public boolean removeListener(OrderBookListener listener) {
        return listeners.remove(listener);
    }

    /** A limit order ({@code price} > 0) or a market order ({@link #MARKET}) without conditions. Returns its id. */
    public long add(Side side, long quantity, long price) {
        return add(side, quantity, price, 0, Conditions.NONE);
    }

    /**
     * Adds an order and matches it. Returns its id (also when rejected: the reject event carries it).
     *
     * @param side       buy or sell
     * @param quantity   1..{@link #MAX_QUANTITY}
     * @param price      limit price in ticks, or {@link #MARKET}
     * @param stopPrice  0 for none; else the order is held until the market price reaches it (a buy: market price
     *                   at or above, a sell: at or below), then becomes a market (price 0) or limit order
     * @param conditions {@link Conditions} bits
     */
    public long add(Side side, long quantity, long price, long stopPrice, int conditions) {
        Objects.requireNonNull(side, "side");
        begin();
        try {
            long id = nextId++;
            RejectReason reason = check(quantity, price, stopPrice, conditions);
            if (reason != null) {
                listeners.onReject(id, reason);
                store.closed().add(id, side, price, stopPrice, conditions, quantity, 0, OrderStatus.REJECTED);
                return id;
            }
            Order o = store.open(id, side, quantity, price, stopPrice, conditions);
            listeners.onAccept(id);
            matcher.enter(o);
            matcher.releaseStops();
            return id;
        } finally {
            end();
        }
    }

    private RejectReason check(long quantity, long price, long stopPrice, int conditions) {
        if (quantity <= 0 || quantity > MAX_QUANTITY) {
            return RejectReason.BAD_QUANTITY;
        }
        if (price < 0 || price > MAX_PRICE) {
            return RejectReason.BAD_PRICE;
        }
        if (stopPrice < 0 || stopPrice > MAX_PRICE) {
            return RejectReason.BAD_STOP_PRICE;
        }
        if (!Conditions.valid(conditions)) {
            return RejectReason.BAD_CONDITIONS;
        }
        return store.full() ? RejectReason.BOOK_FULL : null;
    }

    /** Cancels open order or held stop {@code id}; false (and a cancel-reject event) if there is none. */
    public boolean cancel(long id) {
        begin();
        try {
            Order o = store.get(id);
            if (o == null) {
                listeners.onCancelReject(id, RejectReason.UNKNOWN_ORDER);
                return false;
            }
            matcher.take(o);
            listeners.onCancel(id, o.open());
            store.close(o, OrderStatus.CANCELLED);
            return true;
        } finally {
            end();
        }
    }

    /**
     * Changes open order or held stop {@code id} by {@code sizeDelta} (positive adds, negative removes) and, unless
     * {@code newPrice} is 0, moves it to {@code newPrice}; it re-enters the book behind the orders at its price (losing
     * its time priority) and may trade. A reduction of the whole open quantity or more cancels it instead. Returns
     * whether it was replaced.
     */
    public boolean replace(long id, long sizeDelta, long newPrice) {
        begin();
        try {
            Order o = store.get(id);
            RejectReason reason = o == null ? RejectReason.UNKNOWN_ORDER
                : newPrice < 0 || newPrice > MAX_PRICE ? RejectReason.BAD_PRICE
                : sizeDelta > MAX_QUANTITY || o.quantity + sizeDelta > MAX_QUANTITY ? RejectReason.BAD_QUANTITY
                : null;
            if (reason != null) {
                listeners.onReplaceReject(id, reason);
                return false;
            }
            boolean held = o.held;
            matcher.take(o);
            if (sizeDelta <= -o.open()) {
                listeners.onCancel(id, o.open());
                store.close(o, OrderStatus.CANCELLED);
                return false;
            }
            o.quantity += sizeDelta;
            if (newPrice != 0) {
                o.price = newPrice;
            }
            listeners.onReplace(id, sizeDelta, o.price, o.open());
            matcher.reenter(o, held);
            matcher.releaseStops();
            return true;
        } finally {
            end();
        }
    }

    /**
     * Sets the market price (the last trade price otherwise) and releases the stops it reaches. A price outside
     * 1..{@link #MAX_PRICE} is rejected (reject event with order id 0). Returns whether it was set.
     */
    public boolean setMarketPrice(long price) {
        begin();
        try {
            if (price <= 0 || price > MAX_PRICE) {
                listeners.onReject(0, RejectReason.BAD_PRICE);
                return false;
            }
            matcher.marketPrice = price;
            matcher.releaseStops();
            return true;
        } finally {
            end();
        }
    }

    /** The last trade price or the price set explicitly; 0 while unknown. */
    public long marketPrice() {
        return matcher.marketPrice;
    }

    /** The state of order {@code id}, or null if it is neither live nor among the remembered closed orders. */
    public OrderInfo order(long id) {
        Order o = store.get(id);
        if (o != null) {
            return new OrderInfo(o.id, o.side, o.price, o.stopPrice, o.conditions, o.quantity, o.filled,
                o.held ? OrderStatus.HELD : OrderStatus.OPEN);
        }
        return store.closed().get(id);
    }

    /** The status of order {@code id} ({@link OrderStatus#UNKNOWN} if {@link #order} is null). */
    public OrderStatus status(long id) {
        OrderInfo info = order(id);
        return info == null ? OrderStatus.UNKNOWN : info.status();
    }

    /** The depth book as published at the end of the last operation. */
    public DepthView depth() {
        return depth;
    }

    /** Orders resting on {@code side} (market and limit). */
    public int restingOrders(Side side) {
        return matcher.side(side).count;
    }

    /** Held stop orders. */
    public int heldStops() {
        return matcher.stops.count();
    }

    /** Price levels of {@code side}, all of them (the depth book shows the first N). */
    public int priceLevels(Side side) {
        return matcher.side(side).limits.size();
    }

    /** The id the next {@code add} gets. */
    public long nextOrderId() {
        return nextId;
    }

    private void begin() {
        if (busy) {
            throw new IllegalStateException("the order book was called from one of its listeners");
        }
        busy = true;
    }

    private void end() {
        try {
            int changed = depth.publish(matcher.bids, matcher.asks);
            if ((changed & DepthTracker.BIDS_CHANGED) != 0) {
                listeners.onDepthChange(Side.BUY, depth);
            }
            if ((changed & DepthTracker.ASKS_CHANGED) != 0) {
                listeners.onDepthChange(Side.SELL, depth);
            }
            if ((changed & DepthTracker.BBO_CHANGED) != 0) {
                listeners.onBboChange(depth);
            }
        } finally {
            busy = false;
        }
    }

    // For BookSnapshot: the internals, in this package only.

    Matcher matcher() {
        return matcher;
    }

    OrderStore store() {
        return store;
    }

    void restoreCounters(long nextOrderId, long marketPrice) {
        this.nextId = nextOrderId;
        matcher.marketPrice = marketPrice;
    }

    /** Publishes the depth without events (after a restore). */
    void publishSilently() {
        depth.publish(matcher.bids, matcher.asks);
    }
}
