package org.ubft.fabric.tcp;

import org.agrona.concurrent.IdleStrategy;

/**
 * Idles a thread that runs a tcp fabric's network duty cycle by waiting on the fabric's sockets: after
 * {@value #YIELDS} empty cycles, each ended by yielding the core, it blocks in the selector for at most
 * {@value #MAX_WAIT_MILLIS} ms, and wakes as soon as a peer's bytes arrive or another thread posts an operation or
 * calls {@link TcpFabric#wakePoller()}. A parked thread instead wakes only when its park period ends, which
 * on a loaded machine costs each message a few hundred microseconds per hop.
 *
 * <p>Why yield first: a thread that blocks at once pays a wake-up for the next message, and on a virtual machine
 * whose core went idle meanwhile that wake-up is the largest part of a hop (measured on 2 vCPUs: an unreplicated
 * round trip of 150-200 µs with 10 spins before blocking, 50 µs after 100 yielding cycles). Yielding instead of
 * spinning hands the core to any other runnable process at once, so on a loaded machine the cycles cost the
 * others little (the replicated fast path's p50 halved as well). A thread with no work blocks after at most
 * {@value #YIELDS} cycles, some hundreds of microseconds.
 *
 * <p>The wait is bounded so that the thread's timers (operation deadlines, and with a shared thread the
 * caller's) keep millisecond precision; a network thread of its own with no timer running waits longer
 * ({@link NetworkAgent#idleWaitMillis}), since only bytes or a post, which both end the wait, can give it work.
 */
final class SocketWaitIdleStrategy implements IdleStrategy {
    /** Empty duty cycles, each followed by a yield of the core, before blocking. */
    static final int YIELDS = 100;
    /** Longest wait in the selector, in milliseconds. */
    static final long MAX_WAIT_MILLIS = 1;

    private final NetworkAgent agent;
    private int idleCycles;

    SocketWaitIdleStrategy(NetworkAgent agent) {
        this.agent = agent;
    }

    @Override
    public void idle(int workCount) {
        if (workCount > 0) {
            idleCycles = 0;
            return;
        }
        idle();
    }

    @Override
    public void idle() {
        if (idleCycles < YIELDS) {
            idleCycles++;
            Thread.yield();
            return;
        }
        agent.await(agent.idleWaitMillis(MAX_WAIT_MILLIS));
    }

    @Override
    public void reset() {
        idleCycles = 0;
    }

    @Override
    public String alias() {
        return "socket-wait";
    }
}
