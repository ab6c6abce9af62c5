package org.ubft.cli.bench;

import org.HdrHistogram.Histogram;
import org.ubft.consensus.client.UbftClient;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Concurrent client sessions, each a {@link UbftClient} (its own client index) sending Flip requests with
 * {@link UbftClient#invokeAsync}, one in flight per session. Closed loop ({@link #closed}): a session sends its next
 * request when the reply comes. Open loop ({@link #open}): each session sends at a fixed rate, and a reply later than
 * the interval is recorded with HdrHistogram's coordinated-omission correction
 * ({@link Histogram#recordValueWithExpectedInterval}), which adds the samples of the requests the session would have
 * sent meanwhile. Each session records into its own histogram on its client's thread; they are merged at the end.
 */
final class Sessions {
    private static final long DRAIN_NANOS = TimeUnit.SECONDS.toNanos(15);

    /** What a run measured: every reply's latency (ns), the replies, the failed requests and the run's length. */
    record Result(Histogram latency, long replies, long failures, long elapsedNanos) {
        double opsPerSecond() {
            return replies / (elapsedNanos / 1e9);
        }

        double micros(double percentile) {
            return latency.getValueAtPercentile(percentile) / 1e3;
        }
    }

    private Sessions() {
    }

    /** The first {@code k} of {@code clients}, closed loop, for {@code nanos}. */
    static Result closed(List<UbftClient> clients, int k, int payload, long nanos) throws InterruptedException {
        return run(clients, k, payload, nanos, 0);
    }

    /** The first {@code k} of {@code clients}, {@code rate} requests per second in all, for {@code nanos}. */
    static Result open(List<UbftClient> clients, int k, int payload, double rate, long nanos)
        throws InterruptedException {
        return run(clients, k, payload, nanos, (long) (k * 1e9 / rate));
    }

    private static Result run(List<UbftClient> clients, int k, int payload, long nanos, long intervalNanos)
        throws InterruptedException {
        if (k > clients.size()) {
            throw new IllegalArgumentException(k + " sessions of " + clients.size() + " clients");
        }
        List<Session> sessions = new ArrayList<>();
        CountDownLatch idle = new CountDownLatch(k);
        AtomicLong failures = new AtomicLong();
        for (int s = 0; s < k; s++) {
            sessions.add(new Session(clients.get(s), payload, s, intervalNanos, idle, failures));
        }
        long start = System.nanoTime();
        long end = start + nanos;
        if (intervalNanos == 0) {
            sessions.forEach(s -> s.send(end));
        } else {
            for (int s = 0; s < k; s++) {
                sessions.get(s).nextAt = start + s * intervalNanos / k; // spread over one interval
            }
            pace(sessions, end);
            sessions.forEach(Session::stopAt);
        }
        if (!idle.await(nanos + DRAIN_NANOS, TimeUnit.NANOSECONDS)) {
            throw new IllegalStateException("a session still waited for a reply " + DRAIN_NANOS / 1_000_000_000
                + " s after the end of the run");
        }
        long elapsed = System.nanoTime() - start;
        Histogram all = new Histogram(TimeUnit.SECONDS.toNanos(60), 3);
        long replies = 0;
        for (Session s : sessions) {
            all.add(s.latency);
            replies += s.replies;
        }
        return new Result(all, replies, failures.get(), elapsed);
    }

    /** Open loop: sends each idle session's request once its time has come, until {@code end}. */
    private static void pace(List<Session> sessions, long end) {
        while (System.nanoTime() - end < 0) {
            long now = System.nanoTime();
            for (Session s : sessions) {
                if (!s.busy && now - s.nextAt >= 0) {
                    s.nextAt += s.interval;
                    s.busy = true;
                    s.invoke();
                }
            }
            LockSupport.parkNanos(20_000);
        }
    }

    /** One session: its client, its request and its own histogram (written by its client's thread). */
    private static final class Session {
        final UbftClient client;
        final byte[] request;
        final long interval;
        final Histogram latency = new Histogram(TimeUnit.SECONDS.toNanos(60), 3);
        final CountDownLatch idle;
        final AtomicLong failures;
        volatile boolean busy;
        /** Closed loop: when the run ends. */
        volatile long end;
        volatile boolean stopped;
        long nextAt;
        long replies;

        Session(UbftClient client, int payload, int seed, long interval, CountDownLatch idle, AtomicLong failures) {
            this.client = client;
            this.request = new byte[payload];
            new java.util.SplittableRandom(seed).nextBytes(request);
            this.interval = interval;
            this.idle = idle;
            this.failures = failures;
        }

        /** Closed loop: one request now, the next when its reply came, until {@code until}. */
        void send(long until) {
            end = until;
            invoke();
        }

        /** Open loop: the run ended; the session counts as idle once its request in flight (if any) is answered. */
        synchronized void stopAt() {
            stopped = true;
            if (!busy) {
                idle.countDown();
            }
        }

        void invoke() {
            long t0 = System.nanoTime();
            client.invokeAsync(request.clone()).whenComplete((reply, e) -> done(t0, reply, e));
        }

        private void done(long t0, byte[] reply, Throwable e) {
            long t = System.nanoTime() - t0;
            if (e != null || reply == null || reply.length != request.length
                || reply[0] != request[request.length - 1]) {
                failures.incrementAndGet();
                if (interval == 0) {
                    idle.countDown(); // a closed-loop session stops at its first failure
                    return;
                }
            } else {
                replies++;
                long v = Math.min(t, latency.getHighestTrackableValue());
                if (interval > 0) {
                    latency.recordValueWithExpectedInterval(v, interval);
                } else {
                    latency.recordValue(v);
                }
            }
            if (interval > 0) {
                synchronized (this) {
                    busy = false;
                    if (stopped) {
                        idle.countDown();
                    }
                }
            } else if (System.nanoTime() - end < 0) {
                invoke();
            } else {
                idle.countDown();
            }
        }
    }
}
