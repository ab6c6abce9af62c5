package org.ubft.ctbcast.core;

import org.agrona.DirectBuffer;

/**
 * Port to the signature service (docs/design.md §3: a crypto worker pool with bounded queues). Requests carry an
 * opaque token; results come back, later and on the core's thread, as {@link SignatureListener#onSigned} and
 * {@link SignatureListener#onVerified} with that token (a synchronous implementation may call back from inside
 * the request; the core allows it). Data and signature bytes are copied before a request returns.
 */
public interface SignaturePort {
    /**
     * Asks for this replica's signature over {@code length} bytes of {@code data}.
     *
     * @return false if the service cannot take the request now (queue full); the core asks again later
     */
    boolean requestSign(long token, DirectBuffer data, int offset, int length);

    /**
     * Asks whether the {@link SignedStatement#SIGNATURE_BYTES}-byte signature at {@code sigOffset} of
     * {@code signature} is replica {@code signer}'s over {@code length} bytes of {@code data}.
     *
     * @return false if the service cannot take the request now; the core asks again later
     */
    boolean requestVerify(long token, int signer, DirectBuffer data, int offset, int length, DirectBuffer signature,
                          int sigOffset);
}
