package org.ubft.sim.byzantine;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.consensus.replica.MessageSizes;
import org.ubft.consensus.replica.ReplicaOutput;
import org.ubft.consensus.runtime.ReplicaNode;
import org.ubft.consensus.wire.ConsensusWire;
import org.ubft.ctbcast.core.CtbcastMessage;
import org.ubft.ctbcast.node.CtbcastNode;
import org.ubft.sim.Omniscience;
import org.ubft.sim.SlotContext;
import org.ubft.sim.WideCtbcastChannel;

import java.util.Arrays;

/**
 * A replica that broadcasts, through its own CTBcast stream, messages longer than any valid one, each right behind a
 * COMMIT whose shares no receiver has verified, so that they reach the receivers while its stream is parked there.
 *
 * <p>Why: a correct receiver checks a peer's COMMIT certificate off its agent thread and parks the peer's stream
 * meanwhile; what CTBcast delivers of that stream waits in a per-peer room of slots sized for the largest valid CTBcast
 * message ({@code StreamChecks}, {@link MessageSizes#maxCtbcastBytes}). A message too long for a slot cannot wait there: the
 * receiver handles what waits first, then it (Lemma A.2 gives every correct receiver p's messages in the same order,
 * and whether p's message counts must not depend on whether it waited). Only a Byzantine broadcaster sends one; this
 * behaviour is that broadcaster.
 *
 * <p>With M the largest valid CTBcast message, C the longest message the CTBcast channel carries
 * ({@code CtbcastConfig.maxMessageBytes}: M in every configuration {@link ReplicaNode#ctbcastOptions} makes, larger
 * only where the nodes are built with a wider channel) and L = C + 64 the longest message a LOCK carries on the links
 * (they are sized for a SIGNED of C: its signature's 64 bytes), from virtual time {@code from} on, one salvo every
 * {@code period} of virtual time (a timer on the simulated network), each salvo
 * <ul>
 *   <li>a COMMIT for a slot at the far end of its window in its current view, with f + 1 shares of random bytes
 *       (receivers park its stream: the shares' checks go off the agent thread);</li>
 *   <li>a message of exactly M bytes (it fits a slot of the room: it waits behind the COMMIT);</li>
 *   <li>the salvo's target length, in turn: M + 1 and C (if C &gt; M: CTBcast delivers them, too long for the room),
 *       C + 1 and L (the LOCK of a message of M bytes rewritten on its way out to name one that long: the receivers'
 *       CTBcast refuses it as {@code TOO_LONG} before the consensus layer sees it, and delivers the message of M
 *       bytes by its SIGNED);</li>
 *   <li>another message of exactly M bytes.</li>
 * </ul>
 * Each message other than the COMMIT starts with a consensus type in turn (COMMIT, PREPARE, CHECKPOINT, SEAL_VIEW,
 * NEW_VIEW, none) and goes on with random bytes. Its stream's own messages (the replica follows the protocol
 * otherwise) go out unchanged. The receivers must drop each one, count it, and stay within their memory.
 */
public final class OversizedMessages extends ByzantineBehaviour {
    private static final int[] TYPES = {ConsensusWire.COMMIT, ConsensusWire.PREPARE, ConsensusWire.CHECKPOINT,
        ConsensusWire.SEAL_VIEW, ConsensusWire.NEW_VIEW, 0xEE};

    private final long period;
    private final int wideBy;
    // k of this stream's LOCKs to lengthen on the way out, and to how many bytes (a few salvos' worth)
    private final long[] lengthenK = new long[16];
    private final int[] lengthenTo = new int[16];
    private ReplicaOutput out;
    private ReplicaNode node;
    private int maxValid;
    private int channel;
    private int lockMax;
    private int[] targets;
    private long salvos;
    private long checkpoint;
    private long typeTurn;
    private long sentAtMax;
    private long longer;
    private long lengthened;
    private long locksLengthened;

    /**
     * @param wideBy 0 on the channel every node has by default; else how many bytes longer than the default this
     *               node's CTBcast messages may be (the correct nodes' too: {@link WideCtbcastChannel})
     */
    public OversizedMessages(long from, long period, int wideBy) {
        super(wideBy > 0 ? "oversized-messages-wide" : "oversized-messages", from);
        this.period = period;
        this.wideBy = wideBy;
    }

    @Override
    public CtbcastNode.Options ctbcastOptions(CtbcastNode.Options options) {
        return WideCtbcastChannel.widen(options, wideBy);
    }

    @Override
    public ReplicaOutput wrapOutput(ReplicaOutput output, SlotContext slot) {
        this.out = output;
        return new ForwardingOutput(output) {
            @Override
            public long ctbcast(DirectBuffer b, int off, int len) {
                if (ConsensusMessages.type(b, off, len) == ConsensusWire.CHECKPOINT && len >= 9) {
                    // state[me].checkpoint at the receivers: where the window of its COMMITs starts (PeerState.isOpen)
                    checkpoint = Math.max(checkpoint, b.getLong(off + 1, ConsensusMessages.ORDER));
                }
                return real.ctbcast(b, off, len);
            }
        };
    }

    @Override
    public void attach(ReplicaNode node, SlotContext slot) {
        this.node = node;
        maxValid = MessageSizes.maxCtbcastBytes(node.config());
        channel = node.ctbcast().config().maxMessageBytes();
        lockMax = CtbcastMessage.maxEncodedBytes(node.ctbcast().config()) - CtbcastMessage.HEADER_BYTES;
        targets = channel > maxValid ? new int[] {maxValid + 1, channel, channel + 1, lockMax}
            : new int[] {channel + 1, lockMax};
        Arrays.fill(lengthenK, -1);
        int me = slot.replica();
        int stream = CtbcastNode.streamId(me);
        node.ctbcast().links().outboundTap((to, streamId, flags, index, src, off, len, sink) -> {
            if (streamId == stream && to != me && len >= CtbcastMessage.HEADER_BYTES
                && src.getByte(off + CtbcastMessage.TYPE_OFFSET) == CtbcastMessage.LOCK) {
                int e = entry(src.getLong(off + CtbcastMessage.K_OFFSET, CtbcastMessage.ORDER));
                if (e >= 0) {
                    sink.send(to, streamId, flags, index, lengthened(src, off, len, lengthenTo[e], slot), 0,
                        CtbcastMessage.HEADER_BYTES + lengthenTo[e]);
                    locksLengthened++;
                    return;
                }
            }
            sink.send(to, streamId, flags, index, src, off, len);
        });
        Periodic.every(slot, from, period, this::salvo);
    }


    private void salvo(SlotContext slot) {
        int target = targets[(int) (salvos++ % targets.length)];
        acted();
        broadcast(commit(slot));
        broadcast(filled(maxValid, slot));
        if (target <= channel) {
            broadcast(filled(target, slot));
        } else {
            long k = node.ctbcast().nextOwnK(); // its LOCK goes out (in broadcast) naming a message of target bytes
            lengthenK[(int) (k % lengthenK.length)] = k;
            lengthenTo[(int) (k % lengthenK.length)] = target;
            if (broadcast(filled(maxValid, slot)) != k) {
                throw new IllegalStateException("CTBcast broadcast another k than " + k);
            }
            lengthened++;
        }
        broadcast(filled(maxValid, slot));
    }

    /** Broadcasts m on this replica's stream; past the largest valid message, around its stream log (it refuses). */
    private long broadcast(byte[] m) {
        UnsafeBuffer b = new UnsafeBuffer(m);
        if (m.length == maxValid) {
            sentAtMax++;
        } else if (m.length > maxValid) {
            longer++;
        }
        return m.length > maxValid ? node.ctbcast().broadcast(b, 0, m.length) : out.ctbcast(b, 0, m.length);
    }

    private int entry(long k) {
        int e = (int) (k % lengthenK.length);
        return lengthenK[e] == k ? e : -1;
    }

    /** The LOCK {@code src[off, off + len)} naming a message of {@code length} bytes: its own, then random bytes. */
    private static UnsafeBuffer lengthened(DirectBuffer src, int off, int len, int length, SlotContext slot) {
        byte[] m = new byte[CtbcastMessage.HEADER_BYTES + length];
        src.getBytes(off, m, 0, Math.min(len, m.length));
        UnsafeBuffer b = new UnsafeBuffer(m);
        b.putInt(CtbcastMessage.LENGTH_OFFSET, length, CtbcastMessage.ORDER);
        byte[] tail = new byte[m.length - len];
        slot.random().nextBytes(tail);
        b.putBytes(len, tail);
        return b;
    }

    /** A message of {@code length} bytes: a consensus type in turn, then random bytes. */
    private byte[] filled(int length, SlotContext slot) {
        byte[] m = new byte[length];
        slot.random().nextBytes(m);
        m[0] = (byte) TYPES[(int) (typeTurn++ % TYPES.length)];
        return m;
    }

    /**
     * ⟨COMMIT, v, s, empty batch, f + 1 random shares⟩ in its view, for a slot at the far end of the window its last
     * CHECKPOINT opened (a slot it has sent no COMMIT for: the receivers park its stream to check the shares).
     */
    private byte[] commit(SlotContext slot) {
        Omniscience o = slot.omniscience();
        int me = slot.replica();
        int window = slot.cluster().consensusWindow();
        long view = Math.max(0, o.view(me));
        long s = checkpoint + window - 1 - slot.random().nextInt(Math.min(4, window));
        int shares = slot.cluster().f() + 1;
        UnsafeBuffer m = ConsensusMessages.emptyCommit(view, s, shares);
        for (int i = 0; i < shares; i++) {
            int at = ConsensusMessages.commitShare(i);
            m.putShort(at, (short) ((me + 1 + i) % slot.cluster().n()), ConsensusMessages.ORDER);
            byte[] sig = new byte[ConsensusWire.SIGNATURE_BYTES];
            slot.random().nextBytes(sig);
            m.putBytes(at + 2, sig);
        }
        return m.byteArray();
    }

    /** The largest valid CTBcast message (M) and the channel's longest (C), once attached. */
    public int maxValid() {
        return maxValid;
    }

    public int channel() {
        return channel;
    }

    /** Salvos sent. */
    public long salvos() {
        return salvos;
    }

    /** Messages of exactly M bytes broadcast (placeholders of lengthened LOCKs included). */
    public long sentAtMax() {
        return sentAtMax;
    }

    /** Messages longer than M broadcast as such (C &gt; M only). */
    public long sentLonger() {
        return longer;
    }

    /** Messages whose LOCK went out naming more than C bytes; and those LOCKs sent (one per receiver and try). */
    public long lengthened() {
        return lengthened;
    }

    public long locksLengthened() {
        return locksLengthened;
    }
}
