package org.ubft.fabric.rdma;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.ubft.common.NodeId;
import org.ubft.fabric.rdma.RdmaCounters.Counter;
import org.ubft.fabric.tcp.Ed25519ConnectionAuthenticator;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The owner's side of the connection manager, on a thread of its own (a memory node polls nothing, and its peers
 * must be able to connect whether or not the node's user thread polls): takes connection requests, gives each the
 * queue pair its claim allows ({@link Access#REMOTE_READ}, plus {@link Access#REMOTE_WRITE} only if some region
 * lets that node write it), runs the handshake and answers LOOKUPs ({@link ServedPeer}). At most
 * {@link #MAX_SERVED} queue pairs at once; a node's newly authenticated queue pair replaces its older ones. A
 * queue pair accepted without write access is closed when a region registered later lets its node write (the
 * peer reconnects and gets a queue pair with it).
 */
final class ConnectionAgent implements Runnable {
    /** Most queue pairs served at once (connected peers and handshakes in progress). */
    static final int MAX_SERVED = 256;
    /** Connection requests taken per duty cycle (a flood is refused at this rate, the backlog bounds the rest). */
    static final int MAX_REQUESTS_PER_CYCLE = 32;

    private final RdmaDevice device;
    private final RegionDirectory regions;
    private final RdmaCounters counters;
    private final Ed25519ConnectionAuthenticator keys;
    private final long handshakeTimeoutNanos;
    private final List<ServedPeer> served = new ArrayList<>();
    private final IdleStrategy idle = new BackoffIdleStrategy(10, 20, TimeUnit.MICROSECONDS.toNanos(10),
        TimeUnit.MILLISECONDS.toNanos(1));
    private final java.util.function.Consumer<String> problems;
    private volatile boolean running = true;
    private long seenVersion = -1;

    ConnectionAgent(RdmaDevice device, RegionDirectory regions, RdmaCounters counters,
                    Ed25519ConnectionAuthenticator keys, long handshakeTimeoutNanos,
                    java.util.function.Consumer<String> problems) {
        this.device = device;
        this.regions = regions;
        this.counters = counters;
        this.keys = keys;
        this.handshakeTimeoutNanos = handshakeTimeoutNanos;
        this.problems = problems;
    }

    @Override
    public void run() {
        try {
            while (running) {
                int work;
                try {
                    work = doWork(System.nanoTime());
                } catch (RuntimeException e) {
                    // a bug or a device failure: counted and reported, and the agent goes on serving the other peers
                    counters.increment(RdmaCounters.Counter.AGENT_FAILURES);
                    problems.accept("the rdma connection agent failed (it goes on): " + e);
                    work = 0;
                }
                idle.idle(work);
            }
        } finally {
            for (ServedPeer p : served) {
                p.close();
            }
            served.clear();
        }
    }

    void stop() {
        running = false;
    }

    /** One duty cycle; returns the work done. */
    int doWork(long now) {
        int work = 0;
        device.pollIncomingEvents(); // once per cycle, for the requests and every served queue pair
        ConnectionRequest request;
        for (int i = 0; i < MAX_REQUESTS_PER_CYCLE && (request = device.nextConnectionRequest()) != null; i++) {
            onRequest(request, now);
            work++;
        }
        for (int i = 0; i < served.size(); i++) {
            ServedPeer p = served.get(i);
            int before = p.node();
            work += p.poll(now);
            if (before < 0 && p.node() >= 0) {
                replaceOlder(p);
            }
        }
        long version = regions.version();
        if (version != seenVersion) {
            seenVersion = version;
            for (ServedPeer p : served) {
                if (!Access.allows(p.access(), Access.REMOTE_WRITE) && p.claimedNode() >= 0
                    && regions.grantsWrite(p.claimedNode())) {
                    p.close(); // the peer reconnects and gets a queue pair that allows its WRITEs
                }
            }
        }
        for (int i = served.size() - 1; i >= 0; i--) {
            ServedPeer p = served.get(i);
            if (p.isClosed()) {
                if (p.problem() != null) {
                    problems.accept(p.problem());
                }
                served.remove(i);
            }
        }
        return work;
    }

    private void onRequest(ConnectionRequest request, long now) {
        byte[] privateData = request.privateData();
        // without private data (DiSNI), the claim comes from the AUTH_HELLO; without keys, it must come from here
        int claimed = privateData == null && keys != null ? -1 : ControlMessages.claimedNode(privateData);
        if ((claimed < 0 && privateData != null) || (claimed < 0 && keys == null) || served.size() >= MAX_SERVED) {
            counters.increment(Counter.REFUSED_CONNECTIONS);
            problems.accept(claimed < 0 ? "refused a connection request whose private data is not uBFT-J's"
                : "refused a connection of " + NodeId.toString(claimed) + ": " + MAX_SERVED + " already served");
            request.reject();
            return;
        }
        int access = Access.REMOTE_READ | (claimed < 0 || regions.grantsWrite(claimed) ? Access.REMOTE_WRITE : 0);
        try {
            ServedPeer p = new ServedPeer(regions, counters, request, claimed, access, keys, device,
                now + handshakeTimeoutNanos);
            served.add(p);
            if (p.node() >= 0) {
                replaceOlder(p);
            }
        } catch (RuntimeException e) {
            counters.increment(Counter.REFUSED_CONNECTIONS);
            problems.accept("could not accept a connection of " + NodeId.toString(claimed) + ": " + e.getMessage());
            request.reject();
        }
    }

    /** A node's newly authenticated queue pair replaces the ones it had (it reconnected). */
    private void replaceOlder(ServedPeer newest) {
        for (ServedPeer p : served) {
            if (p != newest && p.node() == newest.node()) {
                p.close();
            }
        }
    }
}
