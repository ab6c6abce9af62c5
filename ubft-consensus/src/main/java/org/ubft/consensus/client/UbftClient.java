package org.ubft.consensus.client;

import org.agrona.DirectBuffer;
import org.agrona.ErrorHandler;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.ManyToOneConcurrentArrayQueue;
import org.agrona.concurrent.CachedNanoClock;
import org.ubft.common.NodeId;
import org.ubft.common.config.ClusterConfig;
import org.ubft.common.crypto.ClusterKeys;
import org.ubft.common.crypto.SigningKey;
import org.ubft.consensus.runtime.ReplicaNode;
import org.ubft.ctbcast.link.LinkConfig;
import org.ubft.ctbcast.node.CtbcastNode;
import org.ubft.fabric.CompletionRouter;
import org.ubft.fabric.Fabric;
import org.ubft.fabric.Fabrics;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The user's client of a uBFT service (docs/design.md §9), in the style of BFT-SMaRt's service proxy: {@link #invoke}
 * blocks for the reply, {@link #invokeAsync} returns a future. Thread-safe: any number of threads may invoke.
 *
 * <p>One agent thread (Agrona {@link AgentRunner}, the options' idle strategy) owns the fabric, the
 * {@link ClientLinks} and the {@link ClientCore}; requests reach it through a bounded queue, and it completes the
 * futures, so callbacks chained without an executor run on that thread and must not block. Retransmissions are signed
 * with the client's key. A request fails with a {@link UbftClientException} when no reply quorum came within
 * {@link ClientOptions#invokeTimeout()} (counted from the call), when the client is closed, or at once when the queue
 * is full.
 *
 * <p>Each client starts a new session ({@link org.ubft.consensus.wire.RequestNumbers}) and its link indices
 * ({@link CtbcastNode#wallClockEpoch()}) from the wall clock, so the replicas hear and serve it after an earlier run
 * with the same client index; that needs a clock that does not go back between runs, and one process at a time per
 * client index.
 */
public final class UbftClient implements AutoCloseable {
    /** The agent's clock: the time at the start of its duty cycle. */
    private final CachedNanoClock cycleClock = new CachedNanoClock();
    private final Fabric fabric;
    private final int client;
    private final ClientCore core;
    private final ClientLinks links;
    private final ClientOptions options;
    private final ManyToOneConcurrentArrayQueue<Call> queue;
    private final AgentRunner runner;
    private final ClientAgent agent = new ClientAgent();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final AtomicLong agentErrors = new AtomicLong();
    private volatile Throwable lastAgentError;
    private final int maxRequestBytes;

    /** One invocation; its fields other than the request and future belong to the agent thread. */
    private static final class Call {
        final byte[] request;
        final CompletableFuture<byte[]> future = new CompletableFuture<>();
        final long deadline;
        long number;

        Call(byte[] request, long deadline) {
            this.request = request;
            this.deadline = deadline;
        }
    }

    /**
     * Connects client {@code client} of {@code cluster}: opens its fabric ({@link Fabrics#open}), loads its key for
     * signing retransmissions ({@link ClusterKeys#load}) and starts its thread.
     *
     * @throws org.ubft.common.config.ConfigException if the client's keys are missing or wrong
     * @throws IllegalArgumentException               if the client is not in the cluster or the options do not fit it
     */
    public static UbftClient connect(ClusterConfig cluster, int client, ClientOptions options) {
        int node = NodeId.client(client);
        SigningKey key = ClusterKeys.load(cluster, node).signingKey();
        Fabric fabric = Fabrics.open(cluster, node);
        try {
            LinkConfig links = options.links() != null ? options.links() : ClientLinks.defaultConfig(cluster);
            return new UbftClient(fabric, cluster.n(), cluster.f(), links, options, key::sign);
        } catch (RuntimeException e) {
            fabric.close();
            throw e;
        }
    }

    /**
     * A client over an open fabric of a client node (its index is the fabric's node's); the client owns the fabric
     * from now on and closes it in {@link #close()}.
     *
     * @param n      replicas of the cluster
     * @param f      faults it tolerates (the default quorum is f + 1)
     * @param links  link sizes, the same as the replicas' client links
     * @param signer signs retransmissions; {@code null} to retransmit unsigned
     */
    public UbftClient(Fabric fabric, int n, int f, LinkConfig links, ClientOptions options, ClientCore.Signer signer) {
        int node = fabric.localNode();
        if (NodeId.role(node) != NodeId.Role.CLIENT) {
            throw new IllegalArgumentException("the fabric is " + NodeId.toString(node) + ", not a client");
        }
        this.fabric = fabric;
        this.client = NodeId.index(node);
        this.options = options;
        int servers = options.serversFor(n);
        this.maxRequestBytes = ClientLinks.maxRequestPayload(links.maxPayloadBytes());
        cycleClock.update(System.nanoTime()); // then once a duty cycle (ClientAgent.doWork), not by every part
        CompletionRouter router = new CompletionRouter(fabric, 4);
        ClientCore[] coreRef = new ClientCore[1];
        this.links = ClientLinks.forClient(router, cycleClock, client, servers, links,
            (replica, b, off, len) -> coreRef[0].onReply(replica, b, off, len));
        // above every index an earlier run of this client sent: the replicas' receivers jump to it (§6.2)
        this.links.links().startAt(CtbcastNode.wallClockEpoch());
        this.core = new ClientCore(new ClientCore.Config(client, servers, options.quorumFor(n, f), maxRequestBytes,
            ClientLinks.maxReplyBody(links.maxPayloadBytes()), options.maxInFlight(),
            options.retransmitInitial().toNanos(), options.retransmitMax().toNanos()),
            cycleClock, this.links::send, signer, this::onComplete);
        coreRef[0] = core;
        this.queue = new ManyToOneConcurrentArrayQueue<>(options.queueCapacity());
        ErrorHandler errors = e -> {
            agentErrors.incrementAndGet();
            lastAgentError = e;
        };
        this.runner = new AgentRunner(fabric.pollerIdleStrategy(options.idleStrategy().get()), errors, null, agent);
        AgentRunner.startOnThread(runner, r -> {
            Thread t = new Thread(r, "ubft-client-" + client);
            t.setDaemon(true);
            return t;
        });
    }

    /** The fabric's last connection problem, for a "no reply" message (a key the replicas refuse says so). */
    private String connectionProblem() {
        String problem = fabric.lastProblem();
        return problem == null ? "" : "; last connection problem: " + problem;
    }

    /**
     * Sends {@code request} to the service and waits for its reply (accepted from a quorum of replicas).
     *
     * @throws UbftClientException      if no reply came within the invoke timeout, the client is (or gets) closed,
     *                                  the queue is full, or the thread is interrupted
     * @throws IllegalArgumentException if the request is longer than {@link #maxRequestBytes()}
     */
    public byte[] invoke(byte[] request) {
        CompletableFuture<byte[]> future = invokeAsync(request);
        Duration timeout = options.invokeTimeout();
        try {
            // The agent fails the future at the deadline; the extra second only guards against a dead agent thread.
            return future.get(timeout.toNanos() + TimeUnit.SECONDS.toNanos(1), TimeUnit.NANOSECONDS);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            throw new UbftClientException(cause.getMessage(), cause);
        } catch (TimeoutException e) {
            throw new UbftClientException("client " + client + ": no reply within " + timeout
                + " (the client thread did not report; agent errors: " + agentErrors.get() + ")" + connectionProblem(),
                lastAgentError);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UbftClientException("client " + client + ": interrupted while waiting for a reply", e);
        }
    }

    /**
     * Sends {@code request} to the service; the future completes with the reply or fails with a
     * {@link UbftClientException} (timeout, closed, queue full). The array is not copied: do not change it.
     *
     * @throws IllegalArgumentException if the request is longer than {@link #maxRequestBytes()}
     */
    public CompletableFuture<byte[]> invokeAsync(byte[] request) {
        if (request.length > maxRequestBytes) {
            throw new IllegalArgumentException("request of " + request.length + " bytes; at most " + maxRequestBytes
                + ", what a client link carries (the cluster file's " + ReplicaNode.MAX_REQUEST_KEY + " bounds it)");
        }
        Call call = new Call(request, System.nanoTime() + options.invokeTimeout().toNanos());
        if (closed.get()) {
            call.future.completeExceptionally(closedException());
            return call.future;
        }
        if (!queue.offer(call)) {
            call.future.completeExceptionally(new UbftClientException("client " + client + ": " + queue.capacity()
                + " requests are already waiting for the client thread; try again later"));
            return call.future;
        }
        fabric.wakePoller(); // the client thread may be waiting on its sockets
        if (closed.get()) {
            // close() may have drained the queue before this call was in it
            call.future.completeExceptionally(closedException());
        }
        return call.future;
    }

    /** Largest request this client sends. */
    public int maxRequestBytes() {
        return maxRequestBytes;
    }

    /** The protocol counters (read from another thread: each value possibly a little stale). */
    public ClientCounters counters() {
        return core.counters();
    }

    /** Exceptions the client thread caught (bugs; the thread carries on). */
    public long agentErrors() {
        return agentErrors.get();
    }

    /** The client index. */
    public int client() {
        return client;
    }

    /**
     * Stops the client thread, fails every outstanding request with a {@link UbftClientException} and closes the
     * fabric. Idempotent.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            runner.close(); // joins the agent thread: from here on this thread owns everything
        } finally {
            agent.failAll(closedException());
            fabric.close();
        }
    }

    private UbftClientException closedException() {
        return new UbftClientException("client " + client + " is closed");
    }

    private void onComplete(long number, DirectBuffer reply, int offset, int length) {
        agent.complete(number, reply, offset, length);
    }

    /** Everything the client thread does. */
    private final class ClientAgent implements Agent {
        private final Long2ObjectHashMap<Call> outstanding = new Long2ObjectHashMap<>();
        /** Calls taken from the queue and not yet in the core. */
        private final ArrayDeque<Call> waiting = new ArrayDeque<>();
        /** Every call taken from the queue, by deadline (all have the same timeout, so in arrival order). */
        private final ArrayDeque<Call> byDeadline = new ArrayDeque<>();

        @Override
        public int doWork() {
            long now = System.nanoTime();
            cycleClock.update(now);
            int work = queue.drain(this::accept);
            while (!waiting.isEmpty() && core.hasRoom()) {
                Call c = waiting.poll();
                if (!c.future.isDone()) {
                    c.number = core.submit(c.request);
                    outstanding.put(c.number, c);
                    work++;
                }
            }
            work += links.doWork();
            work += core.doWork();
            work += expire(now);
            return work;
        }

        private void accept(Call c) {
            waiting.add(c);
            byDeadline.add(c);
        }

        void complete(long number, DirectBuffer reply, int offset, int length) {
            Call c = outstanding.remove(number);
            if (c != null) {
                byte[] bytes = new byte[length];
                reply.getBytes(offset, bytes);
                c.future.complete(bytes);
            }
        }

        private int expire(long now) {
            int work = 0;
            Call c;
            while ((c = byDeadline.peek()) != null && (c.future.isDone() || now - c.deadline >= 0)) {
                byDeadline.poll();
                // Give it up in the core first, so that whoever sees the failure also sees the core's counters.
                if (c.number > 0 && outstanding.remove(c.number) != null) {
                    core.cancel(c.number); // failed now, or cancelled by the user: stop retransmitting it
                }
                if (!c.future.isDone()) {
                    c.future.completeExceptionally(new UbftClientException("client " + client + ": request "
                        + (c.number > 0 ? "#" + c.number : "(still queued)") + " got no reply from "
                        + core.config().quorum() + " of " + core.config().servers() + " replicas within "
                        + options.invokeTimeout() + "; " + core.counters() + connectionProblem()));
                }
                work++;
            }
            return work;
        }

        void failAll(UbftClientException e) {
            queue.drain(this::accept);
            for (Call c : byDeadline) {
                c.future.completeExceptionally(e);
            }
            byDeadline.clear();
            waiting.clear();
            outstanding.clear();
        }

        @Override
        public String roleName() {
            return "ubft-client-" + client;
        }
    }
}
