package org.ubft.consensus.client;

/** A request of a {@link UbftClient} failed: no reply quorum in time, the client was closed, or it is overloaded. */
public class UbftClientException extends RuntimeException {
    public UbftClientException(String message) {
        super(message);
    }

    public UbftClientException(String message, Throwable cause) {
        super(message, cause);
    }
}
