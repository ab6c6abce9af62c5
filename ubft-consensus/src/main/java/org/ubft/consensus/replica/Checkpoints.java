package org.ubft.consensus.replica;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.common.crypto.Fingerprints;
import org.ubft.consensus.replica.ReplicaCounters.Drop;
import org.ubft.consensus.wire.ClientWire;
import org.ubft.consensus.wire.ConsensusWire;
import org.ubft.consensus.wire.Reader;
import org.ubft.consensus.wire.Writer;

import java.util.Arrays;

import static org.ubft.consensus.wire.ConsensusWire.DIGEST_BYTES;
import static org.ubft.consensus.wire.ConsensusWire.SHARE_BYTES;
import static org.ubft.consensus.wire.ConsensusWire.SIGNATURE_BYTES;

/**
 * Checkpoints (paper §5.2, Algorithm 2, lines 43-61): the replica's stable checkpoint (its sequence number, the
 * state's digest and the certificate CΣ), which opens slots [seq, seq + W); the states this replica computed for the
 * next ones and its CERTIFY-CHECKPOINTs (lines 44-47); f+1 shares making CΣ (line 49, {@link CheckpointShares}); a
 * peer's CHECKPOINT (lines 52-55); and MaybeCheckpoint (lines 57-61), which takes a certified checkpoint that
 * supersedes the current one and brings the state up to speed: its own state if it computed the same, else state
 * transfer ({@link StateTransferPort}), during which nothing executes ({@link #fetching()}).
 *
 * <p>A checkpoint comes as often as every K slots ({@code ReplicaConfig.checkpointInterval}, K divides W), not only
 * when the window's last slot executed (the paper's K = W): a replica certifies the state after a slot that is a
 * multiple of K when the state its last checkpoint encoded is small enough for the slots since
 * ({@link #due}: at most {@link #STATE_BYTES_PER_SLOT} per slot), and at the latest W slots after it; and it keeps
 * what it computed for the checkpoints of its window ({@link OwnStates}, at most W / K + 1), so that when one is
 * certified after it executed further, it still has that checkpoint's state to keep and offer. docs/design.md §14,
 * "Checkpoints every K slots", says why this is safe.
 */
final class Checkpoints {
    /**
     * The encoded state a checkpoint may cost per slot since the last one: a state of B bytes is checkpointed at most
     * every B / 8 KiB slots (rounded up to a multiple of K, at most W). Measured (docs/performance.md, "The checkpoint
     * interval"): a key-value store of 7 MB checkpointed every 32 slots halved its SET throughput on 2 vCPUs; with
     * 8 KiB a slot its checkpoints come every W, and states up to 256 KiB (K = 32) every K.
     */
    static final long STATE_BYTES_PER_SLOT = 8 * 1024;
    /** What a checkpoint needs of the replica. */
    interface Host {
        long nextExec();

        /** Executes the decided slots in order (Algorithm 2, line 45). */
        void executeReady();

        /**
         * The window moved to [seq, seq + W) (line 59): CHECKPOINT is due (line 61), and PREPAREs, votes and COMMITs
         * that came early for its slots count now.
         */
        void windowMoved(long seq);

        /** State transfer brought the state of checkpoint {@code seq}: the next slot to execute is {@code seq}. */
        void stateRestored(long seq);
    }

    private final ReplicaConfig config;
    private final int self;
    private final int n;
    private final int window;
    private final int interval;
    private final int maxSharesBytes;
    private final ByzantineChecks checks;
    private final ChargedCrypto crypto;
    private final ReplicaOutput out;
    private final ReplicaCounters counters;
    private final Executor executor;
    private final Host host;
    private final CheckpointShares shares;
    private final Fingerprints fingerprints = new Fingerprints();
    private final Statements statements = new Statements();
    private final Writer writer = new Writer();
    private final UnsafeBuffer send = new UnsafeBuffer(new byte[1 + 8 + DIGEST_BYTES + SIGNATURE_BYTES]);
    private final byte[] digest = new byte[DIGEST_BYTES];
    private final byte[] signature = new byte[SIGNATURE_BYTES];
    private DecisionStore decisions = DecisionStore.NONE;
    private StateTransferPort transfer = StateTransferPort.NONE;

    // --- the stable checkpoint (Algorithm 2, line 6): open slots [seq, seq + W) ---
    private long seq;
    private final byte[] stableDigest = new byte[DIGEST_BYTES];
    private final UnsafeBuffer stableShares;
    private int stableSharesLength;
    private boolean fetching;
    /** The states this replica computed (or fetched) for the checkpoints from the stable one on. */
    private final OwnStates own;
    /** The last checkpoint whose state this replica holds (computed, fetched or kept), and that state's size. */
    private long chainSeq;
    private long chainBytes;

    /** The CHECKPOINT being checked: its shares verified as CERTIFY-CHECKPOINTs need no second check. */
    private long checkSeq;
    private final byte[] checkDigest = new byte[DIGEST_BYTES];
    private final ByzantineChecks.VerifiedShares knownShares = this::knownShare;
    /** Peers' CHECKPOINT certificates may be checked off the agent thread ({@link StreamChecks}); null: here. */
    private StreamChecks streams;

    Checkpoints(ReplicaConfig config, int self, int maxSharesBytes, ByzantineChecks checks, ChargedCrypto crypto,
                ReplicaOutput out, ReplicaCounters counters, Executor executor, Host host) {
        this.config = config;
        this.self = self;
        this.n = config.n();
        this.window = config.window();
        this.interval = config.checkpointInterval();
        this.maxSharesBytes = maxSharesBytes;
        this.checks = checks;
        this.crypto = crypto;
        this.out = out;
        this.counters = counters;
        this.executor = executor;
        this.host = host;
        this.shares = new CheckpointShares(n, config.quorum(), window, interval);
        this.own = new OwnStates(window / interval + 1, interval);
        this.stableShares = new UnsafeBuffer(new byte[maxSharesBytes]);
    }

    /** Algorithm 2, line 6: the initial checkpoint (Initial, [0, W)), certified by definition; every state[p] starts at it. */
    void initial(PeerState[] peers) {
        byte[] state = executor.encodeState();
        fingerprints.fingerprint(state, 0, state.length, stableDigest, 0);
        own.put(0, state, stableDigest);
        chained(0, state);
        stableShares.putByte(0, (byte) 0);
        stableSharesLength = 1;
        for (PeerState p : peers) {
            p.setCheckpoint(0, stableDigest, stableShares, 0, 1);
        }
    }

    void keepDecisionsIn(DecisionStore store) {
        this.decisions = store;
    }

    void stateTransfer(StateTransferPort port) {
        this.transfer = port;
        int i = own.find(seq);
        if (i >= 0) {
            port.offer(seq, own.state(i));
        }
    }

    /** The stable checkpoint's sequence number: slots [seq, seq + W) are open. */
    long seq() {
        return seq;
    }

    /** Whether state transfer is fetching the stable checkpoint's state (nothing executes meanwhile). */
    boolean fetching() {
        return fetching;
    }

    /** Writes this replica's CHECKPOINT of its stable checkpoint (Algorithm 2, line 61) at {@code w}'s position. */
    void writeCheckpoint(Writer w) {
        w.u8(ConsensusWire.CHECKPOINT).i64(seq).bytes(stableDigest, 0, DIGEST_BYTES)
            .bytes(stableShares, 0, stableSharesLength);
    }

    /** Whether slot {@code next} - 1 executed makes {@code next} a checkpoint (see {@link #due(long, long, long, int, int)}). */
    boolean due(long next) {
        return due(next, chainSeq, chainBytes, interval, window);
    }

    /**
     * Whether {@code next} is a checkpoint after the one at {@code lastSeq} whose state had {@code lastBytes} bytes:
     * a multiple of K at least W slots after it, or one whose slots since cover that state at
     * {@link #STATE_BYTES_PER_SLOT} each. Every correct replica computes the same: the same states at the same
     * slots (Theorem B.6, deterministic execution), from the initial checkpoint, a certified one it fetched, or one it
     * kept, each a checkpoint of this chain (a certificate holds a correct replica's share, signed only here).
     */
    static boolean due(long next, long lastSeq, long lastBytes, int interval, int window) {
        if (next % interval != 0 || next <= lastSeq) {
            return false;
        }
        long since = next - lastSeq;
        return since >= window || since * STATE_BYTES_PER_SLOT >= lastBytes;
    }

    /** Whether this replica holds its state of checkpoint {@code s}. */
    boolean holds(long s) {
        return own.find(s) >= 0;
    }

    private void chained(long s, byte[] state) {
        chainSeq = s;
        chainBytes = state.length;
    }

    /**
     * Slot {@code next} - 1 executed and {@code next} is due ({@link #due}): Algorithm 2, lines 44-47, sign (state
     * digest, {@code next}), TBcast it, and keep the state.
     */
    void certify(long next) {
        record(next);
        int len = statements.checkpoint(next, digest, 0);
        crypto.sign(statements.bytes(), 0, len, signature, 0);
        writer.wrap(send, 0).u8(ConsensusWire.CERTIFY_CHECKPOINT).i64(next).bytes(digest, 0, DIGEST_BYTES)
            .bytes(signature, 0, SIGNATURE_BYTES);
        out.tbcast(send, 0, writer.length());
    }

    /**
     * Keeps the state after slot {@code next} - 1 as this replica's for checkpoint {@code next} (a restarted
     * replica's replay keeps it without signing), its digest in {@link #digest}.
     */
    void record(long next) {
        byte[] state = executor.encodeState();
        fingerprints.fingerprint(state, 0, state.length, digest, 0);
        own.put(next, state, digest);
        chained(next, state);
    }

    /** Algorithm 2, line 49, the reader past the type: f+1 CERTIFY-CHECKPOINT shares make CΣ. */
    void onCertifyCheckpoint(int from, Reader reader) {
        long s = reader.i64();
        int digestAt = reader.skip(DIGEST_BYTES);
        int sigAt = reader.skip(SIGNATURE_BYTES);
        if (!reader.complete()) {
            counters.drop(Drop.MALFORMED);
            return;
        }
        if (s % interval != 0) {
            counters.drop(Drop.MALFORMED);
            return;
        }
        if (s <= seq) {
            return; // a share after the certificate formed: normal, not counted
        }
        if (s > seq + 2L * window) {
            counters.drop(Drop.OUT_OF_WINDOW); // (a replica that far behind catches up from CHECKPOINT messages)
            return;
        }
        if (shares.holds(from, s) || (shares.tried(from, s) && !crypto.holdsVerdict())) {
            counters.drop(Drop.DUPLICATE); // one share per replica and checkpoint, verified once
            return;
        }
        shares.markTried(from, s);
        DirectBuffer b = reader.buffer();
        b.getBytes(digestAt, digest, 0, DIGEST_BYTES);
        b.getBytes(sigAt, signature, 0, SIGNATURE_BYTES);
        int len = statements.checkpoint(s, digest, 0);
        if (!crypto.verifyReplicaOrDefer(from, statements.bytes(), 0, len, signature, 0)) {
            if (crypto.deferredLast()) {
                return; // checked off the agent thread: the message comes back with its verdict (Preverifier)
            }
            if (crypto.refusedLast()) {
                shares.untried(from, s); // not checked: a later copy may be
            }
            counters.drop(crypto.refusedLast() ? Drop.OVER_BUDGET : Drop.BAD_SIGNATURE);
            return;
        }
        if (!shares.put(from, s, digest, signature)) {
            return; // short of f+1 matching shares
        }
        UnsafeBuffer certificate = new UnsafeBuffer(new byte[maxSharesBytes]);
        int length = shares.certificate(s, digest, config.quorum(), certificate);
        maybeCheckpoint(s, digest.clone(), certificate, 0, length, otherSigner(certificate));
    }

    /** Algorithm 2, line 52, the reader past the type: CTBcast-dlvr ⟨CHECKPOINT, CΣ⟩ from p. */
    void onCheckpointMessage(PeerState p, DirectBuffer buffer, Reader reader) {
        long s = reader.i64();
        int digestAt = reader.skip(DIGEST_BYTES);
        int sharesAt = reader.position();
        int k = reader.u8();
        reader.skip(k * SHARE_BYTES);
        if (!reader.complete() || s % interval != 0) {
            counters.drop(Drop.MALFORMED);
            return;
        }
        byte[] cpDigest = new byte[DIGEST_BYTES];
        buffer.getBytes(digestAt, cpDigest, 0, DIGEST_BYTES);
        if (!checks.validCheckpoint(p, s)) {
            counters.drop(Drop.INVALID_CHECKPOINT);
            return;
        }
        int len = statements.checkpoint(s, cpDigest, 0);
        checkSeq = s;
        System.arraycopy(cpDigest, 0, checkDigest, 0, DIGEST_BYTES);
        if (streams != null && streams.park(p.replica, statements.bytes(), len, buffer, sharesAt + 1, k, knownShares)) {
            streams.parkedCheckpoint();
            return; // its shares are checked off the agent thread: handled again, in p's order, with their verdicts
        }
        if (!ByzantineChecks.validShares(crypto, n, config.quorum(), buffer, sharesAt + 1, k, statements.bytes(), len,
            signature, knownShares)) {
            counters.drop(Drop.BAD_CERTIFICATE);
            return;
        }
        p.setCheckpoint(s, cpDigest, buffer, sharesAt, 1 + k * SHARE_BYTES); // lines 53-54
        maybeCheckpoint(s, cpDigest, buffer, sharesAt, 1 + k * SHARE_BYTES, p.replica); // line 55
    }

    /** Peers' CHECKPOINT certificates from now on may be checked off the agent thread, as their COMMITs' are. */
    void streamChecks(StreamChecks streams) {
        this.streams = streams;
    }

    /** Whether a CHECKPOINT's share is the signer's CERTIFY-CHECKPOINT verified already, byte for byte. */
    private boolean knownShare(int signer, DirectBuffer buffer, int at) {
        return shares.known(signer, checkSeq, checkDigest, buffer, at);
    }

    /** The first replica other than this one among the signers of a certificate's shares (-1 if none). */
    private int otherSigner(DirectBuffer certificate) {
        int count = certificate.getByte(0) & 0xFF;
        for (int i = 0; i < count; i++) {
            int q = certificate.getShort(1 + i * SHARE_BYTES, ClientWire.ORDER);
            if (q != self) {
                return q;
            }
        }
        return -1;
    }

    /**
     * Algorithm 2, lines 57-61: MaybeCheckpoint(CΣ). {@code source}: the replica that just showed this one the
     * certificate (it is up, and if correct it holds the state): a state transfer asks it first, instead of a peer in
     * the seed's order that may be down (a dead first choice cost the fetch a whole request timeout, 50 ms).
     */
    void maybeCheckpoint(long s, byte[] cpDigest, DirectBuffer certificate, int offset, int length, int source) {
        if (s <= seq) {
            return; // line 58: CΣ does not supersede
        }
        host.executeReady();
        seq = s; // line 59
        System.arraycopy(cpDigest, 0, stableDigest, 0, DIGEST_BYTES);
        stableShares.putBytes(0, certificate, offset, length);
        stableSharesLength = length;
        counters.checkpoints++;
        // line 60: App.BringUpToSpeed(checkpoint): this replica's state of s if it computed the same (it may have
        // executed further since, K < W); else state transfer
        int i = own.find(s);
        if (i >= 0 && host.nextExec() >= s && own.digestIs(i, cpDigest)) {
            own.forgetBefore(s);
            transfer.offer(s, own.state(i));
            decisions.checkpoint(s, cpDigest, stableShares, 0, stableSharesLength, own.state(i));
        } else {
            fetching = true;
            counters.stateTransfers++;
            transfer.fetch(s, cpDigest, source);
        }
        host.windowMoved(s);
    }

    /**
     * The state of the stable checkpoint {@code s}, fetched and verified by state transfer: restored, kept, offered.
     * Returns whether it was taken (execution goes on from {@code s}).
     */
    boolean onStateFetched(long s, byte[] state) {
        if (!fetching || s != seq) {
            return false;
        }
        if (!executor.restoreState(state)) {
            counters.drop(Drop.MALFORMED);
            return false;
        }
        fetching = false;
        host.stateRestored(s);
        own.clear();
        own.put(s, state, stableDigest); // state transfer verified it
        chained(s, state);
        transfer.offer(s, state);
        decisions.checkpoint(s, stableDigest, stableShares, 0, stableSharesLength, state);
        return true;
    }

    /**
     * A restarted replica's kept checkpoint {@code s} (its state, digest and certificate): checked against the
     * certificate, restored, and taken as the stable checkpoint.
     *
     * @throws IllegalStateException if the kept state does not match the certificate or does not decode
     */
    void recover(long s, byte[] d, byte[] certificate, byte[] state) {
        fingerprints.fingerprint(state, 0, state.length, digest, 0);
        UnsafeBuffer cert = new UnsafeBuffer(certificate);
        int k = certificate.length > 0 ? certificate[0] & 0xFF : 0;
        if (s % interval != 0) {
            throw new IllegalStateException("the kept checkpoint " + s + " is not a multiple of the checkpoint"
                + " interval K = " + interval + " (consensus.checkpoint.interval): the data directory was written with"
                + " another interval; start with the interval it was written with, or with an empty --data-dir");
        }
        if (!Arrays.equals(digest, d) || certificate.length != 1 + k * SHARE_BYTES
            || !ByzantineChecks.validShares(crypto, n, config.quorum(), cert, 1, k, statements.bytes(),
                statements.checkpoint(s, d, 0), signature)) {
            throw new IllegalStateException("the kept state of checkpoint " + s + " does not match the"
                + " certificate kept with it (f+1 signatures of the cluster's keys)");
        }
        if (!executor.restoreState(state)) {
            throw new IllegalStateException("the kept state of checkpoint " + s + " does not decode");
        }
        seq = s;
        System.arraycopy(d, 0, stableDigest, 0, DIGEST_BYTES);
        stableShares.putBytes(0, certificate);
        stableSharesLength = certificate.length;
        own.clear();
        own.put(s, state, d);
        chained(s, state);
        transfer.offer(s, state);
    }
}
