package org.ubft.apps.orderbook;

import java.util.List;

/** A book with an {@link EventRecorder} and short ways to add orders and read the events. */
final class BookFixture {
    final OrderBook book;
    final EventRecorder recorder = new EventRecorder();

    BookFixture() {
        this(OrderBook.Config.defaults());
    }

    BookFixture(OrderBook.Config config) {
        book = new OrderBook(config);
        book.addListener(recorder);
    }

    long buy(long quantity, long price) {
        return book.add(Side.BUY, quantity, price);
    }

    long sell(long quantity, long price) {
        return book.add(Side.SELL, quantity, price);
    }

    long buy(long quantity, long price, long stopPrice, int conditions) {
        return book.add(Side.BUY, quantity, price, stopPrice, conditions);
    }

    long sell(long quantity, long price, long stopPrice, int conditions) {
        return book.add(Side.SELL, quantity, price, stopPrice, conditions);
    }

    /** Every event since the last take. */
    List<OrderBookEvent> all() {
        return recorder.take();
    }

    /** The events since the last take without the depth and BBO events. */
    List<OrderBookEvent> trading() {
        return all().stream()
            .filter(e -> !(e instanceof OrderBookEvent.DepthChanged) && !(e instanceof OrderBookEvent.BboChanged))
            .toList();
    }

    /** Forgets the events so far. */
    void clear() {
        recorder.take();
    }

    long open(long id) {
        OrderInfo info = book.order(id);
        return info == null ? -1 : info.openQuantity();
    }

    long filled(long id) {
        OrderInfo info = book.order(id);
        return info == null ? -1 : info.filledQuantity();
    }
}
