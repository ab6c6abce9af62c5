package org.ubft.ctbcast.channel;

import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.fabric.LocalRegion;
import org.ubft.fabric.Permissions;

/** A local region on the heap, exactly {@code length} bytes long (bounds-checked), for sans-IO receiver tests. */
final class HeapRegion implements LocalRegion {
    private final UnsafeBuffer buffer;

    HeapRegion(int length) {
        this(new UnsafeBuffer(new byte[length]));
    }

    HeapRegion(UnsafeBuffer buffer) {
        this.buffer = buffer;
    }

    @Override
    public int regionId() {
        return 1;
    }

    @Override
    public int length() {
        return buffer.capacity();
    }

    @Override
    public AtomicBuffer buffer() {
        return buffer;
    }

    @Override
    public Permissions permissions() {
        return Permissions.none();
    }
}
