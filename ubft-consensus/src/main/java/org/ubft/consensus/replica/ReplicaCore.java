package org.ubft.consensus.replica;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.consensus.app.StateMachine;

import java.util.ArrayList;
import java.util.List;

/**
 * The replica as one pure state machine, in the style of etcd's raft: {@link #step} takes one {@link CoreInput} and
 * returns the {@link CoreOutput}s it caused, in order; the caller owns the network (CTBcast, TBcast, links), storage
 * and time. Time passes only through {@link CoreInput.Tick}: between ticks every handler sees the last tick's clocks,
 * so a run is a function of its inputs (two cores fed the same inputs produce the same outputs, byte for byte).
 *
 * <p>What the caller provides: CTBcast with this replica's identifiers ({@link CoreOutput.Ctbcast#k}) delivered to
 * every replica in FIFO order, a gap reported where a receiver fell behind the tail (Algorithm 1, paper §4.2); TBcast
 * and authenticated point-to-point links (§4.1); ticks often enough for the timers (every 50 µs of {@code nowNanos}
 * they run: request and view-change timeouts, the slow path's, summaries, fetching, Algorithm 2 lines 33-41 and
 * Algorithm 3); storage for {@link CoreOutput.KeepBatch} and {@link CoreOutput.KeepCheckpoint} if the replica is
 * to come back with its state after its process ends (docs/design.md §13); state transfer for
 * {@link CoreOutput.FetchState}, or none (a replica behind a checkpoint then stays behind).
 *
 * <p>The core is the sans-IO {@link Replica} with its typed entry points turned into data. The runtime
 * ({@code ReplicaNode}, which the simulator drives too) calls those entry points directly: a step allocates its input,
 * its outputs and their bytes, and the runtime's path allocates nothing per message (docs/design.md §8). Signatures
 * are checked on the caller's thread, within the replica's verification budget. Not thread-safe: one caller.
 */
public final class ReplicaCore {
    private final Replica replica;
    private final Clocks clocks;
    private final Outputs outputs = new Outputs();
    private final UnsafeBuffer input = new UnsafeBuffer(new byte[0]);
    private long nextK = 1;
    /** The checkpoint whose state the replica asked for last ({@link CoreOutput.FetchState}), and its digest. */
    private long fetchSeq = -1;
    private byte[] fetchDigest;
    private final org.ubft.common.crypto.Fingerprints fingerprints = new org.ubft.common.crypto.Fingerprints();
    private final byte[] digest = new byte[org.ubft.common.crypto.Fingerprints.FINGERPRINT_BYTES];
    /** What the replica produced as it started: the first step's outputs begin with them. */
    private List<CoreOutput> starting;

    /**
     * A replica {@code self} of {@code config}, empty, its clocks at {@code start}. {@code consensus.time.bound.ms}
     * (how far ahead of a follower's clock a batch's replicated time may be) is {@code timeBoundMillis}.
     */
    public ReplicaCore(ReplicaConfig config, int self, StateMachine app, ConsensusCrypto crypto, CoreInput.Tick start,
                       long timeBoundMillis) {
        this.clocks = new Clocks(start.nowNanos(), start.wallClockMillis());
        outputs.list = new ArrayList<>(4); // what the replica does when it starts (it offers its initial state)
        this.replica = new Replica(config, self, app, crypto, outputs, clocks);
        replica.replicatedTime(clocks::wallClockMillis, timeBoundMillis);
        replica.keepDecisionsIn(outputs);
        replica.stateTransfer(outputs);
        starting = outputs.list;
        outputs.list = null;
    }

    /** A replica with {@code consensus.time.bound.ms} at its default, 1,000 ms. */
    public ReplicaCore(ReplicaConfig config, int self, StateMachine app, ConsensusCrypto crypto, CoreInput.Tick start) {
        this(config, self, app, crypto, start, 1_000);
    }

    /**
     * Takes one input; returns what it caused, in order (empty if nothing; the first step's begin with what the
     * replica did as it started). The list is the caller's.
     *
     * @throws IllegalArgumentException if a {@link CoreInput.Tick} goes back in time (the caller's clock, not a peer's)
     * @throws IllegalStateException    if a recovery input's kept state does not verify (the caller's storage)
     */
    public List<CoreOutput> step(CoreInput in) {
        List<CoreOutput> out = starting != null ? starting : new ArrayList<>(4);
        starting = null;
        outputs.list = out;
        try {
            dispatch(in);
            replica.flushBroadcasts(); // a step's COMMITs go out with it (several in one COMMITS message)
        } finally {
            outputs.list = null;
        }
        return out;
    }

    private void dispatch(CoreInput in) {
        if (in instanceof CoreInput.Tick t) {
            clocks.advance(t.nowNanos(), t.wallClockMillis());
            replica.doWork();
        } else if (in instanceof CoreInput.ClientRequest r) {
            replica.onClientRequest(r.client(), wrap(r.bytes()), 0, r.bytes().length);
        } else if (in instanceof CoreInput.CtbcastDeliver d) {
            replica.onCtbcastDeliver(d.from(), d.k(), wrap(d.bytes()), 0, d.bytes().length);
        } else if (in instanceof CoreInput.CtbcastGap g) {
            replica.onCtbcastGap(g.from(), g.fromK(), g.toK());
        } else if (in instanceof CoreInput.TbcastDeliver d) {
            replica.onTbcastDeliver(d.from(), wrap(d.bytes()), 0, d.bytes().length);
        } else if (in instanceof CoreInput.Direct d) {
            replica.onDirect(d.from(), wrap(d.bytes()), 0, d.bytes().length);
        } else if (in instanceof CoreInput.EquivocationProven e) {
            replica.onEquivocationProven(e.broadcaster());
        } else if (in instanceof CoreInput.ConnectionLost c) {
            replica.onConnectionLost(c.peer(), c.lost());
        } else if (in instanceof CoreInput.Heard h) {
            replica.onHeard(h.peer());
        } else if (in instanceof CoreInput.StateFetched s) {
            if (fetchedStateMatches(s.seq(), s.state())) {
                replica.onStateFetched(s.seq(), s.state());
            } else {
                replica.counters().drop(ReplicaCounters.Drop.MALFORMED); // not the certified state: a peer's bytes
            }
        } else if (in instanceof CoreInput.RecoverDecisions r) {
            replica.recoverDecisions(r.seq(), r.digest(), r.shares(), r.state(), r.batches());
        } else if (in instanceof CoreInput.RecoverOwnStream r) {
            nextK = (r.summary() != null ? r.summaryK() : r.firstK() - 1) + r.messages().size() + 1;
            replica.recoverOwnStream(r.firstK(), r.summaryK(), r.summary(), r.messages());
        } else {
            throw new IllegalArgumentException("unknown input " + in); // sealed: unreachable
        }
    }

    /** What the replica stands at, for observers (a snapshot; allocates). */
    public Status status() {
        return new Status(replica.self(), replica.view(), replica.leader(), replica.changingView(),
            replica.executedUpTo(), replica.checkpointSeq(), replica.fetching());
    }

    /** The replica's counters (drops by reason, decisions by path, view changes; docs/design.md §11). */
    public ReplicaCounters counters() {
        return replica.counters();
    }

    /**
     * Where a replica stands.
     *
     * @param executedUpTo  slots below it are executed
     * @param checkpointSeq the stable checkpoint's sequence number
     * @param fetching      behind a checkpoint, fetching its state
     */
    public record Status(int self, long view, int leader, boolean changingView, long executedUpTo, long checkpointSeq,
                         boolean fetching) {
    }

    /**
     * Whether {@code state} is the state of the checkpoint this replica asked for ({@link CoreOutput.FetchState}): its
     * sequence number and the digest f+1 replicas certified (Algorithm 2, line 60). The runtime's state transfer checks
     * the same before it hands a state in; here the caller's transfer brings peers' bytes, so the core checks them.
     */
    private boolean fetchedStateMatches(long seq, byte[] state) {
        if (state == null || fetchDigest == null || seq != fetchSeq) {
            return false;
        }
        fingerprints.fingerprint(state, 0, state.length, digest, 0);
        return java.util.Arrays.equals(digest, fetchDigest);
    }

    private DirectBuffer wrap(byte[] bytes) {
        input.wrap(bytes);
        return input;
    }

    private static byte[] copy(DirectBuffer buffer, int offset, int length) {
        byte[] bytes = new byte[length];
        buffer.getBytes(offset, bytes);
        return bytes;
    }

    /** The only clocks the replica reads: the last tick's. */
    private static final class Clocks implements NanoClock {
        private long nanos;
        private long millis;

        Clocks(long nanos, long millis) {
            this.nanos = nanos;
            this.millis = millis;
        }

        void advance(long nowNanos, long wallClockMillis) {
            if (nowNanos < nanos) {
                throw new IllegalArgumentException("tick at " + nowNanos + " ns after " + nanos + " ns: the caller's"
                    + " monotonic clock went back; pass System.nanoTime() or a virtual clock that only grows");
            }
            nanos = nowNanos;
            millis = wallClockMillis;
        }

        long wallClockMillis() {
            return millis;
        }

        @Override
        public long nanoTime() {
            return nanos;
        }
    }

    /** The replica's callbacks, turned into outputs of the current step. */
    private final class Outputs implements ReplicaOutput, DecisionStore, StateTransferPort {
        List<CoreOutput> list;

        private void add(CoreOutput o) {
            if (list == null) {
                throw new IllegalStateException("the replica produced an output outside a step");
            }
            list.add(o);
        }

        @Override
        public long ctbcast(DirectBuffer buffer, int offset, int length) {
            long k = nextK++;
            add(new CoreOutput.Ctbcast(k, copy(buffer, offset, length)));
            return k;
        }

        @Override
        public void allDelivered(long k) {
            add(new CoreOutput.AllDelivered(k));
        }

        @Override
        public void signEagerly(boolean on) {
            add(new CoreOutput.SignEagerly(on));
        }

        @Override
        public void summaryFormed(long k, DirectBuffer buffer, int offset, int length) {
            add(new CoreOutput.SummaryFormed(k, copy(buffer, offset, length)));
        }

        @Override
        public void summaryApplied(int broadcaster, long k) {
            add(new CoreOutput.SummaryApplied(broadcaster, k));
        }

        @Override
        public void tbcast(DirectBuffer buffer, int offset, int length) {
            add(new CoreOutput.Tbcast(copy(buffer, offset, length)));
        }

        @Override
        public void send(int replica, DirectBuffer buffer, int offset, int length) {
            add(new CoreOutput.Send(replica, copy(buffer, offset, length)));
        }

        @Override
        public void reply(int client, DirectBuffer buffer, int offset, int length) {
            add(new CoreOutput.Reply(client, copy(buffer, offset, length)));
        }

        @Override
        public void checkpoint(long seq, byte[] digest, DirectBuffer shares, int offset, int length, byte[] state) {
            add(new CoreOutput.KeepCheckpoint(seq, digest.clone(), copy(shares, offset, length), state.clone()));
        }

        @Override
        public void executing(long slot, DirectBuffer batch, int offset, int length) {
            add(new CoreOutput.KeepBatch(slot, copy(batch, offset, length)));
        }

        @Override
        public void offer(long checkpoint, byte[] state) {
            add(new CoreOutput.OfferState(checkpoint, state.clone()));
        }

        @Override
        public void fetch(long checkpoint, byte[] digest) {
            fetch(checkpoint, digest, -1);
        }

        @Override
        public void fetch(long checkpoint, byte[] digest, int source) {
            fetchSeq = checkpoint;
            fetchDigest = digest.clone();
            add(new CoreOutput.FetchState(checkpoint, digest.clone(), source));
        }

        @Override
        public void onMessage(int from, DirectBuffer buffer, int offset, int length) {
            add(new CoreOutput.TransferMessage(from, copy(buffer, offset, length)));
        }

        @Override
        public int doWork() {
            return 0;
        }
    }
}
