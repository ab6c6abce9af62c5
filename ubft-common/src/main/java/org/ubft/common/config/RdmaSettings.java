package org.ubft.common.config;

/**
 * The rdma fabric's keys of a cluster file.
 *
 * @param device       {@code fabric.rdma.device}: the device the endpoints' addresses must be on, or "auto"
 * @param port         {@code fabric.rdma.port}: the port they must be on, 0 = any
 * @param gidIndex     {@code fabric.rdma.gid.index}: the GID index they must have, -1 = any
 * @param stagingBytes {@code fabric.rdma.staging.bytes}: registered memory for the bytes of operations in flight
 */
public record RdmaSettings(String device, int port, int gidIndex, int stagingBytes) {
    /** The value of {@code fabric.rdma.device} that accepts any device. */
    public static final String ANY_DEVICE = "auto";
}
