package org.ubft.sim;

import org.ubft.consensus.app.StateMachine;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.function.LongSupplier;

/**
 * The simulator's application: it counts the requests it executed and chains their bytes into a 64-bit hash, and
 * reports each execution ({@link SimEvents#executed}) with its position. Its snapshot is (count, chain), so a replica
 * restored by state transfer continues at the right position. Its reply is {@link Payloads#reply} (position and
 * request), the same at every correct replica.
 */
public final class RecordingApp implements StateMachine {
    /** Snapshots are 16 bytes; state transfer is sized by this. */
    public static final int MAX_SNAPSHOT_BYTES = 64;

    private final int replica;
    private final SimEvents events;
    private final LongSupplier clock;
    private long count;
    private long chain = 0xCBF29CE484222325L;

    public RecordingApp(int replica, SimEvents events, LongSupplier clock) {
        this.replica = replica;
        this.events = events;
        this.clock = clock;
    }

    @Override
    public byte[] execute(byte[] request) {
        long position = count++;
        for (byte b : request) {
            chain = (chain ^ (b & 0xFF)) * 0x100000001B3L;
        }
        chain = (chain ^ request.length) * 0x100000001B3L;
        events.executed(clock.getAsLong(), replica, position, request);
        return Payloads.reply(position, Payloads.id(request));
    }

    @Override
    public byte[] snapshot() {
        return ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN).putLong(count).putLong(chain).array();
    }

    @Override
    public void restore(byte[] snapshot) {
        if (snapshot.length != 16) {
            throw new IllegalArgumentException("snapshot of " + snapshot.length + " bytes, expected 16");
        }
        ByteBuffer b = ByteBuffer.wrap(snapshot).order(ByteOrder.LITTLE_ENDIAN);
        count = b.getLong();
        chain = b.getLong();
        events.restored(clock.getAsLong(), replica, count);
    }

    @Override
    public int maxSnapshotBytes() {
        return MAX_SNAPSHOT_BYTES;
    }

    public long executed() {
        return count;
    }
}
