package org.ubft.ctbcast.core;

import org.agrona.DirectBuffer;

/** Where a {@link SignaturePort} hands back its results. */
public interface SignatureListener {
    /** The signature asked for with {@code token}: 64 bytes at {@code offset}, valid during the call only. */
    void onSigned(long token, DirectBuffer signature, int offset);

    /** The outcome of the verification asked for with {@code token}. */
    void onVerified(long token, boolean valid);
}
