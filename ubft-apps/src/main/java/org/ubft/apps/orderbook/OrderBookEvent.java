package org.ubft.apps.orderbook;

import java.util.List;

/**
 * The events of {@link OrderBookListener} as values: what {@link EventRecorder} records and {@link ReplyCodec}
 * decodes. Allocated per event: for clients, tests and tools, not the matching path.
 */
public sealed interface OrderBookEvent {
    /** {@link OrderBookListener#onAccept}. */
    record Accepted(long orderId) implements OrderBookEvent {
    }

    /** {@link OrderBookListener#onReject}. */
    record Rejected(long orderId, RejectReason reason) implements OrderBookEvent {
    }

    /** {@link OrderBookListener#onTrigger}. */
    record Triggered(long orderId) implements OrderBookEvent {
    }

    /** {@link OrderBookListener#onFill}. */
    record Filled(long inboundId, long restingId, long quantity, long price) implements OrderBookEvent {
    }

    /** {@link OrderBookListener#onTrade}. */
    record Traded(long quantity, long price, boolean buyerAggressor) implements OrderBookEvent {
    }

    /** {@link OrderBookListener#onCancel}. */
    record Cancelled(long orderId, long cancelledQuantity) implements OrderBookEvent {
    }

    /** {@link OrderBookListener#onCancelReject}. */
    record CancelRejected(long orderId, RejectReason reason) implements OrderBookEvent {
    }

    /** {@link OrderBookListener#onReplace}. */
    record Replaced(long orderId, long sizeDelta, long price, long openQuantity) implements OrderBookEvent {
    }

    /** {@link OrderBookListener#onReplaceReject}. */
    record ReplaceRejected(long orderId, RejectReason reason) implements OrderBookEvent {
    }

    /** {@link OrderBookListener#onDepthChange}: the new top levels of {@code side}, best first. */
    record DepthChanged(Side side, List<DepthLevel> levels) implements OrderBookEvent {
        public DepthChanged {
            levels = List.copyOf(levels);
        }
    }

    /** {@link OrderBookListener#onBboChange}: best price and quantity per side (0, 0 for an empty side). */
    record BboChanged(long bidPrice, long bidQuantity, long askPrice, long askQuantity) implements OrderBookEvent {
    }
}
