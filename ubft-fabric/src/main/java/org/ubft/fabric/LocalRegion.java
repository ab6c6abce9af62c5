package org.ubft.fabric;

import org.agrona.concurrent.AtomicBuffer;

/**
 * Memory this process exposes on the fabric. The owner reads and writes it directly through
 * {@link #buffer()}; peers reach it with one-sided operations as its {@link #permissions()} allow.
 * Remote WRITEs may land at any moment, so the owner must treat the contents as concurrently
 * modified: copy out, then validate (checksums), as the register and tail-channel layers do.
 */
public interface LocalRegion {
    int regionId();

    int length();

    /** The region's bytes, zeroed at registration. */
    AtomicBuffer buffer();

    Permissions permissions();
}
