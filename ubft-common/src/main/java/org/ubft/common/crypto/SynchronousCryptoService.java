package org.ubft.common.crypto;

/**
 * A {@link CryptoService} that executes each task in the caller's thread when it is submitted and delivers the
 * result at the next {@link #poll} (not the one running: a task submitted from a result's handler waits for the poll
 * after), in submission order. No threads, no queues shared with anyone: the same
 * submissions always give the same callbacks in the same order, which the deterministic simulator and unit tests
 * need. Tasks never wait, so none is ever dropped; a submission is refused when {@code 2 x capacity} results wait
 * to be polled.
 */
final class SynchronousCryptoService extends OwnedTasksService {
    private final CryptoTask[] completed;
    private int head;
    private int count;

    SynchronousCryptoService(SigningKey key, PublicKeys keys, int capacity, int maxMessageBytes) {
        super(key, keys, capacity, maxMessageBytes);
        this.completed = new CryptoTask[tasks.totalTasks()];
    }

    @Override
    CryptoTask acquire() {
        return tasks.take();
    }

    /** Executes the task now; its result waits for the next poll. */
    @Override
    void enqueue(CryptoTask task) {
        task.execute(key, keys);
        completed[(head + count) % completed.length] = task;
        count++;
    }

    @Override
    public int poll(CryptoResultHandler handler, int limit) {
        // only results that waited when the poll began: a task a handler submits now is delivered at the next poll,
        // as a worker's would be (a chain of checks, each submitted on the last one's verdict, takes a poll each)
        int ready = Math.min(limit, count);
        int n = 0;
        while (n < ready) {
            CryptoTask task = completed[head];
            completed[head] = null;
            head = (head + 1) % completed.length;
            count--;
            n++;
            tasks.deliver(task, handler);
        }
        return n;
    }

    @Override
    public long droppedTasks() {
        return 0;
    }
}
