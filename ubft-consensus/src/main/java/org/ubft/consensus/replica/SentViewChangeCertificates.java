package org.ubft.consensus.replica;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The CRTFY_VCs a replica sent (Algorithm 3, line 11), the latest per subject: sent again to the view's leader, as
 * they were (no new signature), while the view waits for its NEW_VIEW. A point-to-point message can be lost before
 * GST, and without this the leader stayed short of f+1 certificates until the view timed out. Fixed memory: n
 * messages.
 */
final class SentViewChangeCertificates {
    private final int n;
    private final int maxBytes;
    private final UnsafeBuffer sent;
    private final int[] length;
    private final long[] view;
    private long resentAt;

    SentViewChangeCertificates(int n, int maxBytes) {
        this.n = n;
        this.maxBytes = maxBytes;
        sent = new UnsafeBuffer(new byte[Math.multiplyExact(n, maxBytes)]);
        length = new int[n];
        view = new long[n];
        java.util.Arrays.fill(view, -1);
    }

    /** Keeps the CRTFY_VC about {@code subject} for view {@code v} just sent. */
    void keep(int subject, long v, DirectBuffer message, int offset, int len) {
        sent.putBytes(subject * maxBytes, message, offset, len);
        length[subject] = len;
        view[subject] = v;
    }

    /**
     * Every {@code retry}: the kept CRTFY_VCs of view {@code v} about the subjects still in it go to {@code leader}
     * again. Returns how many.
     */
    int resend(long now, long retry, long v, PeerState[] peers, int leader, ReplicaOutput out) {
        if (now - resentAt < retry) {
            return 0;
        }
        resentAt = now;
        int count = 0;
        for (int q = 0; q < n; q++) {
            if (view[q] == v && peers[q].view == v) {
                out.send(leader, sent, q * maxBytes, length[q]);
                count++;
            }
        }
        return count;
    }
}
