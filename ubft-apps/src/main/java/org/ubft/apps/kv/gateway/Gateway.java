package org.ubft.apps.kv.gateway;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A TCP server that speaks RESP2 or memcached's text protocol to any number of clients (up to
 * {@link GatewayOptions#maxConnections()}) and runs their commands on the replicated store through a
 * {@link KvBackend}. One thread: a selector loop that accepts, reads, parses, writes and runs the completions of the
 * service's replies; connections are spread over the backend's sessions round-robin. Every store command is ordered
 * by the cluster (linearizable); each connection has at most one batch in flight, so its commands run in the order
 * it sent them.
 */
public final class Gateway implements AutoCloseable {
    private final GatewayOptions options;
    private final KvBackend backend;
    private final Selector selector;
    private final ServerSocketChannel server;
    private final Thread thread;
    private final ConcurrentLinkedQueue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    private final List<Connection> connections = new ArrayList<>();
    private final SplittableRandom ids = new SplittableRandom(new SecureRandom().nextLong());
    private final AtomicLong accepted = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();
    private final AtomicLong idleClosed = new AtomicLong();
    private volatile int open;
    private volatile boolean running = true;
    private int nextSession;

    private Gateway(GatewayOptions options, KvBackend backend, InetSocketAddress listen) throws IOException {
        this.options = options;
        this.backend = backend;
        this.selector = Selector.open();
        this.server = ServerSocketChannel.open();
        try {
            server.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            server.bind(listen, 128);
            server.configureBlocking(false);
            server.register(selector, SelectionKey.OP_ACCEPT);
        } catch (IOException e) {
            server.close();
            selector.close();
            throw e;
        }
        this.thread = new Thread(this::loop, "ubft-gateway-" + options.protocol().name().toLowerCase());
        thread.setDaemon(true);
    }

    /**
     * Listens on {@code listen} (port 0: any free port) and starts the gateway's thread.
     *
     * @throws UncheckedIOException naming the address if it cannot listen there
     */
    public static Gateway start(GatewayOptions options, KvBackend backend, InetSocketAddress listen) {
        try {
            Gateway g = new Gateway(options, backend, listen);
            g.thread.start();
            return g;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot listen on " + listen.getHostString() + ":" + listen.getPort() + " ("
                + e.getMessage() + "): pick another --listen address or free that port", e);
        }
    }

    /** The address it listens on (with the port chosen when it was given 0). */
    public InetSocketAddress address() {
        try {
            return (InetSocketAddress) server.getLocalAddress();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public GatewayOptions options() {
        return options;
    }

    KvBackend backend() {
        return backend;
    }

    /** Connections open now. */
    public int openConnections() {
        return open;
    }

    /** Connections accepted, refused (over the limit) and closed for idling since the start. */
    public String countersLine() {
        return "gateway counters: accepted=" + accepted.get() + " refused=" + refused.get() + " idle_closed="
            + idleClosed.get() + " open=" + open;
    }

    public long refused() {
        return refused.get();
    }

    public long idleClosed() {
        return idleClosed.get();
    }

    /** Runs {@code task} on the gateway's thread. */
    void post(Runnable task) {
        tasks.add(task);
        selector.wakeup();
    }

    long nextTransferId() {
        return ids.nextLong();
    }

    void closed(Connection c) {
        connections.remove(c);
        open = connections.size();
    }

    private void loop() {
        long idleNanos = options.idleTimeout().toNanos();
        long checkEvery = Math.max(10_000_000L, Math.min(1_000_000_000L, idleNanos / 4));
        long nextCheck = System.nanoTime() + checkEvery;
        while (running) {
            try {
                selector.select(Math.max(1, checkEvery / 1_000_000));
            } catch (IOException e) {
                break;
            }
            for (Runnable r; (r = tasks.poll()) != null; ) {
                r.run();
            }
            Iterator<SelectionKey> it = selector.selectedKeys().iterator();
            while (it.hasNext()) {
                SelectionKey k = it.next();
                it.remove();
                if (!k.isValid()) {
                    continue;
                }
                if (k.isAcceptable()) {
                    accept();
                    continue;
                }
                Connection c = (Connection) k.attachment();
                if (k.isValid() && k.isReadable()) {
                    c.onReadable();
                }
                if (k.isValid() && k.isWritable() && !c.closed()) {
                    c.onWritable();
                }
            }
            long now = System.nanoTime();
            if (now - nextCheck >= 0) {
                nextCheck = now + checkEvery;
                for (Connection c : new ArrayList<>(connections)) {
                    if (c.idle(now, idleNanos)) {
                        idleClosed.incrementAndGet();
                        c.close();
                    }
                }
            }
        }
        for (Connection c : new ArrayList<>(connections)) {
            c.close();
        }
        try {
            server.close();
            selector.close();
        } catch (IOException ignored) {
            // stopping
        }
    }

    private void accept() {
        while (true) {
            SocketChannel ch;
            try {
                ch = server.accept();
            } catch (IOException e) {
                return;
            }
            if (ch == null) {
                return;
            }
            try {
                ch.configureBlocking(false);
                ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
                if (connections.size() >= options.maxConnections()) {
                    refused.incrementAndGet();
                    String msg = options.protocol() == GatewayOptions.Protocol.REDIS
                        ? "-ERR max number of clients reached\r\n"
                        : "SERVER_ERROR too many open connections\r\n";
                    ch.write(ByteBuffer.wrap(msg.getBytes(StandardCharsets.US_ASCII)));
                    ch.close();
                    continue;
                }
                SelectionKey key = ch.register(selector, SelectionKey.OP_READ);
                Connection c = new Connection(this, ch, key, nextSession, options);
                nextSession = (nextSession + 1) % backend.sessions();
                key.attach(c);
                connections.add(c);
                open = connections.size();
                accepted.incrementAndGet();
            } catch (IOException e) {
                try {
                    ch.close();
                } catch (IOException ignored) {
                    // gone
                }
            }
        }
    }

    /** Stops accepting, closes every connection and stops the thread (the backend stays open: its owner closes it). */
    @Override
    public void close() {
        running = false;
        selector.wakeup();
        try {
            thread.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
