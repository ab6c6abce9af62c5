package org.ubft.fabric.rdma;

import org.ubft.fabric.FabricException;

/**
 * The rdma fabric cannot start on this host: DiSNI's native library, an RDMA device, or the device, port or GID the
 * cluster file names is missing. The message names each missing piece and the fix.
 */
public final class RdmaUnavailableException extends FabricException {
    private static final long serialVersionUID = 1L;

    public RdmaUnavailableException(String message) {
        super(message);
    }

    public RdmaUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
