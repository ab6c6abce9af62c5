package org.ubft.consensus.replica;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.consensus.wire.Writer;

import java.util.Arrays;

import static org.ubft.consensus.wire.ConsensusWire.SIGNATURE_BYTES;

/**
 * A leader's CRTFY_VCs (Algorithm 3, lines 12-16): per (subject, signer) the latest verified one, a signed state[subject]
 * of the view (one per view, subject and signer, each verified once: the view last tried is kept too). f+1 matching
 * CRTFY_VCs about a subject make its certificate ({@link MatchingQuorum}, one group per subject); certificates about
 * f+1 subjects make the NEW_VIEW. Fixed memory: n² states of at most {@code maxStateBytes}.
 */
final class ViewChangeCertificates {
    private final int n;
    private final int quorum;
    private final int maxStateBytes;
    /** Per subject (group) and signer: the CRTFY_VC's value (view, digest of the state), counted for f+1 matching. */
    private final MatchingQuorum held;
    private final long[] tried;
    private final int[] length;
    private final UnsafeBuffer state;
    private final byte[] signature;

    ViewChangeCertificates(int n, int quorum, int maxStateBytes) {
        this.n = n;
        this.quorum = quorum;
        this.maxStateBytes = maxStateBytes;
        held = new MatchingQuorum(n, n, quorum);
        tried = new long[n * n];
        Arrays.fill(tried, -1);
        length = new int[n * n];
        state = new UnsafeBuffer(new byte[Math.multiplyExact(n * n, maxStateBytes)]);
        signature = new byte[n * n * SIGNATURE_BYTES];
    }

    /** Whether {@code signer}'s CRTFY_VC about {@code subject} for view {@code v} is held (verified). */
    boolean holds(int subject, int signer, long v) {
        return held.holds(subject, signer, v, 0);
    }

    /** Whether {@code signer}'s CRTFY_VC about {@code subject} for view {@code v} was tried already. */
    boolean tried(int subject, int signer, long v) {
        return tried[subject * n + signer] == v;
    }

    void markTried(int subject, int signer, long v) {
        tried[subject * n + signer] = v;
    }

    /** The last try was not made (over budget): a later copy may be checked. */
    void untried(int subject, int signer) {
        tried[subject * n + signer] = -1;
    }

    /** Holds a verified CRTFY_VC: the state at {@code buffer[at..at+len)}, its digest and signature. */
    void put(int subject, int signer, long v, DirectBuffer buffer, int at, int len, byte[] d, byte[] sig) {
        int e = subject * n + signer;
        held.record(subject, signer, v, 0, d, 0);
        length[e] = len;
        state.putBytes(e * maxStateBytes, buffer, at, len);
        System.arraycopy(sig, 0, signature, e * SIGNATURE_BYTES, SIGNATURE_BYTES);
    }

    /** Whether f+1 subjects have certificates of view {@code v} (line 13): then {@link #write} writes them. */
    boolean certified(long v) {
        int subjects = 0;
        for (int q = 0; q < n; q++) {
            if (held.firstWithQuorum(q, v) >= 0) {
                subjects++;
            }
        }
        return subjects >= quorum;
    }

    /**
     * Writes the NEW_VIEW's f+1 certificates of view {@code v} that {@link #certified} found (lines 14-16): per
     * subject, in subject order, i32 state length, the state, u8 count, then f+1 (u16 signer, signature). The state is
     * that of the first signer (in signer order) whose CRTFY_VC f others match.
     */
    void write(Writer w, long v) {
        int written = 0;
        for (int q = 0; q < n && written < quorum; q++) {
            int a = held.firstWithQuorum(q, v);
            if (a < 0) {
                continue;
            }
            int ea = q * n + a;
            w.i32(length[ea]).bytes(state, ea * maxStateBytes, length[ea]).u8(quorum);
            byte[] digests = held.digests();
            int d = held.digestAt(q, a);
            int signers = 0;
            for (int b = held.next(q, 0, v, 0, digests, d, MatchingQuorum.NOBODY); b >= 0 && signers < quorum;
                 b = held.next(q, b + 1, v, 0, digests, d, MatchingQuorum.NOBODY)) {
                w.u16(b).bytes(signature, (q * n + b) * SIGNATURE_BYTES, SIGNATURE_BYTES);
                signers++;
            }
            written++;
        }
    }
}
