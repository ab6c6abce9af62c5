package org.ubft.apps.orderbook;

import java.util.Arrays;

/** Fans every event out to the registered listeners, in registration order. */
final class ListenerList implements OrderBookListener {
    private OrderBookListener[] listeners = new OrderBookListener[0];

    void add(OrderBookListener listener) {
        listeners = Arrays.copyOf(listeners, listeners.length + 1);
        listeners[listeners.length - 1] = listener;
    }

    boolean remove(OrderBookListener listener) {
        for (int i = 0; i < listeners.length; i++) {
            if (listeners[i] == listener) {
                OrderBookListener[] rest = new OrderBookListener[listeners.length - 1];
                System.arraycopy(listeners, 0, rest, 0, i);
                System.arraycopy(listeners, i + 1, rest, i, rest.length - i);
                listeners = rest;
                return true;
            }
        }
        return false;
    }

    @Override
    public void onAccept(long orderId) {
        for (OrderBookListener l : listeners) {
            l.onAccept(orderId);
        }
    }

    @Override
    public void onReject(long orderId, RejectReason reason) {
        for (OrderBookListener l : listeners) {
            l.onReject(orderId, reason);
        }
    }

    @Override
    public void onTrigger(long orderId) {
        for (OrderBookListener l : listeners) {
            l.onTrigger(orderId);
        }
    }

    @Override
    public void onFill(long inboundId, long restingId, long quantity, long price) {
        for (OrderBookListener l : listeners) {
            l.onFill(inboundId, restingId, quantity, price);
        }
    }

    @Override
    public void onTrade(long quantity, long price, boolean buyerAggressor) {
        for (OrderBookListener l : listeners) {
            l.onTrade(quantity, price, buyerAggressor);
        }
    }

    @Override
    public void onCancel(long orderId, long cancelledQuantity) {
        for (OrderBookListener l : listeners) {
            l.onCancel(orderId, cancelledQuantity);
        }
    }

    @Override
    public void onCancelReject(long orderId, RejectReason reason) {
        for (OrderBookListener l : listeners) {
            l.onCancelReject(orderId, reason);
        }
    }

    @Override
    public void onReplace(long orderId, long sizeDelta, long price, long openQuantity) {
        for (OrderBookListener l : listeners) {
            l.onReplace(orderId, sizeDelta, price, openQuantity);
        }
    }

    @Override
    public void onReplaceReject(long orderId, RejectReason reason) {
        for (OrderBookListener l : listeners) {
            l.onReplaceReject(orderId, reason);
        }
    }

    @Override
    public void onDepthChange(Side side, DepthView depth) {
        for (OrderBookListener l : listeners) {
            l.onDepthChange(side, depth);
        }
    }

    @Override
    public void onBboChange(DepthView depth) {
        for (OrderBookListener l : listeners) {
            l.onBboChange(depth);
        }
    }
}
