package org.ubft.apps.kv.gateway;

import org.ubft.apps.kv.machine.KvWire;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * One client connection of a {@link Gateway}, owned by the gateway's selector thread. It reads bytes into a bounded
 * buffer, parses them into commands (at most the pipeline bound waiting), sends runs of store commands as one batch at
 * a time (so a connection's commands run in order), and writes the replies in order. It stops reading while its
 * pipeline, its buffer or its unsent replies are at their bounds, so a client that sends without reading is slowed,
 * not buffered without end.
 */
final class Connection {
    private final Gateway gateway;
    private final SocketChannel channel;
    private final SelectionKey key;
    private final int session;
    private final Parser parser;
    private final GatewayOptions options;
    private final int maxInput;
    private byte[] in = new byte[16 * 1024];
    private int inStart;
    private int inEnd;
    private int needed = 1;
    private final ArrayDeque<Command> pending = new ArrayDeque<>();
    private final ArrayDeque<ByteBuffer> out = new ArrayDeque<>();
    private long outBytes;
    private boolean inFlight;
    private boolean stopParsing;
    private boolean closeAfterFlush;
    private boolean closed;
    long lastActiveNanos;

    Connection(Gateway gateway, SocketChannel channel, SelectionKey key, int session, GatewayOptions options) {
        this.gateway = gateway;
        this.channel = channel;
        this.key = key;
        this.session = session;
        this.options = options;
        this.parser = options.newParser();
        this.maxInput = Math.max(options.maxCommandBytes(), options.maxLineBytes()) + 16 * 1024;
        this.lastActiveNanos = System.nanoTime();
    }

    boolean idle(long now, long idleNanos) {
        return !inFlight && now - lastActiveNanos > idleNanos;
    }

    boolean closed() {
        return closed;
    }

    void onReadable() {
        if (inEnd == in.length) {
            makeRoom();
        }
        int n;
        try {
            n = channel.read(ByteBuffer.wrap(in, inEnd, in.length - inEnd));
        } catch (IOException e) {
            close();
            return;
        }
        if (n < 0) {
            // the client is done sending: answer what it sent, then close
            closeAfterFlush = true;
            parse();
            pump();
            if (!closed && pending.isEmpty() && !inFlight && out.isEmpty()) {
                close();
            }
            return;
        }
        if (n > 0) {
            inEnd += n;
            lastActiveNanos = System.nanoTime();
        }
        parse();
        pump();
    }

    void onWritable() {
        flush();
        update();
    }

    /** Moves the unparsed bytes to the front, growing the buffer (up to its bound) when a command needs more. */
    private void makeRoom() {
        int have = inEnd - inStart;
        int want = Math.max(have + 4096, needed);
        if (want > in.length && in.length < maxInput) {
            byte[] bigger = new byte[Math.min(maxInput, Math.max(want, in.length * 2))];
            System.arraycopy(in, inStart, bigger, 0, have);
            in = bigger;
        } else {
            System.arraycopy(in, inStart, in, 0, have);
        }
        inStart = 0;
        inEnd = have;
    }

    private void parse() {
        while (!stopParsing && pending.size() < options.maxPipeline() && inEnd - inStart >= needed) {
            Command c = parser.parse(in, inStart, inEnd);
            inStart += parser.consumed();
            if (c == null) {
                if (parser.consumed() == 0) {
                    needed = parser.needed();
                    break;
                }
                needed = 1;
                continue;
            }
            needed = 1;
            pending.add(c);
            if (c.close) {
                stopParsing = true;
            }
        }
        if (inStart == inEnd) {
            inStart = 0;
            inEnd = 0;
        } else if (needed > in.length - inStart || inEnd == in.length) {
            makeRoom();
        }
    }

    /** Answers local commands and starts the next batch, in order, while nothing is in flight. */
    private void pump() {
        while (!closed && !inFlight && !pending.isEmpty() && outBytes < options.maxOutputBytes()) {
            Command head = pending.peek();
            if (head.isLocal()) {
                pending.poll();
                enqueue(head.localReply);
                if (head.close) {
                    closeAfterFlush = true;
                    pending.clear();
                }
                continue;
            }
            List<Command> batch = new ArrayList<>();
            int bytes = KvWire.BATCH_HEADER;
            int max = gateway.backend().maxRequestBytes();
            for (Command c : pending) {
                if (c.isLocal() || batch.size() == KvWire.MAX_BATCH_COMMANDS
                    || (!batch.isEmpty() && bytes + c.wireBytes() > max)) {
                    break;
                }
                batch.add(c);
                bytes += c.wireBytes();
            }
            inFlight = true;
            byte protocol = options.protocol() == GatewayOptions.Protocol.REDIS ? KvWire.REDIS : KvWire.MEMCACHED;
            Exchange.run(gateway.backend(), session, protocol, batch, gateway.nextTransferId())
                .whenComplete((o, e) -> gateway.post(() -> onOutcome(batch, o != null ? o
                    : new Exchange.Outcome(0, null, "internal error: " + e, true))));
        }
        if (!closed) {
            flush();
            update();
        }
    }

    private void onOutcome(List<Command> batch, Exchange.Outcome o) {
        inFlight = false;
        if (closed) {
            return;
        }
        lastActiveNanos = System.nanoTime();
        if (o.error() != null || o.executed() < 1 || o.executed() > batch.size()) {
            String why = o.error() != null ? o.error() : "the cluster ran " + o.executed() + " of " + batch.size()
                + " commands";
            byte[] reply = options.errorReply(why.replace('\r', ' ').replace('\n', ' ')).getBytes(
                java.nio.charset.StandardCharsets.ISO_8859_1);
            for (int i = 0; i < batch.size(); i++) {
                pending.poll();
                enqueue(reply);
            }
            if (o.unknownOutcome()) {
                closeAfterFlush = true; // what ran is unknown: the client must not take later replies for these
                stopParsing = true;
                pending.clear();
            }
        } else {
            enqueue(o.replies());
            for (int i = 0; i < o.executed(); i++) {
                pending.poll();
            }
        }
        parse();
        pump();
    }

    private void enqueue(byte[] reply) {
        if (reply.length > 0) {
            out.add(ByteBuffer.wrap(reply));
            outBytes += reply.length;
        }
    }

    private void flush() {
        try {
            while (!out.isEmpty()) {
                ByteBuffer b = out.peek();
                int n = channel.write(b);
                outBytes -= n;
                if (n > 0) {
                    lastActiveNanos = System.nanoTime();
                }
                if (b.hasRemaining()) {
                    break;
                }
                out.poll();
            }
        } catch (IOException e) {
            close();
            return;
        }
        if (out.isEmpty() && closeAfterFlush && !inFlight && pending.isEmpty()) {
            close();
        }
    }

    private void update() {
        if (closed || !key.isValid()) {
            return;
        }
        int ops = 0;
        boolean room = inEnd - inStart < maxInput;
        if (!closeAfterFlush && !stopParsing && room && pending.size() < options.maxPipeline()
            && outBytes < options.maxOutputBytes()) {
            ops |= SelectionKey.OP_READ;
        }
        if (!out.isEmpty()) {
            ops |= SelectionKey.OP_WRITE;
        }
        key.interestOps(ops);
    }

    void close() {
        if (closed) {
            return;
        }
        closed = true;
        key.cancel();
        try {
            channel.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        gateway.closed(this);
        in = new byte[0];
        inStart = 0;
        inEnd = 0;
        pending.clear();
        out.clear();
    }
}
