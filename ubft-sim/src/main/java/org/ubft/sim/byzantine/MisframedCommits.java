package org.ubft.sim.byzantine;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.consensus.replica.ReplicaOutput;
import org.ubft.consensus.wire.ConsensusWire;
import org.ubft.sim.SlotContext;

import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * A replica that, from virtual time {@code from} on, CTBcasts before each of its COMMITs (alone or in a COMMITS
 * message) a COMMITS message framed wrongly around it, then the genuine message under the next identifier. The framings,
 * in turn: more COMMITs than {@link ConsensusWire#MAX_BUNDLED_COMMITS}; a COMMITS nested in one; a count one higher
 * than the COMMITs present; a first COMMIT's length one too long; a SEAL_VIEW of the next view after the COMMIT (a
 * receiver that handled a COMMITS message's parts whatever their type would leave the view); a byte after the last
 * COMMIT; and, well framed, 16 copies of the COMMIT each with its last share's signature altered (16 certificates to
 * check for one identifier). Every correct receiver must drop the misframed ones whole (none of its COMMITs counts,
 * state[p] unchanged) and check only the first forged certificate of the last (the rest AFTER_BAD_CERTIFICATE), count
 * them, and go on with the genuine message: alike at every receiver, whether it delivered the message or skipped it
 * with a SUMMARY.
 */
public final class MisframedCommits extends ByzantineBehaviour {
    private static final int FRAMINGS = 7;
    private static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;

    private int next;

    public MisframedCommits(long from) {
        super("misframed-commits", from);
    }

    @Override
    public ReplicaOutput wrapOutput(ReplicaOutput output, SlotContext slot) {
        return new ForwardingOutput(output) {
            @Override
            public long ctbcast(DirectBuffer b, int off, int len) {
                int type = ConsensusMessages.type(b, off, len);
                if (slot.now() >= from && len > ConsensusMessages.BATCH
                    && (type == ConsensusWire.COMMIT || type == ConsensusWire.COMMITS)) {
                    byte[] commit = type == ConsensusWire.COMMIT ? ConsensusMessages.copy(b, off, len) : firstPart(b, off);
                    if (commit != null) {
                        byte[] m = misframed(commit, next++ % FRAMINGS);
                        real.ctbcast(new UnsafeBuffer(m), 0, m.length);
                        acted();
                    }
                }
                return real.ctbcast(b, off, len);
            }
        };
    }

    /** The first COMMIT of a (well-framed) COMMITS message, or null. */
    private static byte[] firstPart(DirectBuffer b, int off) {
        int length = b.getInt(off + 2, ORDER);
        return length > ConsensusMessages.BATCH ? ConsensusMessages.copy(b, off + 6, length) : null;
    }

    /** A COMMITS message around {@code commit}, framed wrongly in way {@code framing}. */
    static byte[] misframed(byte[] commit, int framing) {
        return switch (framing) {
            case 0 -> {
                byte[][] parts = new byte[ConsensusWire.MAX_BUNDLED_COMMITS + 1][];
                Arrays.fill(parts, commit);
                yield commits(parts);
            }
            case 1 -> commits(commit, commits(commit));
            case 2 -> {
                byte[] m = commits(commit, commit);
                m[1]++;
                yield m;
            }
            case 3 -> {
                byte[] m = commits(commit, commit);
                new UnsafeBuffer(m).putInt(2, commit.length + 1, ORDER);
                yield m;
            }
            case 4 -> {
                byte[] seal = new byte[9];
                seal[0] = ConsensusWire.SEAL_VIEW;
                new UnsafeBuffer(seal).putLong(1, new UnsafeBuffer(commit).getLong(ConsensusMessages.VIEW, ORDER) + 1,
                    ORDER);
                yield commits(commit, seal);
            }
            case 5 -> Arrays.copyOf(commits(commit), commits(commit).length + 1);
            default -> {
                byte[][] parts = new byte[ConsensusWire.MAX_BUNDLED_COMMITS][];
                for (int i = 0; i < parts.length; i++) {
                    parts[i] = commit.clone();
                    parts[i][commit.length - 1] ^= (byte) (i + 1); // a COMMIT ends with its last share's signature
                }
                yield commits(parts);
            }
        };
    }

    /** ⟨COMMITS, count, (length, part)...⟩ of {@code parts} as they are. */
    static byte[] commits(byte[]... parts) {
        int length = 2;
        for (byte[] p : parts) {
            length += 4 + p.length;
        }
        UnsafeBuffer m = new UnsafeBuffer(new byte[length]);
        m.putByte(0, (byte) ConsensusWire.COMMITS);
        m.putByte(1, (byte) parts.length);
        int at = 2;
        for (byte[] p : parts) {
            m.putInt(at, p.length, ORDER);
            m.putBytes(at + 4, p);
            at += 4 + p.length;
        }
        return m.byteArray();
    }
}
