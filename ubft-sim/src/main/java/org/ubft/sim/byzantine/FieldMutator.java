package org.ubft.sim.byzantine;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.consensus.replica.ReplicaOutput;
import org.ubft.consensus.runtime.ReplicaNode;
import org.ubft.consensus.wire.ConsensusWire;
import org.ubft.sim.SlotContext;

import java.util.List;
import java.util.SplittableRandom;

/**
 * A replica that rewrites fields of its outgoing consensus messages with boundary and adversarial values
 * ({@link Mutations}: 0, -1, current ± 1, near {@link Long#MAX_VALUE}, MAX_VIEW and MAX_VIEW + 1, far-future views,
 * slots and identifiers, lengths and counts that lie, digests of other requests), from virtual time {@code from} on,
 * while it keeps running the real protocol: of the messages it sends, one in {@code oneIn} goes out mutated
 * <em>instead</em> of the real one to some receivers, and as many again get a mutated copy <em>besides</em> the real
 * one; the rest go out untouched, so the replica stays relevant (a leader keeps proposing, a follower keeps voting).
 *
 * <p>Each mutated message changes one field (one in four: two), of any message type of {@link MessageFields}. What it
 * can sign it signs again with its own key ({@link OwnSignatures}: CERTIFY, CERTIFY_CHECKPOINT, CRTFY_VC), so the
 * mutation meets the receiver's checks behind a valid signature. Receivers, where the transport allows a choice:
 * point to point, a random non-empty subset of the other replicas; CTBcast, a replaced message goes to a random subset
 * (LOCK and SIGNED rewritten per receiver on the links, {@link CtbcastRewrites}: an equivocation CTBcast must stop) and
 * a mutated copy to everyone under the next identifier; TBcast, everyone.
 */
public final class FieldMutator extends ByzantineBehaviour {
    private final int oneIn;
    private final long[] byType = new long[256];
    private final long[] byKind = new long[MessageFields.Kind.values().length];
    private final CtbcastRewrites rewrites = new CtbcastRewrites();
    private long resigned;
    private long replaced;
    private long copies;
    /** This incarnation's node (set at attach, before it runs): the identifier its next CTBcast gets. */
    private ReplicaNode node;

    /** @param oneIn one message in {@code oneIn} is replaced, and as many get a mutated copy besides */
    public FieldMutator(long from, int oneIn) {
        super("field-mutator", from);
        this.oneIn = oneIn;
    }

    /** Mutated messages of consensus type {@code type} sent (replaced or copies). */
    public long mutated(int type) {
        return byType[type & 0xFF];
    }

    /** Fields of kind {@code kind} (a {@code MessageFields.Kind} name) mutated. */
    public long mutatedFields(String kind) {
        return byKind[MessageFields.Kind.valueOf(kind).ordinal()];
    }

    /** Mutated messages signed again with this replica's key. */
    public long resigned() {
        return resigned;
    }

    /** Real messages replaced by a mutated one (for some receivers). */
    public long replaced() {
        return replaced;
    }

    /** Mutated copies sent besides the real message. */
    public long copies() {
        return copies;
    }

    /** CTBcast LOCKs and SIGNEDs that carried a mutated message to a receiver. */
    public long ctbcastRewritten() {
        return rewrites.rewritten();
    }

    @Override
    public String toString() {
        StringBuilder types = new StringBuilder();
        for (int t = 0; t < byType.length; t++) {
            if (byType[t] != 0) {
                types.append(types.length() == 0 ? "" : ",").append(t).append(':').append(byType[t]);
            }
        }
        StringBuilder kinds = new StringBuilder();
        for (MessageFields.Kind k : MessageFields.Kind.values()) {
            kinds.append(kinds.length() == 0 ? "" : ",").append(k).append(':').append(byKind[k.ordinal()]);
        }
        return super.toString() + "{replaced=" + replaced + " copies=" + copies + " resigned=" + resigned
            + " ctbcast_rewritten=" + rewrites.rewritten() + " types={" + types + "} fields={" + kinds + "}}";
    }

    @Override
    public void attach(ReplicaNode node, SlotContext slot) {
        this.node = node;
        rewrites.install(node, slot.replica(), slot.key());
    }

    @Override
    public ReplicaOutput wrapOutput(ReplicaOutput output, SlotContext slot) {
        var cluster = slot.cluster();
        SplittableRandom random = slot.random();
        Mutations mutations = new Mutations(random, cluster.n(), cluster.clientCount(), cluster.consensusWindow(),
            cluster.ctbcastTail(), slot.replica());
        OwnSignatures signer = new OwnSignatures(slot.key());
        int me = slot.replica();
        int n = cluster.n();
        return new ForwardingOutput(output) {
            /** 0: untouched, 1: replaced, 2: a copy besides. */
            private int roll(DirectBuffer b, int off, int len) {
                int type = ConsensusMessages.type(b, off, len);
                if (type == ConsensusWire.CERTIFY && len >= 49) {
                    mutations.sawDigest(new UnsafeBuffer(b, off, len), 17);
                } else if (type == ConsensusWire.ECHO && len >= 45) {
                    mutations.sawDigest(new UnsafeBuffer(b, off, len), 13);
                }
                if (slot.now() < from) {
                    return 0;
                }
                int r = random.nextInt(oneIn);
                return r == 0 ? 1 : r == 1 ? 2 : 0;
            }

            /** A mutated copy of the message, or null if it has no field to mutate. */
            private byte[] mutate(DirectBuffer b, int off, int len) {
                List<MessageFields.Field> fields = MessageFields.of(b, off, len);
                if (fields.isEmpty()) {
                    return null;
                }
                byte[] m = ConsensusMessages.copy(b, off, len);
                UnsafeBuffer mb = new UnsafeBuffer(m);
                int changes = random.nextInt(4) == 0 ? 2 : 1;
                for (int c = 0; c < changes; c++) {
                    MessageFields.Field f = fields.get(random.nextInt(fields.size()));
                    mutations.mutate(mb, f);
                    byKind[f.kind().ordinal()]++;
                }
                if (signer.resign(mb, len)) {
                    resigned++;
                }
                byType[m[0] & 0xFF]++;
                acted();
                return m;
            }

            /** A random non-empty set of the other replicas, as a bit mask. */
            private int receivers() {
                int mask = 0;
                for (int q = 0; q < n; q++) {
                    if (q != me && random.nextBoolean()) {
                        mask |= 1 << q;
                    }
                }
                return mask != 0 ? mask : 1 << ((me + 1 + random.nextInt(n - 1)) % n);
            }

            @Override
            public long ctbcast(DirectBuffer b, int off, int len) {
                int roll = roll(b, off, len);
                byte[] m = roll == 0 ? null : mutate(b, off, len);
                if (m != null && roll == 1) {
                    // registered before the broadcast: its LOCK may leave inside it
                    replaced++;
                    rewrites.replace(node.ctbcast().nextOwnK(), m, receivers());
                }
                long k = real.ctbcast(b, off, len);
                if (m != null && roll != 1) {
                    copies++;
                    real.ctbcast(new UnsafeBuffer(m), 0, m.length);
                }
                return k;
            }

            @Override
            public void tbcast(DirectBuffer b, int off, int len) {
                int roll = roll(b, off, len);
                byte[] m = roll == 0 ? null : mutate(b, off, len);
                if (m != null && roll == 1) {
                    replaced++;
                } else {
                    real.tbcast(b, off, len);
                    if (m != null) {
                        copies++;
                    }
                }
                if (m != null) {
                    real.tbcast(new UnsafeBuffer(m), 0, m.length);
                }
            }

            @Override
            public void send(int to, DirectBuffer b, int off, int len) {
                int roll = roll(b, off, len);
                byte[] m = roll == 0 ? null : mutate(b, off, len);
                if (m == null) {
                    real.send(to, b, off, len);
                    return;
                }
                int mask = receivers();
                if (roll == 1) {
                    replaced++;
                    mask |= 1 << to; // the addressee gets the mutated message instead of the real one
                } else {
                    copies++;
                    real.send(to, b, off, len);
                }
                for (int q = 0; q < n; q++) {
                    if ((mask & (1 << q)) != 0 && q != me) {
                        real.send(q, new UnsafeBuffer(m), 0, m.length);
                    }
                }
            }
        };
    }
}
