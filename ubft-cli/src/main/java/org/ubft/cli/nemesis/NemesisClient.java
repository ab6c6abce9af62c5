package org.ubft.cli.nemesis;

import org.ubft.common.config.ClusterConfig;
import org.ubft.consensus.client.ClientOptions;
import org.ubft.consensus.client.UbftClient;
import org.ubft.consensus.client.UbftClientException;

import java.util.ArrayList;
import java.util.List;

/**
 * One closed-loop client of the nemesis, on a thread of its own: it invokes one request at a time ({@link #step}),
 * checks or records the reply, and publishes when its current request started ({@link #busySince()}) for the stall
 * monitor. A request that fails (the client's invoke timeout, longer than the stall bound) reconnects the client as a
 * new session; {@link #stop} closes it, which fails the request in flight.
 */
abstract class NemesisClient {
    /** Problems kept per client, at most (the count goes on). */
    private static final int MAX_PROBLEMS = 20;

    final int id;
    private final ClusterConfig cluster;
    private final ClientOptions options;
    private final Thread thread;
    private final List<String> problems = new ArrayList<>();
    private volatile boolean stopping;
    private volatile long busySince = -1;
    private volatile UbftClient client;
    private long replies;
    private long failures;
    private long problemCount;

    NemesisClient(int id, ClusterConfig cluster, ClientOptions options) {
        this.id = id;
        this.cluster = cluster;
        this.options = options;
        this.thread = new Thread(this::loop, "nemesis-client-" + id);
        this.thread.setDaemon(true);
    }

    /** One request: send it with {@link #invoke}, then check or record the reply. */
    abstract void step() throws InterruptedException;

    /** True once this client cannot go on (its check would be meaningless): the loop ends. */
    abstract boolean finished();

    final void start() {
        client = UbftClient.connect(cluster, id, options);
        thread.start();
    }

    private void loop() {
        try {
            while (!stopping && !finished()) {
                step();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            problem("client-" + id + " failed: " + e);
        } finally {
            busySince = -1;
        }
    }

    /**
     * Invokes {@code request} and returns the reply, or {@code null} if it failed (then the request may or may not
     * have taken effect; unless stopping, the client reconnects as a new session).
     */
    final byte[] invoke(byte[] request) {
        busySince = System.nanoTime();
        try {
            byte[] reply = client.invoke(request);
            replies++;
            return reply;
        } catch (UbftClientException e) {
            if (!stopping) {
                failures++;
                client.close();
                client = UbftClient.connect(cluster, id, options);
            }
            return null;
        } finally {
            busySince = -1;
        }
    }

    /** System.nanoTime() when the request in flight was sent; -1 when none is. */
    final long busySince() {
        return busySince;
    }

    final boolean stopping() {
        return stopping;
    }

    /** Records a violation or failure this client saw. */
    final synchronized void problem(String text) {
        problemCount++;
        if (problems.size() < MAX_PROBLEMS) {
            problems.add(text);
        }
    }

    synchronized List<String> problems() {
        List<String> out = new ArrayList<>(problems);
        if (problemCount > problems.size()) {
            out.add("client-" + id + ": " + (problemCount - problems.size()) + " more problems");
        }
        return out;
    }

    synchronized long problemCount() {
        return problemCount;
    }

    /** Replies accepted. */
    final long replies() {
        return replies;
    }

    /** Requests that failed (no reply within the client's invoke timeout). */
    final long failures() {
        return failures;
    }

    /**
     * Ends the loop: waits up to {@code graceMillis} for the request in flight, then closes the client (failing it).
     */
    final void stop(long graceMillis) throws InterruptedException {
        stopping = true;
        thread.join(graceMillis);
        UbftClient c = client;
        if (c != null) {
            c.close();
        }
        thread.join();
    }
}
