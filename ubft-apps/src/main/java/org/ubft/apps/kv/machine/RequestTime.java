package org.ubft.apps.kv.machine;

/**
 * Where the store's time comes from: the one place to change when replicated time (issue 22, item 2) arrives.
 *
 * <p><b>Stopgap.</b> Until the leader stamps each batch with a time that followers bound, the gateway stamps its own
 * wall clock into every request it sends ({@link #stamp()}), and {@link KvMachine} runs the request's commands at that
 * time (the store's clock never goes back: it is the largest stamp seen). Replicas stay deterministic (they all read
 * the same stamp), but the time is the client's word: a Byzantine client can choose any time for its own requests,
 * and so expire keys early (a time far ahead) or, within what the monotonic clock allows, late. Replicated time
 * replaces this: then {@link KvMachine} takes the batch's agreed time and ignores the stamp.
 */
public final class RequestTime {
    private RequestTime() {
    }

    /** The time a gateway stamps into a request it sends now: its wall clock, in milliseconds. */
    public static long stamp() {
        return System.currentTimeMillis();
    }
}
