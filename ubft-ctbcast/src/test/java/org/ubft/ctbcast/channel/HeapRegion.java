package org.ubft.ctbcast.channel;

import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.fabric.BasicLocalRegion;
import org.ubft.fabric.Permissions;

/** A local region on the heap, exactly {@code length} bytes long (bounds-checked), for sans-IO receiver tests. */
final class HeapRegion extends BasicLocalRegion {
    HeapRegion(int length) {
        this(new UnsafeBuffer(new byte[length]));
    }

    HeapRegion(UnsafeBuffer buffer) {
        super(1, buffer, Permissions.none());
    }
}
