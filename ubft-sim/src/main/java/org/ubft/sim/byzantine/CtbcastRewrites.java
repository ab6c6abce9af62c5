package org.ubft.sim.byzantine;

import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.common.crypto.Fingerprints;
import org.ubft.common.crypto.SigningKey;
import org.ubft.ctbcast.core.CtbcastMessage;
import org.ubft.ctbcast.core.SignedStatement;
import org.ubft.ctbcast.link.PeerLinks;
import org.ubft.ctbcast.node.CtbcastNode;
import org.ubft.consensus.runtime.ReplicaNode;

/**
 * Per-receiver CTBcast messages of a Byzantine broadcaster, below its own (correct) CTBcast core, on its links
 * ({@link PeerLinks#outboundTap}, as {@link EquivocatingLeader} does): for an identifier k registered with
 * {@link #replace}, the LOCK and SIGNED of k to the chosen receivers carry another message (a SIGNED validly signed by
 * this replica over it), the others the real one. Retransmissions are rewritten the same way. The last
 * {@value #KEPT} registrations are kept.
 */
final class CtbcastRewrites {
    private static final int KEPT = 64;

    private final long[] ks = new long[KEPT];
    private final byte[][] messages = new byte[KEPT][];
    private final int[] receivers = new int[KEPT];
    private final UnsafeBuffer out = new UnsafeBuffer(new byte[1 << 16]);
    private final Fingerprints fingerprints = new Fingerprints();
    private long rewritten;

    /** From now on, the LOCK and SIGNED of identifier {@code k} to a receiver in {@code receiverMask} carry {@code m}. */
    void replace(long k, byte[] m, int receiverMask) {
        int i = (int) Math.floorMod(k, (long) KEPT);
        ks[i] = k;
        messages[i] = m;
        receivers[i] = receiverMask;
    }

    /** LOCKs and SIGNEDs sent with another message than the real one. */
    long rewritten() {
        return rewritten;
    }

    /** Installs the rewriting on replica {@code me}'s links. */
    void install(ReplicaNode node, int me, SigningKey key) {
        int stream = CtbcastNode.streamId(me);
        node.ctbcast().links().outboundTap((to, streamId, flags, index, src, off, len, sink) -> {
            if (streamId != stream || to == me || len < CtbcastMessage.HEADER_BYTES) {
                sink.send(to, streamId, flags, index, src, off, len);
                return;
            }
            byte type = src.getByte(off + CtbcastMessage.TYPE_OFFSET);
            long k = src.getLong(off + CtbcastMessage.K_OFFSET, CtbcastMessage.ORDER);
            int i = (int) Math.floorMod(k, (long) KEPT);
            if ((type != CtbcastMessage.LOCK && type != CtbcastMessage.SIGNED) || ks[i] != k || messages[i] == null
                || (receivers[i] & (1 << to)) == 0) {
                sink.send(to, streamId, flags, index, src, off, len);
                return;
            }
            byte[] m = messages[i];
            int length = type == CtbcastMessage.LOCK
                ? CtbcastMessage.encodeLock(out, 0, me, k, new UnsafeBuffer(m), 0, m.length)
                : signed(key, me, k, m);
            rewritten++;
            sink.send(to, streamId, flags, index, out, 0, length);
        });
    }

    /** SIGNED(k, m) with this replica's valid signature over (me, k, fingerprint(m)). */
    private int signed(SigningKey key, int me, long k, byte[] m) {
        byte[] fingerprint = new byte[Fingerprints.FINGERPRINT_BYTES];
        fingerprints.fingerprint(m, 0, m.length, fingerprint, 0);
        UnsafeBuffer statement = new UnsafeBuffer(new byte[SignedStatement.BYTES]);
        SignedStatement.encode(statement, 0, me, k, new UnsafeBuffer(fingerprint), 0);
        byte[] signature = new byte[SignedStatement.SIGNATURE_BYTES];
        key.sign(statement.byteArray(), 0, SignedStatement.BYTES, signature, 0);
        return CtbcastMessage.encodeSigned(out, 0, me, k, new UnsafeBuffer(signature), 0, new UnsafeBuffer(m), 0,
            m.length);
    }
}
