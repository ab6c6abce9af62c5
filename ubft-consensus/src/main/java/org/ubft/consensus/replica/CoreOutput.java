package org.ubft.consensus.replica;

/**
 * One output of {@link ReplicaCore#step}, in the order the replica produced it. The caller applies them in order:
 * a {@link KeepBatch} or {@link KeepCheckpoint} is stored before any output after it leaves (a slot's batch is kept
 * before its replies, docs/design.md §13). Byte arrays are the caller's.
 */
public sealed interface CoreOutput {
    /**
     * CTBcast-broadcast {@code bytes} as this replica's message {@code k} (identifiers 1, 2, ... in order, or after the
     * recovered stream); every replica, this one included, gets it as {@link CoreInput.CtbcastDeliver}.
     */
    record Ctbcast(long k, byte[] bytes) implements CoreOutput {
    }

    /** Every replica delivered this replica's messages up to {@code k}: CTBcast need not sign them. */
    record AllDelivered(long k) implements CoreOutput {
    }

    /** Whether CTBcast should sign each message at once (a peer is absent) or only after its slow-path timeout. */
    record SignEagerly(boolean on) implements CoreOutput {
    }

    /** This replica's SUMMARY at {@code k} formed (Algorithm 4, line 8): keep it with the messages after it. */
    record SummaryFormed(long k, byte[] bytes) implements CoreOutput {
    }

    /** This replica applied {@code broadcaster}'s SUMMARY at {@code k}: FIFO delivery need not wait for what it covers. */
    record SummaryApplied(int broadcaster, long k) implements CoreOutput {
    }

    /** TBcast-broadcast {@code bytes}; every replica, this one included, gets it as {@link CoreInput.TbcastDeliver}. */
    record Tbcast(byte[] bytes) implements CoreOutput {
    }

    /** Send {@code bytes} to replica {@code to} only (best effort): {@link CoreInput.Direct} there. */
    record Send(int to, byte[] bytes) implements CoreOutput {
    }

    /** Send a {@link org.ubft.consensus.wire.ClientWire} REPLY to client {@code client}. */
    record Reply(int client, byte[] bytes) implements CoreOutput {
    }

    /** Keep slot {@code slot}'s decided batch (it executes now; its replies follow this output). */
    record KeepBatch(long slot, byte[] batch) implements CoreOutput {
    }

    /** Checkpoint {@code seq} is stable: keep its state and certificate in place of the one kept before. */
    record KeepCheckpoint(long seq, byte[] digest, byte[] shares, byte[] state) implements CoreOutput {
    }

    /** State transfer may serve checkpoint {@code seq}'s state to peers from now on. */
    record OfferState(long seq, byte[] state) implements CoreOutput {
    }

    /**
     * This replica is behind checkpoint {@code seq}: fetch its state (digest {@code digest}; replica {@code source}
     * holds it, -1 if unknown) and hand it in as {@link CoreInput.StateFetched}.
     */
    record FetchState(long seq, byte[] digest, int source) implements CoreOutput {
    }

    /** A state-transfer message of replica {@code from} arrived as {@link CoreInput.Direct}: the caller's transfer's. */
    record TransferMessage(int from, byte[] bytes) implements CoreOutput {
    }
}
