package org.ubft.apps.orderbook;

import java.util.ArrayList;
import java.util.List;

/** A listener that keeps every event as an {@link OrderBookEvent}, in order. */
public final class EventRecorder implements OrderBookListener {
    private final List<OrderBookEvent> events = new ArrayList<>();

    /** The events so far (live list). */
    public List<OrderBookEvent> events() {
        return events;
    }

    /** The events so far, and forgets them. */
    public List<OrderBookEvent> take() {
        List<OrderBookEvent> copy = List.copyOf(events);
        events.clear();
        return copy;
    }

    @Override
    public void onAccept(long orderId) {
        events.add(new OrderBookEvent.Accepted(orderId));
    }

    @Override
    public void onReject(long orderId, RejectReason reason) {
        events.add(new OrderBookEvent.Rejected(orderId, reason));
    }

    @Override
    public void onTrigger(long orderId) {
        events.add(new OrderBookEvent.Triggered(orderId));
    }

    @Override
    public void onFill(long inboundId, long restingId, long quantity, long price) {
        events.add(new OrderBookEvent.Filled(inboundId, restingId, quantity, price));
    }

    @Override
    public void onTrade(long quantity, long price, boolean buyerAggressor) {
        events.add(new OrderBookEvent.Traded(quantity, price, buyerAggressor));
    }

    @Override
    public void onCancel(long orderId, long cancelledQuantity) {
        events.add(new OrderBookEvent.Cancelled(orderId, cancelledQuantity));
    }

    @Override
    public void onCancelReject(long orderId, RejectReason reason) {
        events.add(new OrderBookEvent.CancelRejected(orderId, reason));
    }

    @Override
    public void onReplace(long orderId, long sizeDelta, long price, long openQuantity) {
        events.add(new OrderBookEvent.Replaced(orderId, sizeDelta, price, openQuantity));
    }

    @Override
    public void onReplaceReject(long orderId, RejectReason reason) {
        events.add(new OrderBookEvent.ReplaceRejected(orderId, reason));
    }

    @Override
    public void onDepthChange(Side side, DepthView depth) {
        events.add(new OrderBookEvent.DepthChanged(side, depth.levelList(side)));
    }

    @Override
    public void onBboChange(DepthView depth) {
        events.add(new OrderBookEvent.BboChanged(depth.bestPrice(Side.BUY), depth.bestQuantity(Side.BUY),
            depth.bestPrice(Side.SELL), depth.bestQuantity(Side.SELL)));
    }
}
