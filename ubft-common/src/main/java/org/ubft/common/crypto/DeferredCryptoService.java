package org.ubft.common.crypto;

/**
 * A {@link CryptoService} whose tasks wait until the owner's next {@link #poll}, as with a pool worker that runs only
 * between the owner's duty cycles (descheduled on a busy host): at most {@code capacity} tasks wait, and one more
 * drops the oldest waiting (reported through {@link CryptoResultHandler#onDropped}), as {@link PooledCryptoService}
 * does when its worker falls behind. A poll executes, in submission order, the tasks that waited when it began, and
 * delivers their results; a task a handler submits waits for the next poll. No threads: the same submissions always
 * give the same callbacks in the same order. For the simulator, whose {@link SynchronousCryptoService} never drops:
 * with this one a burst past the queue within one duty cycle overflows as on a real host.
 */
final class DeferredCryptoService extends OwnedTasksService {
    private final CryptoTask[] waiting;
    private int head;
    private int count;

    DeferredCryptoService(SigningKey key, PublicKeys keys, int capacity, int maxMessageBytes) {
        super(key, keys, capacity, maxMessageBytes);
        this.waiting = new CryptoTask[capacity];
    }

    /** A task for a new submission: the oldest waiting one if the queue is full (dropped), else a free one. */
    @Override
    CryptoTask acquire() {
        if (count == waiting.length) {
            if (!tasks.canRecordDrop()) {
                return tasks.refuse();
            }
            CryptoTask oldest = waiting[head];
            waiting[head] = null;
            head = (head + 1) % waiting.length;
            count--;
            tasks.recordDrop(oldest.correlationId);
            return oldest;
        }
        return tasks.take();
    }

    @Override
    void enqueue(CryptoTask task) {
        waiting[(head + count) % waiting.length] = task;
        count++;
    }

    @Override
    public int poll(CryptoResultHandler handler, int limit) {
        int n = tasks.deliverDrops(handler, limit);
        int ready = Math.min(limit - n, count); // only what waited when the poll began
        for (int i = 0; i < ready; i++) {
            CryptoTask task = waiting[head];
            waiting[head] = null;
            head = (head + 1) % waiting.length;
            count--;
            task.execute(key, keys);
            tasks.deliver(task, handler);
        }
        return n + ready;
    }
}
