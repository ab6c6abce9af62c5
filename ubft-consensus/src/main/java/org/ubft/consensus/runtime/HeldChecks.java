package org.ubft.consensus.runtime;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One peer's checks that its worker could not take, waiting to be done on the agent thread ({@link Preverifier}): a
 * ring of {@code entries} messages of up to {@code messageBytes}, each with the check its first pass left (signer,
 * statement, signature). Memory is fixed at construction; single-threaded.
 */
final class HeldChecks {
    private final int entries;
    private final int messageBytes;
    private final int statementBytes;
    private final UnsafeBuffer messages;
    private final int[] lengths;
    private final boolean[] direct;
    private final int[] signers;
    private final int[] statementLengths;
    private final byte[] statements;
    private final byte[] signatures;
    private int head;
    private int count;
    private int takenLength;
    private boolean takenDirect;
    private int takenSigner;
    private int takenStatementLength;

    HeldChecks(int entries, int messageBytes, int statementBytes) {
        this.entries = entries;
        this.messageBytes = messageBytes;
        this.statementBytes = statementBytes;
        this.messages = new UnsafeBuffer(new byte[entries * messageBytes]);
        this.lengths = new int[entries];
        this.direct = new boolean[entries];
        this.signers = new int[entries];
        this.statementLengths = new int[entries];
        this.statements = new byte[entries * statementBytes];
        this.signatures = new byte[entries * 64];
    }

    /** Holds the message and its check; false (nothing held) if the message is too long or the ring full. */
    boolean offer(boolean isDirect, DirectBuffer buffer, int offset, int length, int signer, byte[] st, int stLength,
                  byte[] sig) {
        if (length > messageBytes || count == entries) {
            return false;
        }
        int e = (head + count) % entries;
        count++;
        messages.putBytes(e * messageBytes, buffer, offset, length);
        lengths[e] = length;
        direct[e] = isDirect;
        signers[e] = signer;
        statementLengths[e] = stLength;
        System.arraycopy(st, 0, statements, e * statementBytes, stLength);
        System.arraycopy(sig, 0, signatures, e * 64, 64);
        return true;
    }

    /** Checks held now. */
    int count() {
        return count;
    }

    /**
     * Takes the oldest held check out: its message into {@code message}, its statement into {@code st}, its signature
     * into {@code sig}; the rest through {@link #takenLength()} and the other getters. Only while {@link #count()} &gt; 0.
     */
    void takeOldest(UnsafeBuffer message, byte[] st, byte[] sig) {
        int e = head;
        head = (e + 1) % entries;
        count--;
        takenLength = lengths[e];
        takenDirect = direct[e];
        takenSigner = signers[e];
        takenStatementLength = statementLengths[e];
        message.putBytes(0, messages, e * messageBytes, takenLength);
        System.arraycopy(statements, e * statementBytes, st, 0, takenStatementLength);
        System.arraycopy(signatures, e * 64, sig, 0, 64);
    }

    int takenLength() {
        return takenLength;
    }

    boolean takenDirect() {
        return takenDirect;
    }

    int takenSigner() {
        return takenSigner;
    }

    int takenStatementLength() {
        return takenStatementLength;
    }
}
