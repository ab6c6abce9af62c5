package org.ubft.common.crypto;

import org.agrona.concurrent.IdleStrategy;

import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * A {@link CryptoPool} worker's idle strategy: the configured one, but an owner's submission wakes a worker that
 * idles ({@link #wake}), so a check submitted to an idle pool waits for no park period (the {@code backoff}
 * strategy parks up to 0.5 ms) while an idle worker still costs no CPU.
 *
 * <p>No wake-up is lost: the worker announces that it idles, then looks at the owners' queues once more before it
 * parks; an owner enqueues, then reads the announcement (each side with a full fence between its write and its
 * read), so either the worker sees the task or the owner sees the announcement and unparks it (a permit given before
 * the park ends the park at once).
 */
final class WakeableIdle implements IdleStrategy {
    private final IdleStrategy inner;
    private final CryptoPool pool;
    private volatile Thread thread;
    private volatile boolean idling;

    WakeableIdle(IdleStrategy inner, CryptoPool pool) {
        this.inner = inner;
        this.pool = pool;
    }

    @Override
    public void idle(int workCount) {
        if (workCount > 0) {
            inner.idle(workCount);
            return;
        }
        if (thread == null) {
            thread = Thread.currentThread();
        }
        idling = true;
        VarHandle.fullFence();
        if (!pool.anyWaiting()) {
            inner.idle(0);
        }
        idling = false;
    }

    @Override
    public void idle() {
        inner.idle();
    }

    @Override
    public void reset() {
        inner.reset();
    }

    @Override
    public String alias() {
        return inner.alias();
    }

    /** Whether the worker idles (or is about to park). */
    boolean idling() {
        return idling;
    }

    /** From an owner, after it enqueued a task and saw {@link #idling}: unparks the worker. */
    void wake() {
        Thread t = thread;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }
}
