package org.ubft.common.crypto;

import org.agrona.concurrent.SleepingIdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.YieldingIdleStrategy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.ubft.common.NodeId;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(120) // a hang guard, not a speed check
class CryptoPoolTest {
    private static final int R0 = NodeId.replica(0);
    private static final int R1 = NodeId.replica(1);
    private static final int R2 = NodeId.replica(2);

    private final SigningKey[] keys = TestKeys.keys(R0, R1, R2);
    private final PublicKeys publicKeys = TestKeys.publicKeys(keys);
    private CryptoPool pool;

    @AfterEach
    void closePool() {
        if (pool != null) {
            pool.close();
        }
    }

    private static byte[] message(int owner, long id) {
        byte[] m = new byte[16 + (int) (id % 50)];
        for (int i = 0; i < m.length; i++) {
            m[i] = (byte) (owner * 101 + id * 7 + i);
        }
        return m;
    }

    private static byte[] sign(SigningKey key, byte[] message) {
        byte[] sig = new byte[64];
        key.sign(message, 0, message.length, sig, 0);
        return sig;
    }

    /**
     * Three owner threads, two workers: every task comes back exactly once with the right result. Each owner keeps
     * at most {@code capacity} tasks outstanding, so nothing may be dropped or refused.
     */
    @Test
    void resultsComeBackForManyTasksAcrossSeveralOwners() throws Exception {
        pool = new CryptoPool(2).start();
        int owners = 3;
        int tasksPerOwner = 300;
        int capacity = 16;
        CryptoService[] services = new CryptoService[owners];
        for (int o = 0; o < owners; o++) {
            services[o] = pool.newOwner(keys[o], publicKeys, capacity, 128);
        }
        // Precomputed: what each task must give. Task id: even = SIGN, 1 mod 4 = VERIFY of a good signature of
        // another replica, 3 mod 4 = VERIFY of a signature claimed by the wrong replica.
        List<List<String>> expected = new ArrayList<>();
        for (int o = 0; o < owners; o++) {
            List<String> lines = new ArrayList<>();
            for (long id = 0; id < tasksPerOwner; id++) {
                byte[] m = message(o, id);
                lines.add(id % 2 == 0 ? ResultLog.signed(id, sign(keys[o], m)) : "V " + id + " " + (id % 4 == 1));
            }
            expected.add(lines);
        }
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        CyclicBarrier go = new CyclicBarrier(owners);
        List<ResultLog> logs = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (int o = 0; o < owners; o++) {
            int owner = o;
            ResultLog log = new ResultLog();
            logs.add(log);
            Thread t = new Thread(() -> {
                try {
                    go.await();
                    runOwner(services[owner], owner, tasksPerOwner, capacity, log);
                } catch (Throwable e) {
                    failures.add(e);
                }
            }, "owner-" + o);
            threads.add(t);
            t.start();
        }
        for (Thread t : threads) {
            t.join();
        }
        assertTrue(failures.isEmpty(), failures.toString());
        for (int o = 0; o < owners; o++) {
            List<String> got = new ArrayList<>(logs.get(o).lines);
            Collections.sort(got);
            List<String> want = new ArrayList<>(expected.get(o));
            Collections.sort(want);
            assertEquals(want, got, "owner " + o);
            assertEquals(0, services[o].droppedTasks());
            assertEquals(0, services[o].refusedSubmissions());
        }
        assertEquals(0, pool.workerErrors());
    }

    private void runOwner(CryptoService service, int owner, int tasks, int capacity, ResultLog log) {
        UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(128));
        UnsafeBuffer sig = new UnsafeBuffer(new byte[64]);
        long next = 0;
        while (log.lines.size() < tasks) {
            while (next < tasks && next - log.lines.size() < capacity) {
                byte[] m = message(owner, next);
                buffer.putBytes(0, m);
                boolean accepted;
                if (next % 2 == 0) {
                    accepted = service.submitSign(next, buffer, 0, m.length);
                } else {
                    int other = (owner + 1) % keys.length;
                    sig.putBytes(0, sign(keys[other], m));
                    int claimed = next % 4 == 1 ? NodeId.replica(other) : NodeId.replica((owner + 2) % keys.length);
                    accepted = service.submitVerify(next, claimed, buffer, 0, m.length, sig, 0, 64);
                }
                if (!accepted) {
                    throw new AssertionError("refused task " + next);
                }
                buffer.setMemory(0, 128, (byte) 0); // the task holds its own copy
                next++;
            }
            if (service.poll(log, 10) == 0) {
                Thread.yield();
            }
        }
    }

    @Test
    void underOverloadTheOldestTasksAreDroppedCountedAndReported() {
        pool = new CryptoPool(1);
        CryptoService owner = pool.newOwner(keys[0], publicKeys, 4, 64);
        UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
        for (long id = 0; id < 10; id++) {
            buffer.putLong(0, id);
            assertTrue(owner.submitSign(id, buffer, 0, 8));
        }
        assertEquals(6, owner.droppedTasks(), "workers not started: 10 submitted, 4 fit");
        assertEquals(0, owner.refusedSubmissions());
        ResultLog log = new ResultLog();
        assertEquals(6, owner.poll(log, 100));
        assertEquals(List.of("D 0", "D 1", "D 2", "D 3", "D 4", "D 5"), log.lines);

        pool.start();
        log.lines.clear();
        while (log.lines.size() < 4) {
            owner.poll(log, 100);
            Thread.yield();
        }
        List<String> want = new ArrayList<>();
        for (long id = 6; id < 10; id++) {
            byte[] m = new byte[8];
            new UnsafeBuffer(m).putLong(0, id);
            want.add(ResultLog.signed(id, sign(keys[0], m)));
        }
        assertEquals(want, log.lines, "one worker serves one owner's queue in order");
        assertEquals(6, owner.droppedTasks());
    }

    @Test
    void anOwnerThatNeverPollsIsRefusedOnceItsDropReportsFillUp() {
        pool = new CryptoPool(1); // not started: nothing executes
        CryptoService owner = pool.newOwner(null, publicKeys, 2, 16);
        UnsafeBuffer m = new UnsafeBuffer(new byte[16]);
        UnsafeBuffer sig = new UnsafeBuffer(new byte[64]);
        // 2 wait, then every submission drops the oldest; 4 drop reports fit (2 x capacity).
        for (long id = 0; id < 6; id++) {
            assertTrue(owner.submitVerify(id, R0, m, 0, 16, sig, 0, 64), "task " + id);
        }
        assertTrue(!owner.submitVerify(6, R0, m, 0, 16, sig, 0, 64), "no room to report another drop");
        assertEquals(4, owner.droppedTasks());
        assertEquals(1, owner.refusedSubmissions());
        ResultLog log = new ResultLog();
        assertEquals(3, owner.poll(log, 3), "poll respects its limit");
        assertEquals(List.of("D 0", "D 1", "D 2"), log.lines);
        assertTrue(owner.submitVerify(7, R0, m, 0, 16, sig, 0, 64), "polling made room");
        assertEquals(5, owner.droppedTasks());
    }

    @Test
    void badVerifyInputIsAFalseVerdictAndBadSignInputTheCallersBug() {
        pool = new CryptoPool(1, () -> YieldingIdleStrategy.INSTANCE).start();
        CryptoService owner = pool.newOwner(keys[0], publicKeys, 8, 32);
        CryptoService verifyOnly = pool.newOwner(null, publicKeys, 8, 32);
        UnsafeBuffer m = new UnsafeBuffer(new byte[40]);
        UnsafeBuffer sig = new UnsafeBuffer(new byte[64]);
        keys[1].newSigner().sign(m, 0, 32, sig, 0);
        owner.submitVerify(1, R1, m, 0, 32, sig, 0, 64);
        owner.submitVerify(2, NodeId.client(5), m, 0, 32, sig, 0, 64);
        owner.submitVerify(3, R1, m, 0, 32, sig, 0, 63);
        owner.submitVerify(4, R1, m, 0, 33, sig, 0, 64);
        owner.submitVerify(5, R1, m, 30, 32, sig, 0, 64);
        owner.submitVerify(6, R1, m, 0, 32, sig, 8, 64);
        owner.submitVerify(7, R1, null, 0, 32, null, 0, 64);
        ResultLog log = new ResultLog();
        while (log.lines.size() < 7) {
            owner.poll(log, 10);
            Thread.yield();
        }
        Collections.sort(log.lines);
        assertEquals(List.of("V 1 true", "V 2 false", "V 3 false", "V 4 false", "V 5 false", "V 6 false", "V 7 false"),
                log.lines);
        assertThrows(IllegalArgumentException.class, () -> owner.submitSign(8, m, 0, 33));
        assertThrows(IndexOutOfBoundsException.class, () -> owner.submitSign(9, m, 20, 32));
        assertThrows(IllegalStateException.class, () -> verifyOnly.submitSign(10, m, 0, 8));
        pool.close();
        assertThrows(IllegalStateException.class, () -> owner.submitVerify(11, R1, m, 0, 32, sig, 0, 64));
        assertThrows(IllegalStateException.class, () -> pool.newOwner(null, publicKeys, 1, 1));
    }

    /** Workers that park ten minutes when idle (Agrona's SleepingIdleStrategy parks with LockSupport). */
    private static SleepingIdleStrategy parksTenMinutes() {
        return new SleepingIdleStrategy(TimeUnit.MINUTES.toNanos(10));
    }

    /** Waits until the pool's worker thread parks in its idle strategy. */
    private static void awaitWorkerParked() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            for (var e : Thread.getAllStackTraces().entrySet()) {
                if (e.getKey().getName().equals("ubft-crypto-0") && e.getKey().getState() == Thread.State.TIMED_WAITING
                    && java.util.Arrays.stream(e.getValue()).anyMatch(f -> f.getClassName().contains("SleepingIdle"))) {
                    return;
                }
            }
            Thread.sleep(10);
        }
        throw new AssertionError("the worker never parked");
    }

    /**
     * A task submitted while the worker is parked for ten minutes comes back at once: the submission unparks it
     * (before, a check waited out the park period: up to half a millisecond per hand-off with the default backoff).
     */
    @Test
    void aSubmissionUnparksAnIdleWorker() throws Exception {
        pool = new CryptoPool(1, CryptoPoolTest::parksTenMinutes).start();
        CryptoService owner = pool.newOwner(keys[0], publicKeys, 4, 64);
        awaitWorkerParked();
        UnsafeBuffer m = new UnsafeBuffer(new byte[8]);
        assertTrue(owner.submitSign(1, m, 0, 8));
        ResultLog log = new ResultLog();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (log.lines.isEmpty() && System.nanoTime() < deadline) {
            owner.poll(log, 1);
            Thread.sleep(1);
        }
        assertEquals(List.of(ResultLog.signed(1, sign(keys[0], new byte[8]))), log.lines,
            "the parked worker was not woken by the submission");
    }

    /**
     * A worker that hands back a verdict runs the pool's waker: an owner blocked elsewhere (a replica on its sockets)
     * learns of it without waiting for a timeout.
     */
    @Test
    void aWorkerThatHandedBackResultsRunsTheWaker() throws Exception {
        CountDownLatch woken = new CountDownLatch(1);
        pool = new CryptoPool(1, CryptoPoolTest::parksTenMinutes).onResults(woken::countDown).start();
        CryptoService owner = pool.newOwner(null, publicKeys, 4, 64);
        UnsafeBuffer m = new UnsafeBuffer(new byte[16]);
        UnsafeBuffer sig = new UnsafeBuffer(new byte[64]);
        keys[1].newSigner().sign(m, 0, 16, sig, 0);
        assertTrue(owner.submitVerify(7, R1, m, 0, 16, sig, 0, 64));
        assertTrue(woken.await(30, TimeUnit.SECONDS), "the worker ran no waker");
        ResultLog log = new ResultLog();
        assertEquals(1, owner.poll(log, 4), "the verdict was handed back before the waker ran");
        assertEquals(List.of("V 7 true"), log.lines);
        assertThrows(NullPointerException.class, () -> pool.onResults(null));
    }

    @Test
    void poolsAreConfiguredSensibly() {
        assertThrows(IllegalArgumentException.class, () -> new CryptoPool(0));
        pool = new CryptoPool(2);
        assertThrows(IllegalArgumentException.class, () -> pool.newOwner(null, publicKeys, 0, 16));
        pool.start();
        assertThrows(IllegalStateException.class, () -> pool.start());
        assertEquals(2, pool.threads());
    }
}
