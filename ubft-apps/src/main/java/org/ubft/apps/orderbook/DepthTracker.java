package org.ubft.apps.orderbook;

/**
 * The published depth: the top N levels per side copied from the ladders at the end of each operation, compared
 * with the previous copy to tell which sides changed and whether the BBO did. Levels beyond N stay in the ladders
 * and move up when a better level goes.
 */
final class DepthTracker implements DepthView {
    static final int BIDS_CHANGED = 1;
    static final int ASKS_CHANGED = 2;
    static final int BBO_CHANGED = 4;

    private final int maxLevels;
    private final long[][] prices;
    private final int[][] counts;
    private final long[][] quantities;
    private final int[] levels = new int[2];

    DepthTracker(int maxLevels) {
        this.maxLevels = maxLevels;
        prices = new long[2][maxLevels];
        counts = new int[2][maxLevels];
        quantities = new long[2][maxLevels];
    }

    /** Copies the top levels of both sides; returns the {@code *_CHANGED} bits. */
    int publish(BookSide bids, BookSide asks) {
        int changed = 0;
        long bidPrice = best(prices, 0);
        long bidQty = best(quantities, 0);
        long askPrice = best(prices, 1);
        long askQty = best(quantities, 1);
        if (copy(bids)) {
            changed |= BIDS_CHANGED;
        }
        if (copy(asks)) {
            changed |= ASKS_CHANGED;
        }
        if (bidPrice != best(prices, 0) || bidQty != best(quantities, 0) || askPrice != best(prices, 1)
            || askQty != best(quantities, 1)) {
            changed |= BBO_CHANGED;
        }
        return changed;
    }

    private long best(long[][] values, int side) {
        return levels[side] == 0 ? 0 : values[side][0];
    }

    private boolean copy(BookSide side) {
        int s = side.side.ordinal();
        PriceLadder ladder = side.limits;
        int n = Math.min(maxLevels, ladder.size());
        boolean changed = n != levels[s];
        long[] p = prices[s];
        int[] c = counts[s];
        long[] q = quantities[s];
        for (int i = 0; i < n; i++) {
            PriceLevel level = ladder.level(i);
            if (p[i] != level.price || c[i] != level.count || q[i] != level.openQuantity) {
                p[i] = level.price;
                c[i] = level.count;
                q[i] = level.openQuantity;
                changed = true;
            }
        }
        levels[s] = n;
        return changed;
    }

    @Override
    public int maxLevels() {
        return maxLevels;
    }

    @Override
    public int levels(Side side) {
        return levels[side.ordinal()];
    }

    @Override
    public long price(Side side, int level) {
        return prices[side.ordinal()][check(side, level)];
    }

    @Override
    public int orderCount(Side side, int level) {
        return counts[side.ordinal()][check(side, level)];
    }

    @Override
    public long quantity(Side side, int level) {
        return quantities[side.ordinal()][check(side, level)];
    }

    private int check(Side side, int level) {
        if (level < 0 || level >= levels[side.ordinal()]) {
            throw new IndexOutOfBoundsException("level " + level + " of " + levels[side.ordinal()] + " " + side);
        }
        return level;
    }
}
