package org.ubft.fabric;

/**
 * A local misuse or set-up failure of a fabric (region already registered, bad arguments, too many
 * outstanding operations, a directory or port that cannot be used). Never raised because of what a
 * peer did: peers' failures surface as {@link Status} in completions.
 */
public class FabricException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public FabricException(String message) {
        super(message);
    }

    public FabricException(String message, Throwable cause) {
        super(message, cause);
    }
}
