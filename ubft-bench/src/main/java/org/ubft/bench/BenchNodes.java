package org.ubft.bench;

import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;
import org.ubft.common.config.IdleStrategies;
import org.ubft.fabric.CompletionHandler;
import org.ubft.fabric.Fabric;
import org.ubft.fabric.Status;
import org.ubft.fabric.shm.ShmFabric;
import org.ubft.fabric.shm.ShmOptions;
import org.ubft.fabric.tcp.TcpCounters;
import org.ubft.fabric.tcp.TcpFabric;
import org.ubft.fabric.tcp.TcpOptions;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The nodes of one benchmark, all in this JVM, on one fabric kind:
 * <ul>
 *   <li>{@code shm}: {@link ShmFabric}s on a fresh directory under {@code /dev/shm} (or {@code java.io.tmpdir}
 *       where there is none), deleted by {@link #close()}. No threads: a poster copies at post time.</li>
 *   <li>{@code tcp}: {@link TcpFabric}s listening on ephemeral 127.0.0.1 ports and finding each other through
 *       an in-memory address book. Each has its own network agent thread, idling by default with the cluster
 *       default {@code backoff} strategy ({@link IdleStrategies}) so that up to four agents and the polling
 *       benchmark thread can share two cores. The agents' wake-ups from their parks are a large part of what
 *       the tcp figures measure on such a machine; {@code -p agentIdle=yielding} shows how large.</li>
 * </ul>
 */
final class BenchNodes implements AutoCloseable {
    static final String SHM = "shm";
    static final String TCP = "tcp";
    /** The cluster default ({@code idle.strategy}); benchmarks take others with {@code -p agentIdle=NAME}. */
    static final String DEFAULT_AGENT_IDLE = "backoff";
    /** Longest a benchmark waits for one operation before it gives up (a hang is a failure, not a sample). */
    static final long OPERATION_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(5);
    /**
     * How the benchmark thread waits: it polls without ever parking, but yields its core when a poll found
     * nothing. A pure busy spin starved the tcp network agents whenever another process held the other core of
     * this 2-core machine (read8 on tcp: median about 2 ms spinning against about 50 µs yielding, in one trial).
     * On shm a poll finds the completion at once, so it never yields there.
     */
    static final IdleStrategy WAIT = YieldingIdleStrategy.INSTANCE;
    /** tcp operation timeout: generous, the machine is small and shared; benchmarks never depend on it. */
    private static final long TCP_OPERATION_TIMEOUT_MS = 1_000;

    private final String kind;
    private final String agentIdle;
    private final Path directory;
    private final Map<Integer, InetSocketAddress> addresses = new ConcurrentHashMap<>();
    private final List<Fabric> opened = new ArrayList<>();

    /** Nodes on fabric {@code kind} whose tcp network agents idle with the cluster default, {@code backoff}. */
    BenchNodes(String kind) {
        this(kind, DEFAULT_AGENT_IDLE);
    }

    /**
     * @param agentIdle idle strategy of the tcp network agents, one of {@link IdleStrategies#NAMES} (unused on
     *                  shm, which has no agents)
     */
    BenchNodes(String kind, String agentIdle) {
        IdleStrategies.of(agentIdle); // fails fast on an unknown name
        this.kind = kind;
        this.agentIdle = agentIdle;
        switch (kind) {
            case SHM -> directory = newDirectory();
            case TCP -> directory = null;
            default -> throw new IllegalArgumentException("unknown fabric '" + kind + "': expected shm or tcp");
        }
    }

    /** Opens node {@code nodeId} on this benchmark's fabric. */
    Fabric open(int nodeId) {
        Fabric fabric;
        if (directory != null) {
            fabric = new ShmFabric(ShmOptions.of(directory, nodeId));
        } else {
            TcpFabric tcp = new TcpFabric(TcpOptions.builder(nodeId)
                .bindAddress(new InetSocketAddress("127.0.0.1", 0))
                .peerResolver(addresses::get)
                .operationTimeout(TCP_OPERATION_TIMEOUT_MS, TimeUnit.MILLISECONDS)
                .idleStrategy(() -> IdleStrategies.of(agentIdle))
                .build());
            addresses.put(nodeId, tcp.localAddress());
            fabric = tcp;
        }
        opened.add(fabric);
        return fabric;
    }

    String kind() {
        return kind;
    }

    /** The shm fabric's directory, or null on tcp. */
    Path directory() {
        return directory;
    }

    /** Errors the tcp network agents caught (0 on shm); a benchmark with errors is not to be trusted. */
    long internalErrors() {
        long n = 0;
        for (Fabric f : opened) {
            if (f instanceof TcpFabric tcp) {
                n += tcp.counters().get(TcpCounters.Counter.INTERNAL_ERRORS);
            }
        }
        return n;
    }

    /**
     * {@link #close()}, then fails if the tcp network agents caught internal errors: a benchmark's teardown, so
     * that figures from a run with errors are not reported as if it were sound.
     */
    void closeChecked() {
        long errors = internalErrors();
        close();
        if (errors != 0) {
            throw new IllegalStateException(errors + " internal errors on the fabric's network threads");
        }
    }

    /** Closes every fabric, newest first, and deletes the shm directory. */
    @Override
    public void close() {
        RuntimeException failure = null;
        for (int i = opened.size() - 1; i >= 0; i--) {
            try {
                opened.get(i).close();
            } catch (RuntimeException e) {
                failure = failure == null ? e : failure;
            }
        }
        opened.clear();
        if (directory != null) {
            deleteRecursively(directory);
        }
        if (failure != null) {
            throw failure;
        }
    }

    private static Path newDirectory() {
        Path shm = Path.of("/dev/shm");
        try {
            return Files.isDirectory(shm) && Files.isWritable(shm)
                ? Files.createTempDirectory(shm, "ubft-bench-")
                : Files.createTempDirectory("ubft-bench-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a directory for the shm fabric", e);
        }
    }

    private static void deleteRecursively(Path directory) {
        try (Stream<Path> files = Files.walk(directory)) {
            for (Path p : (Iterable<Path>) files.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + directory, e);
        }
    }

    /**
     * Remembers the last completion polled; {@link #await} polls a fabric until a given operation completes.
     * Allocation-free.
     */
    static final class Completion implements CompletionHandler {
        private long id = -1;
        private Status status;

        @Override
        public void onCompletion(long workRequestId, Status status) {
            this.id = workRequestId;
            this.status = status;
        }

        /**
         * Polls {@code fabric} ({@link #WAIT}) until operation {@code workRequestId} (the only one outstanding) completes.
         *
         * @throws IllegalStateException if it does not complete SUCCESS within {@link #OPERATION_TIMEOUT_NANOS}
         */
        void await(Fabric fabric, long workRequestId) {
            long deadline = System.nanoTime() + OPERATION_TIMEOUT_NANOS;
            while (id != workRequestId) {
                int work = fabric.poll(this, 1);
                if (work == 0 && System.nanoTime() - deadline > 0) {
                    throw new IllegalStateException("operation " + workRequestId + " did not complete in time");
                }
                WAIT.idle(work);
            }
            if (status != Status.SUCCESS) {
                throw new IllegalStateException("operation " + workRequestId + " completed " + status);
            }
        }
    }
}
