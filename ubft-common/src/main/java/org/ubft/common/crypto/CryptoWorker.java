package org.ubft.common.crypto;

import org.agrona.concurrent.Agent;
import org.agrona.concurrent.IdleStrategy;

import java.util.concurrent.locks.LockSupport;

/**
 * One worker of a {@link CryptoPool}: each duty cycle takes at most one task from every owner, round robin from a
 * moving start so that no owner is always served last, executes it and hands it back to its owner; after a cycle that
 * handed back results it runs the pool's waker ({@link CryptoPool#onResults}).
 *
 * <p>Idle, it follows the pool's strategy ({@link #idleWith}), and an owner that queues a task unparks it
 * ({@link #wakeIfIdle}), so a check never waits out a park period.
 */
final class CryptoWorker implements Agent {
    private final CryptoPool pool;
    private final String roleName;
    private int cursor;
    /** The worker's thread while it idles (it may park): an owner that queues a task unparks it. */
    private volatile Thread idleThread;

    CryptoWorker(CryptoPool pool, int index) {
        this.pool = pool;
        this.roleName = "ubft-crypto-" + index;
    }

    @Override
    public int doWork() {
        PooledCryptoService[] owners = pool.owners();
        int n = owners.length;
        int work = 0;
        for (int i = 0; i < n; i++) {
            PooledCryptoService owner = owners[(cursor + i) % n];
            CryptoTask task = owner.nextTask();
            if (task != null) {
                task.execute(owner.key, owner.keys);
                owner.complete(task);
                work++;
            }
        }
        cursor = n == 0 ? 0 : (cursor + 1) % n;
        if (work > 0) {
            pool.resultsReady();
        }
        return work;
    }

    /**
     * {@code configured} with a last look for tasks before each idle step: the worker publishes that it idles, then
     * looks; an owner publishes its task, then looks whether the worker idles ({@link #wakeIfIdle}). Both volatile, so
     * at least one of them sees the other: a task queued while the worker goes idle is either found here or unparks
     * the worker (LockSupport's permit makes an unpark before the park end that park at once). A closed pool's
     * workers do not idle, so that closing never waits out a park period.
     */
    IdleStrategy idleWith(IdleStrategy configured) {
        return new IdleStrategy() {
            @Override
            public void idle(int workCount) {
                if (workCount > 0) {
                    configured.idle(workCount);
                } else {
                    idle();
                }
            }

            @Override
            public void idle() {
                idleThread = Thread.currentThread();
                if (!pool.hasTasks() && !pool.isClosed()) {
                    configured.idle();
                }
                idleThread = null;
            }

            @Override
            public void reset() {
                configured.reset();
            }

            @Override
            public String alias() {
                return configured.alias();
            }
        };
    }

    /** From an owner that queued a task: unparks this worker if it idles (a system call only then). */
    void wakeIfIdle() {
        Thread idle = idleThread;
        if (idle != null) {
            LockSupport.unpark(idle);
        }
    }

    @Override
    public String roleName() {
        return roleName;
    }
}
