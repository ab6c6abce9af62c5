package org.ubft.sim.byzantine;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.common.fault.ByteMutations;
import org.ubft.consensus.replica.ReplicaOutput;
import org.ubft.sim.SlotContext;

import java.util.SplittableRandom;

/**
 * A replica that runs the real protocol and, from virtual time {@code from} on, sends besides one in {@code oneIn} of
 * its messages a garbled copy of it, mutated at the byte level ({@link ByteMutations}: bits, boundary values in 8- and
 * 4-byte fields, the type byte, truncation, extension, a splice with one of its recent messages): through its own
 * CTBcast stream under the next identifier (every receiver gets the same bytes: CTBcast's guarantee), by TBcast, and
 * point to point, garbled anew for each other replica (equivocation). Unlike {@link FieldMutator}, it knows nothing of
 * the messages' formats: it finds what a format-aware mutator misses (lengths that lie, cut and spliced messages,
 * unknown types). The receivers must drop and count each one, never throw, stay within their memory and stay live.
 */
public final class Garbler extends ByzantineBehaviour {
    private static final int RECENT = 8;

    private final int oneIn;
    private long ctbcast;
    private long tbcast;
    private long direct;

    /** @param oneIn one message in {@code oneIn} gets a garbled copy besides */
    public Garbler(long from, int oneIn) {
        super("garbler", from);
        this.oneIn = oneIn;
    }

    /** Garbled messages sent: through CTBcast, TBcast, point to point (one per receiver). */
    public long garbled() {
        return ctbcast + tbcast + direct;
    }

    @Override
    public String toString() {
        return super.toString() + "{ctbcast=" + ctbcast + " tbcast=" + tbcast + " direct=" + direct + "}";
    }

    @Override
    public ReplicaOutput wrapOutput(ReplicaOutput output, SlotContext slot) {
        SplittableRandom random = slot.random();
        int me = slot.replica();
        int n = slot.cluster().n();
        byte[][] recent = new byte[RECENT][];
        return new ForwardingOutput(output) {
            private int next;

            /** A garbled copy of the message (kept for splices), or null if not this one. */
            private byte[] garble(DirectBuffer b, int off, int len) {
                byte[] m = ConsensusMessages.copy(b, off, len);
                recent[next++ % RECENT] = m;
                if (slot.now() < from || random.nextInt(oneIn) != 0) {
                    return null;
                }
                return again(m);
            }

            private byte[] again(byte[] m) {
                byte[] other = recent[random.nextInt(Math.min(next, RECENT))];
                long view = slot.omniscience() == null ? 0 : slot.omniscience().view(me);
                acted();
                return ByteMutations.garble(m, other, new long[] {view, view + 1, view + 2}, random);
            }

            @Override
            public long ctbcast(DirectBuffer b, int off, int len) {
                byte[] g = garble(b, off, len);
                long k = real.ctbcast(b, off, len);
                if (g != null) {
                    ctbcast++;
                    real.ctbcast(new UnsafeBuffer(g), 0, g.length);
                }
                return k;
            }

            @Override
            public void tbcast(DirectBuffer b, int off, int len) {
                byte[] g = garble(b, off, len);
                real.tbcast(b, off, len);
                if (g != null) {
                    tbcast++;
                    real.tbcast(new UnsafeBuffer(g), 0, g.length);
                }
            }

            @Override
            public void send(int to, DirectBuffer b, int off, int len) {
                byte[] g = garble(b, off, len);
                real.send(to, b, off, len);
                if (g == null) {
                    return;
                }
                byte[] m = ConsensusMessages.copy(b, off, len);
                for (int q = 0; q < n; q++) {
                    if (q != me) {
                        byte[] each = q == to ? g : again(m); // each receiver its own
                        direct++;
                        real.send(q, new UnsafeBuffer(each), 0, each.length);
                    }
                }
            }
        };
    }
}
