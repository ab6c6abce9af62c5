package org.ubft.consensus.replica;

import org.agrona.concurrent.NanoClock;

/**
 * The replica's {@link ConsensusCrypto} with every verification charged to the sender of the message being handled
 * ({@link #charge}), within its {@link VerificationBudget}. A refused verification reads as a failed one; the replica
 * tells the two apart with {@link #refusedLast()} and counts it as {@link ReplicaCounters.Drop#OVER_BUDGET}.
 * Signatures this replica makes are not charged (its own protocol work), except where the replica asks
 * ({@link #takeFor}).
 */
final class ChargedCrypto implements ConsensusCrypto {
    private final ConsensusCrypto crypto;
    private final VerificationBudget budget;
    private final NanoClock clock;
    private final int n;
    private int source = -1;
    private boolean refusable = true;
    private boolean refusedLast;

    ChargedCrypto(ConsensusCrypto crypto, VerificationBudget budget, NanoClock clock, int n) {
        this.crypto = crypto;
        this.budget = budget;
        this.clock = clock;
        this.n = n;
    }

    /** Verifications from now on are charged to replica {@code replica} (-1: to nobody). */
    void charge(int replica) {
        source = replica;
        refusable = true;
        refusedLast = false;
    }

    /**
     * Verifications from now on are charged to replica {@code replica} and never refused: for the messages of its
     * CTBcast stream, which every correct receiver must judge alike (the replica's processCtbcast).
     */
    void chargeStream(int replica) {
        source = replica;
        refusable = false;
        refusedLast = false;
    }

    /** Verifications from now on are charged to client {@code client}. */
    void chargeClient(int client) {
        source = n + client;
        refusable = true;
        refusedLast = false;
    }

    /** Takes a token of replica {@code replica} for work done on its behalf (a signature it asked for). */
    boolean takeFor(int replica) {
        refusedLast = !budget.take(replica, clock.nanoTime());
        return !refusedLast;
    }

    /** Whether the last verification (or {@link #takeFor}) was refused for want of tokens, not failed. */
    boolean refusedLast() {
        return refusedLast;
    }

    @Override
    public void sign(byte[] message, int offset, int length, byte[] signature, int at) {
        crypto.sign(message, offset, length, signature, at);
    }

    @Override
    public boolean verifyReplica(int replica, byte[] message, int offset, int length, byte[] signature, int at) {
        refusedLast = !budget.take(source, clock.nanoTime()) && refusable;
        return !refusedLast && crypto.verifyReplica(replica, message, offset, length, signature, at);
    }

    @Override
    public boolean verifyClient(int client, byte[] message, int offset, int length, byte[] signature, int at) {
        refusedLast = !budget.take(source, clock.nanoTime()) && refusable;
        return !refusedLast && crypto.verifyClient(client, message, offset, length, signature, at);
    }
}
