package org.ubft.common.crypto;

import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.IdleStrategy;
import org.ubft.common.config.IdleStrategies;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * A small pool of worker threads that sign and verify for the agents of a process (docs/design.md §3). Each agent
 * thread is an <em>owner</em> with its own {@link CryptoService} ({@link #newOwner}): its own bounded submission
 * queue, its own result queue that it polls, its own preallocated tasks. The workers serve every owner's queue in
 * turn; when there is no work they idle with the given strategy (by default {@code backoff}: spin, yield, then park
 * up to half a millisecond; never a busy spin unless asked for).
 *
 * <p>{@link #synchronous} gives the same interface without threads, for the simulator and tests.
 *
 * <p>Life cycle: construct, add owners (before or after {@link #start()}), {@link #start()}, {@link #close()}.
 * Owners' submissions after close throw {@link IllegalStateException}. Thread-safe.
 */
public final class CryptoPool implements AutoCloseable {
    private final int threads;
    private final Supplier<IdleStrategy> idleStrategies;
    private final AtomicLong workerErrors = new AtomicLong();
    private volatile PooledCryptoService[] owners = new PooledCryptoService[0];
    private volatile boolean closed;
    private AgentRunner[] runners;

    /**
     * A pool of {@code threads} workers idling with the {@code backoff} strategy; not started.
     *
     * @throws IllegalArgumentException if {@code threads} is not positive
     */
    public CryptoPool(int threads) {
        this(threads, () -> IdleStrategies.of("backoff"));
    }

    /**
     * A pool of {@code threads} workers, each idling with a strategy from {@code idleStrategies} (called once per
     * worker: stateful strategies must not be shared); not started.
     *
     * @throws IllegalArgumentException if {@code threads} is not positive
     */
    public CryptoPool(int threads, Supplier<IdleStrategy> idleStrategies) {
        if (threads < 1) {
            throw new IllegalArgumentException("a crypto pool needs at least one thread, got " + threads);
        }
        this.threads = threads;
        this.idleStrategies = idleStrategies;
    }

    /**
     * A {@link CryptoService} that runs each task in the caller's thread at submit and delivers results at the
     * next poll: deterministic, for the simulator and tests.
     *
     * @param key             the owner's key for signing, or {@code null} for an owner that only verifies
     * @param keys            the keys signatures are verified against
     * @param capacity        results that may wait to be polled, halved (as for {@link #newOwner})
     * @param maxMessageBytes longest message of a task
     */
    public static CryptoService synchronous(SigningKey key, PublicKeys keys, int capacity, int maxMessageBytes) {
        return new SynchronousCryptoService(key, keys, capacity, maxMessageBytes);
    }

    /**
     * A new owner, served by this pool's workers. Call it from the owner's thread or before handing the owner to
     * it; afterwards only that thread uses it.
     *
     * @param key             the owner's key for signing, or {@code null} for an owner that only verifies
     * @param keys            the keys signatures are verified against
     * @param capacity        tasks that may wait for a worker before the oldest is dropped (1 to 2^20); the owner
     *                        gets twice as many task objects, each with a message array of {@code maxMessageBytes}
     * @param maxMessageBytes longest message of a task
     * @throws IllegalStateException if the pool is closed
     */
    public synchronized CryptoService newOwner(SigningKey key, PublicKeys keys, int capacity, int maxMessageBytes) {
        checkOpen();
        PooledCryptoService owner = new PooledCryptoService(this, key, keys, capacity, maxMessageBytes);
        PooledCryptoService[] more = Arrays.copyOf(owners, owners.length + 1);
        more[owners.length] = owner;
        owners = more;
        return owner;
    }

    /**
     * Starts the worker threads (daemon threads named {@code ubft-crypto-<i>}).
     *
     * @throws IllegalStateException if the pool was started or closed already
     */
    public synchronized CryptoPool start() {
        checkOpen();
        if (runners != null) {
            throw new IllegalStateException("this crypto pool was started already");
        }
        runners = new AgentRunner[threads];
        for (int i = 0; i < threads; i++) {
            CryptoWorker worker = new CryptoWorker(this, i);
            runners[i] = new AgentRunner(idleStrategies.get(), this::onWorkerError, null, worker);
            AgentRunner.startOnThread(runners[i], r -> {
                Thread t = new Thread(r, worker.roleName());
                t.setDaemon(true);
                return t;
            });
        }
        return this;
    }

    private void onWorkerError(Throwable error) {
        workerErrors.incrementAndGet();
        System.err.println("ubft crypto worker: unexpected error (a bug; the task is lost): " + error);
        error.printStackTrace();
    }

    /** Number of worker threads. */
    public int threads() {
        return threads;
    }

    /** Unexpected exceptions in workers (bugs) since the start; each lost one task. */
    public long workerErrors() {
        return workerErrors.get();
    }

    /** Whether {@link #close()} was called. */
    public boolean isClosed() {
        return closed;
    }

    /** Stops the workers and waits for them to end. Idempotent. Undelivered tasks are lost. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (runners != null) {
            for (AgentRunner runner : runners) {
                runner.close();
            }
        }
    }

    PooledCryptoService[] owners() {
        return owners;
    }

    void checkOpen() {
        if (closed) {
            throw new IllegalStateException("this crypto pool is closed");
        }
    }
}
