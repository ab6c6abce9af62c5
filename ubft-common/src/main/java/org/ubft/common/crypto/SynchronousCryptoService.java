package org.ubft.common.crypto;

import org.agrona.DirectBuffer;

/**
 * A {@link CryptoService} that executes each task in the caller's thread when it is submitted and delivers the
 * result at the next {@link #poll} (not the one running: a task submitted from a result's handler waits for the poll
 * after), in submission order. No threads, no queues shared with anyone: the same
 * submissions always give the same callbacks in the same order, which the deterministic simulator and unit tests
 * need. Tasks never wait, so none is ever dropped; a submission is refused when {@code 2 x capacity} results wait
 * to be polled.
 */
final class SynchronousCryptoService implements CryptoService {
    private final SigningKey key;
    private final PublicKeys keys;
    private final OwnerTasks tasks;
    private final CryptoTask[] completed;
    private int head;
    private int count;

    SynchronousCryptoService(SigningKey key, PublicKeys keys, int capacity, int maxMessageBytes) {
        this.key = key;
        this.keys = keys;
        this.tasks = new OwnerTasks(capacity, maxMessageBytes);
        this.completed = new CryptoTask[tasks.totalTasks()];
    }

    @Override
    public boolean submitSign(long correlationId, DirectBuffer message, int offset, int length) {
        SubmitChecks.checkSign(key, tasks, message, offset, length);
        CryptoTask task = tasks.take();
        if (task == null) {
            return false;
        }
        task.prepareSign(correlationId, message, offset, length);
        complete(task);
        return true;
    }

    @Override
    public boolean submitVerify(long correlationId, int signerNodeId, DirectBuffer message, int offset, int length,
                                DirectBuffer signature, int signatureOffset, int signatureLength) {
        CryptoTask task = tasks.take();
        if (task == null) {
            return false;
        }
        task.prepareVerify(correlationId, signerNodeId, message, offset, length, signature, signatureOffset, signatureLength);
        complete(task);
        return true;
    }

    private void complete(CryptoTask task) {
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

    @Override
    public long refusedSubmissions() {
        return tasks.refusedSubmissions();
    }

    @Override
    public int capacity() {
        return tasks.capacity;
    }

    @Override
    public int maxMessageBytes() {
        return tasks.maxMessageBytes;
    }
}
