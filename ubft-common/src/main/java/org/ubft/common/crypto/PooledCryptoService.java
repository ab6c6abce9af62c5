package org.ubft.common.crypto;

import org.agrona.concurrent.ManyToManyConcurrentArrayQueue;
import org.agrona.concurrent.ManyToOneConcurrentArrayQueue;

/**
 * One owner of a {@link CryptoPool}: its submission queue, taken from by the pool's workers and, to drop the
 * oldest task, by the owner; and its result queue, filled by the workers and drained by the owner.
 *
 * <p>The submission queue has room for {@code 2 x capacity} tasks but holds at most {@code capacity}: the slack
 * keeps the owner from waiting on a worker that has claimed a slot and not yet released it. The result queue has
 * room for every task of the owner, so a worker never waits on it.
 */
final class PooledCryptoService extends OwnedTasksService {
    private final CryptoPool pool;
    private final ManyToManyConcurrentArrayQueue<CryptoTask> submissions;
    private final ManyToOneConcurrentArrayQueue<CryptoTask> results;

    PooledCryptoService(CryptoPool pool, SigningKey key, PublicKeys keys, int capacity, int maxMessageBytes) {
        super(key, keys, capacity, maxMessageBytes);
        this.pool = pool;
        this.submissions = new ManyToManyConcurrentArrayQueue<>(tasks.totalTasks());
        this.results = new ManyToOneConcurrentArrayQueue<>(tasks.totalTasks());
    }

    @Override
    void checkOpen() {
        pool.checkOpen();
    }

    /** A task for a new submission: the oldest waiting one if the queue is full (dropped), else a free one. */
    @Override
    CryptoTask acquire() {
        if (submissions.size() >= tasks.capacity) {
            if (!tasks.canRecordDrop()) {
                return tasks.refuse();
            }
            CryptoTask oldest = submissions.poll();
            if (oldest != null) {
                tasks.recordDrop(oldest.correlationId);
                return oldest;
            }
        }
        return tasks.take();
    }

    @Override
    void enqueue(CryptoTask task) {
        // Fails only while a worker that claimed the slot long ago has not yet released it: a few instructions.
        while (!submissions.offer(task)) {
            Thread.yield();
        }
        pool.taskQueued();
    }

    /** For a worker about to idle: whether a task waits here. */
    boolean hasTasks() {
        return !submissions.isEmpty();
    }

    /** For a worker: the oldest waiting task, or null. */
    CryptoTask nextTask() {
        return submissions.poll();
    }

    /** For a worker: hands back an executed task. */
    void complete(CryptoTask task) {
        while (!results.offer(task)) {
            Thread.yield(); // cannot happen: the result queue has room for every task of the owner
        }
    }

    @Override
    public int poll(CryptoResultHandler handler, int limit) {
        int n = tasks.deliverDrops(handler, limit);
        while (n < limit) {
            CryptoTask task = results.poll();
            if (task == null) {
                break;
            }
            n++;
            tasks.deliver(task, handler);
        }
        return n;
    }
}
