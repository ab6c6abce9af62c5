package org.ubft.consensus.replica;

/**
 * Ed25519 signatures as consensus uses them (slow path, checkpoints, view change, summaries, signed client requests).
 * Synchronous: the replica calls it on its own thread. Indices are replica and client indices of the cluster file.
 */
public interface ConsensusCrypto {
    int SIGNATURE_BYTES = 64;

    /** Signs {@code message[offset, offset + length)} with this replica's key into {@code signature[at, at + 64)}. */
    void sign(byte[] message, int offset, int length, byte[] signature, int at);

    /** Whether {@code signature[at, at + 64)} is replica {@code replica}'s signature of the message. */
    boolean verifyReplica(int replica, byte[] message, int offset, int length, byte[] signature, int at);

    /** Whether {@code signature[at, at + 64)} is client {@code client}'s signature of the message. */
    boolean verifyClient(int client, byte[] message, int offset, int length, byte[] signature, int at);

    /**
     * The next {@code count} {@link #verifyReplica} calls belong to one message (a certificate's shares): where
     * verifications are budgeted, take their whole cost now or none of it. Returns false when the budget cannot
     * cover them all; nothing was taken then. Always true by default.
     */
    default boolean reserve(int count) {
        return true;
    }
}
