package org.ubft.apps.orderbook;

/**
 * Receives the events of an {@link OrderBook}, synchronously, during the call that caused them, in this order per
 * operation:
 * <ol>
 *   <li>{@code add}: {@link #onAccept} or {@link #onReject}; a stop order that is already triggered or becomes
 *   active: {@link #onTrigger}; {@link #onFill} and {@link #onTrade} per match; {@link #onCancel} for the unfilled
 *   rest of an immediate-or-cancel order;</li>
 *   <li>{@code cancel}: {@link #onCancel} or {@link #onCancelReject}; {@code replace}: {@link #onReplace} (then the
 *   re-entered order's fills), {@link #onCancel} when the replace reduces it to nothing, or
 *   {@link #onReplaceReject}; {@code setMarketPrice}: nothing of its own, or {@link #onReject} with order id 0;</li>
 *   <li>then the fills of resting all-or-none orders that an order resting on the other side made fillable;</li>
 *   <li>then, one at a time and cascading, every stop order that the market price reached: {@link #onTrigger} and
 *   its events as for an add;</li>
 *   <li>last, {@link #onDepthChange} for the bids and then the asks if their top levels changed, and
 *   {@link #onBboChange} if the best price or quantity of either side changed.</li>
 * </ol>
 * Listeners must not call the book's operations from a callback (the book refuses it).
 */
public interface OrderBookListener {
    /** Order {@code orderId} entered the book (held if it is a stop whose stop the market has not reached). */
    default void onAccept(long orderId) {
    }

    /** Order {@code orderId} was refused (0 for a refused market-price change or a malformed request). */
    default void onReject(long orderId, RejectReason reason) {
    }

    /** Stop order {@code orderId} became active: it now matches and rests like a limit or market order. */
    default void onTrigger(long orderId) {
    }

    /** Incoming order {@code inboundId} traded {@code quantity} at {@code price} with resting {@code restingId}. */
    default void onFill(long inboundId, long restingId, long quantity, long price) {
    }

    /** The public print of the same match: {@code quantity} traded at {@code price}, {@code buyerAggressor} if the buy was incoming. */
    default void onTrade(long quantity, long price, boolean buyerAggressor) {
    }

    /** Order {@code orderId} was cancelled with {@code cancelledQuantity} open. */
    default void onCancel(long orderId, long cancelledQuantity) {
    }

    /** A cancel of {@code orderId} was refused. */
    default void onCancelReject(long orderId, RejectReason reason) {
    }

    /** Order {@code orderId} was replaced: now {@code openQuantity} open at {@code price} (0 = market). */
    default void onReplace(long orderId, long sizeDelta, long price, long openQuantity) {
    }

    /** A replace of {@code orderId} was refused. */
    default void onReplaceReject(long orderId, RejectReason reason) {
    }

    /** The top levels of {@code side} changed; {@code depth} is valid during the call only. */
    default void onDepthChange(Side side, DepthView depth) {
    }

    /** The best bid or offer (price or quantity) changed; {@code depth} is valid during the call only. */
    default void onBboChange(DepthView depth) {
    }
}
