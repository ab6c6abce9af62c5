package org.ubft.sim;

import org.ubft.consensus.app.RequestContext;
import org.ubft.consensus.app.StateMachine;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.function.LongSupplier;

/**
 * The simulator's application: it counts the requests it executed and chains their bytes into a 64-bit hash, and
 * reports each execution ({@link SimEvents#executed}) with its position. Its snapshot is (count, chain), so a replica
 * restored by state transfer continues at the right position. Its reply is {@link Payloads#reply} (position and
 * request), the same at every correct replica.
 *
 * <p>With an inner application (the key-value workload: {@link org.ubft.apps.kv.KvStore}) it also executes the
 * request's {@link Payloads#body} on it and appends the inner reply to its own ({@link Payloads#replyBody}); its
 * snapshot is then (count, chain) followed by the inner snapshot.
 */
public final class RecordingApp implements StateMachine {
    /** Snapshots are 16 bytes; state transfer is sized by this. */
    public static final int MAX_SNAPSHOT_BYTES = 64;

    private final int replica;
    private final SimEvents events;
    private final LongSupplier clock;
    /** The wrapped application, or {@code null} (replies name the position only). */
    private final StateMachine inner;
    private long count;
    private long chain = 0xCBF29CE484222325L;

    public RecordingApp(int replica, SimEvents events, LongSupplier clock) {
        this(replica, events, clock, null);
    }

    /** @param inner the application that executes the requests' bodies, or {@code null} for none */
    public RecordingApp(int replica, SimEvents events, LongSupplier clock, StateMachine inner) {
        this.replica = replica;
        this.events = events;
        this.clock = clock;
        this.inner = inner;
    }

    /** Without a context (a wrapper of the slot's behaviour that calls this): no replicated time is reported. */
    @Override
    public byte[] execute(byte[] request) {
        return run(null, request);
    }

    /** Reports the replicated time too, and passes the context on to the inner application. */
    @Override
    public byte[] execute(RequestContext context, byte[] request) {
        events.replicatedTime(clock.getAsLong(), replica, count, context.timeMillis());
        return run(context, request);
    }

    private byte[] run(RequestContext context, byte[] request) {
        long position = count++;
        for (byte b : request) {
            chain = (chain ^ (b & 0xFF)) * 0x100000001B3L;
        }
        chain = (chain ^ request.length) * 0x100000001B3L;
        events.executed(clock.getAsLong(), replica, position, request);
        if (inner == null) {
            return Payloads.reply(position, Payloads.id(request));
        }
        return Payloads.reply(position, Payloads.id(request), context == null ? inner.execute(Payloads.body(request))
            : inner.execute(context, Payloads.body(request)));
    }

    @Override
    public byte[] snapshot() {
        byte[] own = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN).putLong(count).putLong(chain).array();
        if (inner == null) {
            return own;
        }
        byte[] in = inner.snapshot();
        byte[] both = new byte[16 + in.length];
        System.arraycopy(own, 0, both, 0, 16);
        System.arraycopy(in, 0, both, 16, in.length);
        return both;
    }

    @Override
    public void restore(byte[] snapshot) {
        if (inner == null ? snapshot.length != 16 : snapshot.length < 16) {
            throw new IllegalArgumentException("snapshot of " + snapshot.length + " bytes, expected 16"
                + (inner == null ? "" : " and the inner application's"));
        }
        ByteBuffer b = ByteBuffer.wrap(snapshot).order(ByteOrder.LITTLE_ENDIAN);
        long restoredCount = b.getLong();
        long restoredChain = b.getLong();
        if (inner != null) {
            inner.restore(java.util.Arrays.copyOfRange(snapshot, 16, snapshot.length));
        }
        count = restoredCount;
        chain = restoredChain;
        events.restored(clock.getAsLong(), replica, count);
    }

    @Override
    public int maxSnapshotBytes() {
        return inner == null ? MAX_SNAPSHOT_BYTES : 16 + inner.maxSnapshotBytes();
    }

    public long executed() {
        return count;
    }
}
