package org.ubft.apps.orderbook;

import java.util.ArrayList;
import java.util.List;

/**
 * The top levels of each side of the book, best first, as last published (the book publishes after every
 * operation). Limit orders only: resting market orders have no price and are not in the depth; held stops are not in
 * the book yet.
 */
public interface DepthView {
    /** The configured number of levels per side (N). */
    int maxLevels();

    /** Levels of {@code side} present, at most {@link #maxLevels()}. */
    int levels(Side side);

    /** Price of level {@code level} (0 = best) of {@code side}. */
    long price(Side side, int level);

    /** Orders resting at that level. */
    int orderCount(Side side, int level);

    /** Their total open quantity. */
    long quantity(Side side, int level);

    /** Best price of {@code side}, 0 if it is empty. */
    default long bestPrice(Side side) {
        return levels(side) == 0 ? 0 : price(side, 0);
    }

    /** Open quantity at the best price of {@code side}, 0 if it is empty. */
    default long bestQuantity(Side side) {
        return levels(side) == 0 ? 0 : quantity(side, 0);
    }

    /** The levels of {@code side} as a new list (allocates: for display and tests). */
    default List<DepthLevel> levelList(Side side) {
        List<DepthLevel> list = new ArrayList<>(levels(side));
        for (int i = 0; i < levels(side); i++) {
            list.add(new DepthLevel(price(side, i), orderCount(side, i), quantity(side, i)));
        }
        return list;
    }
}
