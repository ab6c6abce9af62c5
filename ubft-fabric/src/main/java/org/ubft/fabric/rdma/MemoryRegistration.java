package org.ubft.fabric.rdma;

import java.nio.ByteBuffer;

/**
 * Memory registered with a device's protection domain: its virtual address and length, the local key that the
 * registering process uses in its own work requests, the remote key a peer needs for one-sided access, and the
 * access flags the NIC checks every remote access against. One buffer may be registered several times with
 * different flags (a register region's read-only and read-write registrations).
 */
public final class MemoryRegistration {
    private final ByteBuffer buffer;
    private final long address;
    private final int length;
    private final int lkey;
    private final int rkey;
    private final int access;
    private final Object handle;

    /**
     * @param handle the binding's own object for it (DiSNI's {@code IbvMr}), for deregistration
     */
    public MemoryRegistration(ByteBuffer buffer, long address, int length, int lkey, int rkey, int access,
                              Object handle) {
        this.buffer = buffer;
        this.address = address;
        this.length = length;
        this.lkey = lkey;
        this.rkey = rkey;
        this.access = access;
        this.handle = handle;
    }

    public ByteBuffer buffer() {
        return buffer;
    }

    public long address() {
        return address;
    }

    public int length() {
        return length;
    }

    public int lkey() {
        return lkey;
    }

    public int rkey() {
        return rkey;
    }

    public int access() {
        return access;
    }

    public Object handle() {
        return handle;
    }

    @Override
    public String toString() {
        return "registration{address=0x" + Long.toHexString(address) + ", length=" + length + ", access="
            + Access.describe(access) + "}";
    }
}
