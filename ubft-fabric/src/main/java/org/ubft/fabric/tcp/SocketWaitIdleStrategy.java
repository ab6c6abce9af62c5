package org.ubft.fabric.tcp;

import org.agrona.concurrent.IdleStrategy;

/**
 * Idles a thread that runs a tcp fabric's network duty cycle by waiting on the fabric's sockets: after
 * {@value #SPINS} empty cycles it blocks in the selector for at most {@value #MAX_WAIT_MILLIS} ms, and
 * wakes as soon as a peer's bytes arrive or another thread posts an operation or calls
 * {@link TcpFabric#wakePoller()}. A parked thread instead wakes only when its park period ends, which
 * on a loaded machine costs each message a few hundred microseconds per hop.
 *
 * <p>The wait is bounded so that the thread's timers (operation deadlines, and with a shared thread the
 * caller's) keep millisecond precision.
 */
final class SocketWaitIdleStrategy implements IdleStrategy {
    /** Empty duty cycles spent spinning before blocking. */
    static final int SPINS = 10;
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
        if (idleCycles < SPINS) {
            idleCycles++;
            Thread.onSpinWait();
            return;
        }
        agent.await(MAX_WAIT_MILLIS);
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
