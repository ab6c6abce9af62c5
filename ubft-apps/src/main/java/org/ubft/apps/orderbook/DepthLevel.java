package org.ubft.apps.orderbook;

/** One level of the depth book: a limit price, how many orders rest there and their total open quantity. */
public record DepthLevel(long price, int orderCount, long quantity) {
}
