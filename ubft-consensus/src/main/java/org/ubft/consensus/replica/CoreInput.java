package org.ubft.consensus.replica;

import java.util.List;

/**
 * One input of {@link ReplicaCore#step}: everything that reaches a replica, as data. Byte arrays are read during the
 * step only (the core keeps no reference to them). Byzantine bytes are inputs like any other: the replica drops and
 * counts what does not check ({@link ReplicaCounters}), it never throws on them.
 */
public sealed interface CoreInput {
    /** Time passes: the replica's only clocks ({@code nowNanos} monotonic, {@code wallClockMillis} since the epoch). */
    record Tick(long nowNanos, long wallClockMillis) implements CoreInput {
    }

    /** A REQUEST from client {@code client}, authenticated by the link ({@link org.ubft.consensus.wire.ClientWire}). */
    record ClientRequest(int client, byte[] bytes) implements CoreInput {
    }

    /**
     * CTBcast delivered message {@code k} of broadcaster {@code from}, in FIFO order (this replica's own included: a
     * {@link CoreOutput.Ctbcast} comes back as this input).
     */
    record CtbcastDeliver(int from, long k, byte[] bytes) implements CoreInput {
    }

    /** FIFO delivery skipped {@code from}'s identifiers {@code fromK .. toK-1} (they left the tail unread). */
    record CtbcastGap(int from, long fromK, long toK) implements CoreInput {
    }

    /** TBcast delivered a message of {@code from} (this replica's own {@link CoreOutput.Tbcast} included). */
    record TbcastDeliver(int from, byte[] bytes) implements CoreInput {
    }

    /** A point-to-point message of replica {@code from} ({@link CoreOutput.Send} at its end). */
    record Direct(int from, byte[] bytes) implements CoreInput {
    }

    /** CTBcast proved {@code broadcaster} equivocated (two signed messages with one identifier, Algorithm 1 line 34). */
    record EquivocationProven(int broadcaster) implements CoreInput {
    }

    /** The connection to {@code peer}, once established, was lost ({@code lost}) or is back. */
    record ConnectionLost(int peer, boolean lost) implements CoreInput {
    }

    /** Something valid came from {@code peer} on the links (reported while its connection is lost). */
    record Heard(int peer) implements CoreInput {
    }

    /**
     * The state of checkpoint {@code seq}, fetched after a {@link CoreOutput.FetchState} (from peers' {@link
     * CoreOutput.OfferState}). The core takes it only if it is the checkpoint asked for last and matches its certified
     * digest; otherwise it is dropped and counted (a peer's bytes).
     */
    record StateFetched(long seq, byte[] state) implements CoreInput {
    }

    /**
     * After a restart, before any other input but {@link Tick}: what {@link CoreOutput.KeepCheckpoint} and
     * {@link CoreOutput.KeepBatch} kept ({@link Replica#recoverDecisions}). Throws {@link IllegalStateException} if
     * the kept checkpoint does not verify: that is the caller's own storage, not a peer's input.
     */
    record RecoverDecisions(long seq, byte[] digest, byte[] shares, byte[] state, List<byte[]> batches)
        implements CoreInput {
    }

    /**
     * After a restart, after {@link RecoverDecisions}: this replica's own CTBcast stream as its log kept it (the latest
     * {@link CoreOutput.SummaryFormed} and the {@link CoreOutput.Ctbcast} messages after it; {@link
     * Replica#recoverOwnStream}). The core's identifiers go on after the last logged message; the caller broadcasts
     * the logged messages again with their identifiers.
     */
    record RecoverOwnStream(long firstK, long summaryK, byte[] summary, List<byte[]> messages) implements CoreInput {
    }
}
