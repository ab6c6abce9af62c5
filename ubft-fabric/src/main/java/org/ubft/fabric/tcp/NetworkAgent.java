package org.ubft.fabric.tcp;

import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.OneToOneConcurrentArrayQueue;
import org.ubft.common.NodeId;
import org.ubft.fabric.Status;

import java.io.IOException;
import java.net.StandardSocketOptions;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * The tcp fabric's network thread, as an Agrona {@link Agent}: one duty cycle takes this node's newly
 * posted operations, serves what the sockets have (accepts, peers' requests on this node's regions,
 * answers to this node's requests), then expires, connects and sends per peer. Completions go to the
 * user thread through the completion queue, after any READ data was written into its destination.
 *
 * <p>Nothing in a cycle blocks: sockets are non-blocking and polled with {@code selectNow}; between
 * cycles without work the thread waits on the sockets ({@link SocketWaitIdleStrategy}) or follows the
 * configured idle strategy. With {@link TcpOptions#sharedThread()} the cycle runs inside
 * {@link TcpFabric#poll} on the caller's thread instead of on a thread of its own. An unexpected exception while
 * handling one connection closes that connection and is counted; it never stops the thread.
 */
final class NetworkAgent implements Agent {
    private static final int SUBMISSIONS_PER_CYCLE = 256;
    private static final int ACCEPTS_PER_CYCLE = 16;
    /**
     * Longest idle wait of a network thread of its own with no timer running (no operation in flight, no handshake,
     * no lazy WRITE to confirm): its next work is a peer's bytes or a post, which both end the wait. A memory node's
     * network thread thus wakes 50 times a second when idle instead of 1,000.
     */
    static final long QUIET_WAIT_MILLIS = 20;

    private final TcpOptions options;
    private final int localNode;
    private final TcpCounters counters;
    private final Selector selector;
    private final ServerSocketChannel server;
    private final OneToOneConcurrentArrayQueue<TcpOperation> submissions;
    private final OneToOneConcurrentArrayQueue<TcpOperation> completions;
    private final AtomicReference<RegionTable> regions;
    private final Int2ObjectHashMap<PeerLink> linkByPeer = new Int2ObjectHashMap<>();
    private final ArrayList<PeerLink> links = new ArrayList<>();
    private final ArrayList<ServedConnection> served = new ArrayList<>();
    private final Int2ObjectHashMap<ServedConnection> servedByPeer = new Int2ObjectHashMap<>();
    private final Consumer<TcpOperation> onSubmission = this::onSubmission;
    private final Consumer<SelectionKey> onSelected = this::onSelected;
    private final Consumer<SelectionKey> onWokenSelected = this::onWokenSelected;
    private volatile Throwable lastInternalError;
    /**
     * Peers whose outbound connection, once ready, was lost and is not back (copy on write: changed on this thread on
     * connection events only, read from the fabric's polling thread).
     */
    private volatile int[] lostPeers = new int[0];
    private final ProblemLog problems;
    /** True while the thread waits in {@link #await}: another thread posting must wake it. */
    private volatile boolean waiting;
    /**
     * Set by {@link #wake}: another thread handed the polling thread work the fabric does not see (a signature
     * worker's verdict, a client's call); the next {@link #await} does not block, so a wake that comes between the
     * thread's last look for work and its wait is not lost.
     */
    private volatile boolean wakeRequested;
    /** Set by {@link #beginClose}: waits end at once, so that the thread sees its runner stop without delay. */
    private volatile boolean closing;
    private int handshaking;
    /** True if {@link #await} served what became ready: the next duty cycle need not ask the selector again. */
    private boolean servedInWait;
    /** Served connections holding lazy WRITEs not confirmed yet. */
    private int awaitingConfirm;
    private long now;

    NetworkAgent(TcpOptions options, TcpCounters counters, Selector selector, ServerSocketChannel server,
                 OneToOneConcurrentArrayQueue<TcpOperation> submissions,
                 OneToOneConcurrentArrayQueue<TcpOperation> completions, AtomicReference<RegionTable> regions) {
        this.options = options;
        this.problems = new ProblemLog(options.localNode(), options.problemLog());
        this.localNode = options.localNode();
        this.counters = counters;
        this.selector = selector;
        this.server = server;
        this.submissions = submissions;
        this.completions = completions;
        this.regions = regions;
        this.now = options.clock().nanoTime();
    }

    @Override
    public String roleName() {
        return "ubft-tcp-" + NodeId.toString(localNode);
    }

    @Override
    public void onStart() {
        try {
            server.register(selector, SelectionKey.OP_ACCEPT, server);
        } catch (IOException e) {
            internalError(e);
        }
    }

    @Override
    public int doWork() throws IOException {
        now = options.clock().nanoTime();
        int work = submissions.drain(onSubmission, SUBMISSIONS_PER_CYCLE);
        if (servedInWait) {
            servedInWait = false; // the wait that ended just now served the sockets: a select now would find nothing
        } else {
            work += selector.selectNow(onSelected); // never blocks: the clock read before it is current enough
        }
        for (int i = 0; i < links.size(); i++) {
            PeerLink link = links.get(i);
            try {
                work += link.doWork(now);
            } catch (RuntimeException e) {
                internalError(e);
                link.close("internal error: " + e);
            }
        }
        if (awaitingConfirm > 0) {
            for (int i = 0; i < served.size(); i++) {
                work += served.get(i).confirmIfDue(now);
            }
        }
        if (handshaking > 0) {
            for (int i = served.size() - 1; i >= 0; i--) {
                if (served.get(i).expireHandshake(now)) {
                    work++;
                }
            }
        }
        return work;
    }

    /**
     * Waits until a socket is ready, the selector is woken or {@code maxMillis} passed, and serves what is
     * ready, so that the next {@link #doWork()} need not select again (one system call less per wake-up).
     * Returns at once if operations were posted, so a post racing with the wait is never missed
     * (the poster reads {@link #isWaiting()} after queueing; this reads the queue after setting it).
     */
    void await(long maxMillis) {
        waiting = true;
        try {
            if (submissions.isEmpty() && !closing && !wakeRequested) {
                // served through a consumer: the selected-key set would allocate per ready key
                int ready = selector.select(onWokenSelected, maxMillis);
                servedInWait = ready > 0;
            }
        } catch (IOException | RuntimeException e) {
            internalError(e);
        } finally {
            waiting = false;
            wakeRequested = false; // the duty cycle that follows sees the work of any wake until now
        }
    }

    boolean isWaiting() {
        return waiting;
    }

    /**
     * Ends the polling thread's wait under way, or the next one before it blocks: for another thread that handed it
     * work after publishing that work. Safe from any thread; a system call only while the thread waits. Never lost:
     * the waker writes {@link #wakeRequested} before it reads {@link #waiting}, the thread writes {@link #waiting}
     * before it reads {@link #wakeRequested} (both volatile), so at least one of them sees the other.
     */
    void wake() {
        wakeRequested = true;
        if (waiting) {
            selector.wakeup();
        }
    }

    /**
     * How long an idle wait may last: {@code busyMillis} while a timer of this agent runs, or always when the
     * network shares its poller's thread (the poller's timers are not known here); else {@link #QUIET_WAIT_MILLIS}.
     */
    long idleWaitMillis(long busyMillis) {
        if (options.sharedThread() || handshaking > 0 || awaitingConfirm > 0) {
            return busyMillis;
        }
        for (int i = 0; i < links.size(); i++) {
            if (links.get(i).hasTimers()) {
                return busyMillis;
            }
        }
        return Math.max(busyMillis, QUIET_WAIT_MILLIS);
    }

    /** Ends a wait under way and any later one at once: the fabric is closing. Safe from any thread. */
    void beginClose() {
        closing = true;
        selector.wakeup();
    }

    @Override
    public void onClose() {
        for (int i = 0; i < links.size(); i++) {
            links.get(i).shutdown();
        }
        for (int i = served.size() - 1; i >= 0; i--) {
            served.get(i).close("fabric closed");
        }
        try {
            server.close();
        } catch (IOException ignored) {
            // best effort
        }
        try {
            selector.close();
        } catch (IOException ignored) {
            // best effort
        }
    }

    // ---- what connections use -----------------------------------------------------------------------

    TcpOptions options() {
        return options;
    }

    int localNode() {
        return localNode;
    }

    TcpCounters counters() {
        return counters;
    }

    Selector selector() {
        return selector;
    }

    long now() {
        return now;
    }

    TcpRegion region(int regionId) {
        return regions.get().get(regionId);
    }

    /** Hands a finished operation to the user thread. */
    void complete(TcpOperation op, Status status) {
        op.status = status;
        if (!completions.offer(op)) {
            // Cannot happen: the queue holds maxOutstanding and no more operations exist.
            throw new IllegalStateException("completion queue full");
        }
    }

    /**
     * A served connection completed its HELLO as {@code connection.peer()}: it replaces any older
     * connection of that peer, whose unprocessed requests are dropped, so that requests sent after a
     * reconnection are never overtaken by requests of the connection it replaced.
     */
    void bound(ServedConnection connection) {
        handshaking--;
        ServedConnection older = servedByPeer.put(connection.peer(), connection);
        if (older != null && older != connection) {
            older.close("replaced by a new connection of the same peer");
        }
    }

    /** A served connection starts ({@code +1}) or stops ({@code -1}) holding lazy WRITEs to confirm. */
    void awaitsConfirm(int delta) {
        awaitingConfirm += delta;
    }

    /** A served connection closed. */
    void unbound(ServedConnection connection) {
        served.remove(connection);
        if (connection.isBound()) {
            servedByPeer.remove(connection.peer(), connection);
        } else {
            handshaking--;
        }
    }

    Throwable lastInternalError() {
        return lastInternalError;
    }

    void internalError(Throwable t) {
        lastInternalError = t;
        counters.increment(TcpCounters.Counter.INTERNAL_ERRORS);
    }

    // ---- duty-cycle steps ---------------------------------------------------------------------------

    private void onSubmission(TcpOperation op) {
        if (op.owner == localNode) {
            serveLocally(op);
            return;
        }
        PeerLink link = linkByPeer.get(op.owner);
        if (link == null) {
            link = new PeerLink(this, op.owner);
            linkByPeer.put(op.owner, link);
            links.add(link);
        }
        link.submit(op);
    }

    /** An operation on this node's own region: full access, done at once, in order with the others. */
    private void serveLocally(TcpOperation op) {
        TcpRegion region = region(op.regionId);
        if (!RegionAccess.allows(region, localNode, localNode, op.isWrite, op.offset, op.length)) {
            complete(op, Status.ACCESS_DENIED);
            return;
        }
        if (op.isWrite) {
            WordCopy.toRegion(op.payload, 0, region.buffer(), op.offset, op.length);
        } else {
            WordCopy.fromRegion(region.buffer(), op.offset, op.dst, op.dstIndex, op.length);
        }
        complete(op, Status.SUCCESS);
    }

    /** {@link #onSelected} after a wait: with the time read anew, since the wait may have been long. */
    private void onWokenSelected(SelectionKey key) {
        if (!servedInWait) {
            servedInWait = true;
            now = options.clock().nanoTime();
        }
        onSelected(key);
    }

    private void onSelected(SelectionKey key) {
        Object attachment = key.attachment();
        if (attachment == server) {
            accept();
            return;
        }
        Connection connection = (Connection) attachment;
        if (!key.isValid() || connection.key != key) {
            return;
        }
        try {
            connection.onReady(key);
        } catch (RuntimeException e) {
            internalError(e);
            connection.close("internal error: " + e);
        }
    }

    private void accept() {
        for (int i = 0; i < ACCEPTS_PER_CYCLE; i++) {
            SocketChannel socket;
            try {
                socket = server.accept();
            } catch (IOException e) {
                return;
            }
            if (socket == null) {
                return;
            }
            counters.increment(TcpCounters.Counter.CONNECTIONS_ACCEPTED);
            if (served.size() >= options.maxConnections()) {
                counters.increment(TcpCounters.Counter.CONNECTIONS_REJECTED);
                problem(ProblemLog.Kind.REJECTED, remoteName(socket), options.maxConnections() + " connections open");
                closeQuietly(socket);
                continue;
            }
            try {
                socket.configureBlocking(false);
                socket.setOption(StandardSocketOptions.TCP_NODELAY, true);
                SelectionKey key = socket.register(selector, SelectionKey.OP_READ);
                ServedConnection connection = new ServedConnection(this, socket, key, now);
                key.attach(connection);
                served.add(connection);
                handshaking++;
            } catch (IOException e) {
                counters.increment(TcpCounters.Counter.CONNECTIONS_CLOSED);
                closeQuietly(socket);
            }
        }
    }

    private static void closeQuietly(SocketChannel socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // best effort
        }
    }

    /** The outbound connection to {@code peer}, once ready, was lost. */
    void connectionLost(int peer) {
        int[] lost = lostPeers;
        for (int p : lost) {
            if (p == peer) {
                return;
            }
        }
        int[] more = java.util.Arrays.copyOf(lost, lost.length + 1);
        more[lost.length] = peer;
        lostPeers = more;
    }

    /** The outbound connection to {@code peer} is ready (again). */
    void connectionBack(int peer) {
        int[] lost = lostPeers;
        for (int i = 0; i < lost.length; i++) {
            if (lost[i] == peer) {
                int[] fewer = new int[lost.length - 1];
                System.arraycopy(lost, 0, fewer, 0, i);
                System.arraycopy(lost, i + 1, fewer, i, lost.length - i - 1);
                lostPeers = fewer;
                return;
            }
        }
    }

    /** Whether the outbound connection to {@code peer}, once ready, is lost and not back (any thread). */
    boolean isConnectionLost(int peer) {
        for (int p : lostPeers) {
            if (p == peer) {
                return true;
            }
        }
        return false;
    }

    /** Reports a connection problem (rate-limited, {@link ProblemLog}). */
    void problem(ProblemLog.Kind kind, String peer, String reason) {
        problems.report(kind, peer, reason, System.nanoTime());
    }

    /** The last connection problem reported, or null (any thread). */
    String lastProblem() {
        return problems.last();
    }

    /** The remote end of {@code socket}, for a log line. */
    static String remoteName(SocketChannel socket) {
        try {
            java.net.SocketAddress a = socket.getRemoteAddress();
            return a == null ? "an unknown peer" : a.toString();
        } catch (IOException | RuntimeException e) {
            return "an unknown peer";
        }
    }
}
