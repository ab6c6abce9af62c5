package org.ubft.apps.orderbook;

import java.util.SplittableRandom;

/**
 * A seeded stream of order-book requests ({@link RequestCodec}) for tests, benchmarks and load generators: new orders
 * around a mid price (limit, market, stop; plain, all-or-none, immediate-or-cancel, fill-or-kill), cancels and
 * replaces of recent orders, and market-price changes. It assumes it alone feeds a fresh book, so the n-th new order
 * it generates gets id n; cancels and replaces aim at the last {@link #RECENT} ids (some already closed, so some are
 * rejected, as in real flow). The same seed and options give the same stream.
 */
public final class OrderFlow {
    /** How far back cancels and replaces aim. */
    public static final int RECENT = 256;

    /**
     * What the stream holds. Shares are probabilities: {@code cancel + replace + marketPrice} of the requests are
     * those; the rest are new orders, of which {@code buy} buy, {@code market} are market orders, {@code stop} are
     * stops, and {@code allOrNone}, {@code immediateOrCancel}, {@code fillOrKill} carry that condition.
     *
     * @param midPrice    centre of the prices, in ticks
     * @param priceBand   limit prices and stops are drawn from midPrice ± priceBand
     * @param maxQuantity quantities are drawn from 1..maxQuantity
     */
    public record Options(double buy, long midPrice, long priceBand, int maxQuantity, double market, double stop,
                          double allOrNone, double immediateOrCancel, double fillOrKill, double cancel,
                          double replace, double marketPrice) {
        public Options {
            check("buy", buy);
            check("market", market);
            check("stop", stop);
            check("allOrNone + immediateOrCancel + fillOrKill", allOrNone + immediateOrCancel + fillOrKill);
            check("cancel + replace + marketPrice", cancel + replace + marketPrice);
            check("allOrNone", allOrNone);
            check("immediateOrCancel", immediateOrCancel);
            check("fillOrKill", fillOrKill);
            check("cancel", cancel);
            check("replace", replace);
            check("marketPrice", marketPrice);
            if (priceBand < 0 || midPrice - priceBand < 1 || midPrice + priceBand > OrderBook.MAX_PRICE) {
                throw new IllegalArgumentException("midPrice ± priceBand must be within 1.." + OrderBook.MAX_PRICE
                    + ", got " + midPrice + " ± " + priceBand);
            }
            if (maxQuantity < 1) {
                throw new IllegalArgumentException("maxQuantity must be at least 1, got " + maxQuantity);
            }
        }

        private static void check(String name, double share) {
            if (!(share >= 0 && share <= 1)) {
                throw new IllegalArgumentException(name + " must be a share in 0..1, got " + share);
            }
        }

        /**
         * Half buys, mid 10,000 ± 20 ticks, quantities 1..100; of new orders 5% market, 5% stops, 5% all-or-none, 5%
         * immediate-or-cancel, 2% fill-or-kill; 25% cancels, 10% replaces, 1% market-price changes.
         */
        public static Options defaults() {
            return new Options(0.5, 10_000, 20, 100, 0.05, 0.05, 0.05, 0.05, 0.02, 0.25, 0.10, 0.01);
        }

        /** These options with another buy share. */
        public Options withBuy(double share) {
            return new Options(share, midPrice, priceBand, maxQuantity, market, stop, allOrNone, immediateOrCancel,
                fillOrKill, cancel, replace, marketPrice);
        }

        /** These options with another price band. */
        public Options withPrices(long mid, long band) {
            return new Options(buy, mid, band, maxQuantity, market, stop, allOrNone, immediateOrCancel, fillOrKill,
                cancel, replace, marketPrice);
        }

        /** These options with other order-type shares. */
        public Options withTypes(double marketShare, double stopShare, double aon, double ioc, double fok) {
            return new Options(buy, midPrice, priceBand, maxQuantity, marketShare, stopShare, aon, ioc, fok, cancel,
                replace, marketPrice);
        }

        /** These options with other cancel, replace and market-price shares. */
        public Options withActions(double cancelShare, double replaceShare, double marketPriceShare) {
            return new Options(buy, midPrice, priceBand, maxQuantity, market, stop, allOrNone, immediateOrCancel,
                fillOrKill, cancelShare, replaceShare, marketPriceShare);
        }
    }

    private final Options options;
    private final SplittableRandom random;
    private long issued;

    /** A stream shaped by {@code options}; the same seed gives the same requests. */
    public OrderFlow(Options options, long seed) {
        this.options = options;
        this.random = new SplittableRandom(seed);
    }

    /** New orders generated so far (the id of the last one). */
    public long issued() {
        return issued;
    }

    /** The next request. */
    public byte[] next() {
        double r = random.nextDouble();
        if (issued > 0 && r < options.cancel()) {
            return RequestCodec.cancel(recentId());
        }
        r -= options.cancel();
        if (issued > 0 && r < options.replace()) {
            long id = recentId();
            long delta = random.nextInt(2 * options.maxQuantity() + 1) - options.maxQuantity();
            long price = random.nextBoolean() ? 0 : price();
            return RequestCodec.replace(id, delta, price);
        }
        r -= options.replace();
        if (r < options.marketPrice()) {
            return RequestCodec.marketPrice(price());
        }
        issued++;
        Side side = random.nextDouble() < options.buy() ? Side.BUY : Side.SELL;
        long quantity = 1 + random.nextInt(options.maxQuantity());
        long price = random.nextDouble() < options.market() ? OrderBook.MARKET : price();
        long stop = random.nextDouble() < options.stop() ? price() : 0;
        double c = random.nextDouble();
        int conditions = c < options.allOrNone() ? Conditions.ALL_OR_NONE
            : c < options.allOrNone() + options.immediateOrCancel() ? Conditions.IMMEDIATE_OR_CANCEL
            : c < options.allOrNone() + options.immediateOrCancel() + options.fillOrKill() ? Conditions.FILL_OR_KILL
            : Conditions.NONE;
        return RequestCodec.newOrder(side, quantity, price, stop, conditions);
    }

    private long price() {
        return options.midPrice() - options.priceBand() + random.nextLong(2 * options.priceBand() + 1);
    }

    private long recentId() {
        long low = Math.max(1, issued - RECENT + 1);
        return low + random.nextLong(issued - low + 1);
    }
}
