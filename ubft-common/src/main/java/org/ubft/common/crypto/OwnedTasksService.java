package org.ubft.common.crypto;

import org.agrona.DirectBuffer;

/**
 * A {@link CryptoService} over one owner's {@link OwnerTasks}: a submission takes a task ({@link #acquire}: a free one,
 * or where the queue is full the oldest waiting one, dropped), fills it and hands it on ({@link #enqueue}); drops,
 * refusals, capacity and longest message are reported alike ({@link PooledCryptoService},
 * {@link SynchronousCryptoService}, {@link DeferredCryptoService}).
 */
abstract class OwnedTasksService implements CryptoService {
    final SigningKey key;
    final PublicKeys keys;
    final OwnerTasks tasks;

    OwnedTasksService(SigningKey key, PublicKeys keys, int capacity, int maxMessageBytes) {
        this.key = key;
        this.keys = keys;
        this.tasks = new OwnerTasks(capacity, maxMessageBytes);
    }

    /** Before each submission: throws if the service may take none any more. */
    void checkOpen() {
    }

    /** A task for a new submission, or {@code null} (refused, counted). */
    abstract CryptoTask acquire();

    /** Hands on a filled task. */
    abstract void enqueue(CryptoTask task);

    @Override
    public final boolean submitSign(long correlationId, DirectBuffer message, int offset, int length) {
        checkOpen();
        SubmitChecks.checkSign(key, tasks, message, offset, length);
        CryptoTask task = acquire();
        if (task == null) {
            return false;
        }
        task.prepareSign(correlationId, message, offset, length);
        enqueue(task);
        return true;
    }

    @Override
    public final boolean submitVerify(long correlationId, int signerNodeId, DirectBuffer message, int offset,
                                      int length, DirectBuffer signature, int signatureOffset, int signatureLength) {
        checkOpen();
        CryptoTask task = acquire();
        if (task == null) {
            return false;
        }
        task.prepareVerify(correlationId, signerNodeId, message, offset, length, signature, signatureOffset,
            signatureLength);
        enqueue(task);
        return true;
    }

    @Override
    public long droppedTasks() {
        return tasks.droppedTasks();
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
