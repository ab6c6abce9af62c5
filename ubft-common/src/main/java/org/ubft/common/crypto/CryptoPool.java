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
 * <p>Hand-offs do not wait for a timer: an owner's submission unparks a worker that went idle (a parked worker
 * otherwise slept out its park period, up to half a millisecond per check), and a worker that handed back results
 * runs the pool's {@link #onResults} waker (the owners' thread may be blocked on its sockets: the replica's is woken
 * by its fabric's {@code wakePoller}, else it saw a verdict only when a peer's bytes or its wait's 1 ms bound ended
 * the wait). On a quiet cluster, the slow path's checks are a chain of such hand-offs.
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
    private volatile CryptoWorker[] workers = new CryptoWorker[0];
    /** Run by a worker after it handed back results: wakes the owners' thread ({@link #onResults}). */
    private volatile Runnable resultsReady = () -> { };

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
     * A {@link CryptoService} whose tasks wait until the next poll, at most {@code capacity} of them (one more drops
     * the oldest, as this pool's owners do when the workers fall behind): a worker that runs only between the owner's
     * duty cycles, deterministic, for the simulator and tests.
     *
     * @param key             the owner's key for signing, or {@code null} for an owner that only verifies
     * @param keys            the keys signatures are verified against
     * @param capacity        tasks that may wait for the next poll
     * @param maxMessageBytes longest message of a task
     */
    public static CryptoService deferred(SigningKey key, PublicKeys keys, int capacity, int maxMessageBytes) {
        return new DeferredCryptoService(key, keys, capacity, maxMessageBytes);
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
     * What a worker runs after a duty cycle that handed back results: for an owners' thread that may wait for
     * something else (its sockets) and must then be woken. Runs on the worker thread; must be cheap and thread-safe
     * (a volatile read while the owners' thread is busy). Default: nothing.
     */
    public CryptoPool onResults(Runnable waker) {
        resultsReady = java.util.Objects.requireNonNull(waker, "waker");
        return this;
    }

    /** For a worker: results were handed back. */
    void resultsReady() {
        resultsReady.run();
    }

    /** For an owner, after it queued a task: unparks the workers that went idle (see {@link CryptoWorker#idleWith}). */
    void taskQueued() {
        CryptoWorker[] all = workers;
        for (CryptoWorker worker : all) {
            worker.wakeIfIdle();
        }
    }

    /** Whether any owner has a task waiting (a worker's last look before it parks). */
    boolean hasTasks() {
        for (PooledCryptoService owner : owners) {
            if (owner.hasTasks()) {
                return true;
            }
        }
        return false;
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
        CryptoWorker[] made = new CryptoWorker[threads];
        for (int i = 0; i < threads; i++) {
            made[i] = new CryptoWorker(this, i);
        }
        workers = made;
        for (int i = 0; i < threads; i++) {
            CryptoWorker worker = made[i];
            runners[i] = new AgentRunner(worker.idleWith(idleStrategies.get()), this::onWorkerError, null, worker);
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
        taskQueued(); // idle workers no longer park (CryptoWorker#idleWith): each sees its runner stop at once
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
