package org.ubft.consensus.replica;

import org.agrona.DirectBuffer;
import org.ubft.consensus.wire.ConsensusWire;

import java.nio.ByteOrder;

/**
 * CTBcast's Byzantine checks, paper Algorithm 5: one named predicate per message kind, over what this replica knows of
 * the broadcaster ({@link PeerState}, delivered in FIFO order). A message that fails its predicate is dropped and
 * counted by the replica (never thrown). Signature and certificate checks are separate (the replica verifies them
 * after the cheap predicate holds).
 */
final class ByzantineChecks {
    /**
     * The highest view any message may name. A correct replica enters views one at a time, each after a view-change
     * timeout of at least a millisecond or on f+1 replicas' evidence (which always includes a correct one), so in
     * 2^40 views it runs for decades; a peer claiming more is Byzantine, and no arithmetic on a view (view + 1, the
     * +1 of a share's view tag) comes near overflow.
     */
    static final long MAX_VIEW = 1L << 40;

    private final int n;

    ByzantineChecks(int n) {
        this.n = n;
    }

    /** Round-robin leaders: leader(v) = v mod n. */
    int leader(long view) {
        return (int) (view % n);
    }

    /**
     * Algorithm 5, lines 1-6: valid ⟨PREPARE, v, s, r⟩ from p.
     *
     * @param batchEmpty whether r is ⊥ (an empty batch)
     * @param digest     SHA-256 of r
     */
    boolean validPrepare(PeerState p, long v, long s, boolean batchEmpty, byte[] digest) {
        if (p.view != v || leader(v) != p.replica) {
            return false; // line 2
        }
        if (!p.isOpen(s)) {
            return false; // line 3
        }
        if (p.prepared(s, v)) {
            return false; // line 4: p never prepared slot s before in v
        }
        if (v == 0) {
            return true; // line 5
        }
        if (!p.hasNewView) {
            return false; // line 5: state[p].new_view != ⊥
        }
        return mustProposeAllows(p, s, batchEmpty, digest); // line 6
    }

    /** Algorithm 5, line 6: r == MustPropose(s, state[p].new_view) (Algorithm 3, lines 25-27). */
    boolean mustProposeAllows(PeerState p, long s, boolean batchEmpty, byte[] digest) {
        switch (p.mustPropose(s)) {
            case PeerState.NONE:
                return true; // Any
            case PeerState.BOTTOM:
                return batchEmpty;
            default:
                return p.mustProposeDigest(s, digest);
        }
    }

    /** Algorithm 5, lines 8-11: valid ⟨COMMIT, PΣ⟩ from p (the certificate PΣ is verified separately). */
    boolean validCommit(PeerState p, long view, long slot, byte[] digest) {
        return p.isOpen(slot) // line 9
            && view == p.view // line 10
            && !p.sameCommit(slot, view, digest); // line 11
    }

    /** Algorithm 5, lines 13-14: valid ⟨CHECKPOINT, CΣ⟩ from p: CΣ supersedes state[p].checkpoint. */
    boolean validCheckpoint(PeerState p, long seq) {
        return seq > p.checkpointSeq;
    }

    /** Algorithm 5, lines 16-17: valid ⟨SEAL_VIEW, v⟩ from p. */
    boolean validSealView(PeerState p, long v) {
        return p.view < v && v <= MAX_VIEW; // (the bound: a departure, see MAX_VIEW)
    }

    /** Whether {@code v} is a view a message may name at all: 0 to {@link #MAX_VIEW}. */
    static boolean plausibleView(long v) {
        return v >= 0 && v <= MAX_VIEW;
    }

    /**
     * Algorithm 5, lines 19-21 (the sender-side part of valid NEW_VIEW); lines 22-24 (the certificates) are checked
     * while decoding them ({@link Replica}).
     */
    boolean validNewViewSender(PeerState p, long v) {
        return leader(p.view) == p.replica // line 20
            && p.messagesInView == 0 // line 21: p's first non-CHECKPOINT message in this view
            && v == p.view; // line 24 (the certificates must be about state[p].view)
    }

    /**
     * Whether {@code k} shares at {@code at} (u16 signer, 64-byte signature each) are valid signatures of f+1 or more
     * distinct replicas on {@code statement[0, statementLength)}: the certificates of COMMIT, CHECKPOINT, NEW_VIEW and
     * SUMMARY. {@code signature} is scratch.
     */
    /** Shares already verified for the statement at hand, which need no second verification. */
    interface VerifiedShares {
        VerifiedShares NONE = (signer, buffer, at) -> false;

        /** Whether {@code signer}'s share for the statement, the 64 bytes at {@code at}, was verified before. */
        boolean verified(int signer, DirectBuffer buffer, int at);
    }

    static boolean validShares(ConsensusCrypto crypto, int n, int quorum, DirectBuffer buffer, int at, int k,
                               byte[] statement, int statementLength, byte[] signature) {
        return validShares(crypto, n, quorum, buffer, at, k, statement, statementLength, signature, VerifiedShares.NONE);
    }

    static boolean validShares(ConsensusCrypto crypto, int n, int quorum, DirectBuffer buffer, int at, int k,
                               byte[] statement, int statementLength, byte[] signature, VerifiedShares known) {
        if (k < quorum || k > n) {
            return false;
        }
        long signers = 0;
        int unknown = 0;
        for (int j = 0; j < k; j++) {
            int signer = buffer.getShort(at + j * ConsensusWire.SHARE_BYTES, ByteOrder.LITTLE_ENDIAN) & 0xFFFF;
            if (signer >= n || (signers & (1L << signer)) != 0) {
                return false;
            }
            signers |= 1L << signer;
            if (!known.verified(signer, buffer, at + j * ConsensusWire.SHARE_BYTES + 2)) {
                unknown++;
            }
        }
        if (!crypto.reserve(unknown)) {
            return false; // the sender's budget cannot pay for the whole certificate: refused whole, tokens kept
        }
        for (int j = 0; j < k; j++) {
            int signer = buffer.getShort(at + j * ConsensusWire.SHARE_BYTES, ByteOrder.LITTLE_ENDIAN) & 0xFFFF;
            if (known.verified(signer, buffer, at + j * ConsensusWire.SHARE_BYTES + 2)) {
                continue;
            }
            buffer.getBytes(at + j * ConsensusWire.SHARE_BYTES + 2, signature, 0, ConsensusWire.SIGNATURE_BYTES);
            if (!crypto.verifyReplica(signer, statement, 0, statementLength, signature, 0)) {
                return false;
            }
        }
        return true;
    }
}
