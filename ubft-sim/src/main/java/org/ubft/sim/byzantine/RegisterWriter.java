package org.ubft.sim.byzantine;

import org.ubft.common.NodeId;
import org.ubft.consensus.runtime.ReplicaNode;
import org.ubft.ctbcast.core.CtbcastMessage;
import org.ubft.ctbcast.core.RegisterValue;
import org.ubft.ctbcast.node.CtbcastNode;
import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.memnode.register.RegisterLayout;
import org.ubft.memnode.register.SubRegisterCodec;
import org.ubft.sim.SlotContext;

/**
 * A replica whose register WRITEs to the memory nodes (docs/design.md §5) break the register protocol from virtual time
 * {@code from} on, through the simulated network's {@link org.ubft.fabric.sim.SimNetwork#writeTap} on its node:
 * {@link Mode#BOGUS_CHECKSUM} corrupts the checksum of every sub-register it writes; {@link Mode#NO_COOLDOWN} also
 * writes each sub-register's bytes to the other sub-register of the same register at once (both sub-registers written
 * within δ, with equal timestamps), which the cooldown forbids. Readers must take such a register as the default value
 * (or retry), never as a value the writer did not write whole. It also withholds its CTBcast LOCKED echoes (on its
 * links' {@link org.ubft.ctbcast.link.PeerLinks#outboundTap}), so that every CTBcast message takes the slow path,
 * where the receivers write and read the registers.
 */
public final class RegisterWriter extends ByzantineBehaviour {
    public enum Mode { BOGUS_CHECKSUM, NO_COOLDOWN }

    /** How often it writes a register it never wrote (virtual time). */
    static final long PERIOD_NANOS = 50_000;

    private final Mode mode;
    private int incarnation;

    public RegisterWriter(Mode mode, long from) {
        super("register-writer-" + mode.name().toLowerCase(java.util.Locale.ROOT), from);
        this.mode = mode;
    }

    @Override
    public void attach(ReplicaNode node, SlotContext slot) {
        incarnation = slot.incarnation();
        // CTBcast's registers: one array per broadcaster, t registers each, RegisterValue.BYTES values
        RegisterLayout layout = new RegisterLayout(slot.cluster().n(), slot.cluster().ctbcastTail(), RegisterValue.BYTES);
        int self = NodeId.replica(slot.replica());
        int region = RegisterLayout.regionId(slot.replica());
        int sub = layout.subRegisterBytes();
        // withhold its LOCKED echoes, so that CTBcast's fast path cannot complete and every message takes the slow
        // path: SIGNED, then each receiver writes its register (this one, through the tap) and reads the others'
        int n = slot.cluster().n();
        node.ctbcast().links().outboundTap((to, streamId, flags, index, src, off, len, sink) -> {
            boolean ctbcastStream = false;
            for (int p = 0; p < n; p++) {
                ctbcastStream |= streamId == CtbcastNode.streamId(p);
            }
            if (slot.now() >= from && ctbcastStream && len >= CtbcastMessage.HEADER_BYTES
                && src.getByte(off + CtbcastMessage.TYPE_OFFSET) == CtbcastMessage.LOCKED) {
                return;
            }
            sink.send(to, streamId, flags, index, src, off, len);
        });
        // its own register writes (a receiver's, on CTBcast's slow path), as they are posted
        slot.network().writeTap(self, (owner, regionId, offset, data) -> {
            if (slot.now() >= from && regionId == region && data.length == sub && offset % sub == 0) {
                corrupt(owner, offset, data, true, slot, layout);
            }
        });
        // and, every PERIOD, a register it never wrote (random array and slot), as the correct replicas' slow paths
        // read them: a bogus sub-register, or both sub-registers at once with equal timestamps
        long[] ts = {1L << 40};
        Runnable[] tick = new Runnable[1];
        tick[0] = () -> {
            if (incarnation != slot.incarnation() || !slot.network().isUp(self)) {
                return; // this incarnation is gone
            }
            if (slot.now() >= from) {
                int register = slot.random().nextInt(layout.registerCount());
                UnsafeBuffer value = new UnsafeBuffer(new byte[layout.valueBytes()]);
                slot.random().nextBytes(value.byteArray());
                UnsafeBuffer bytes = new UnsafeBuffer(new byte[sub]);
                SubRegisterCodec.encode(bytes, 0, layout, ts[0]++, value, 0);
                for (int memnode : slot.cluster().memnodeIds()) {
                    corrupt(memnode, layout.subRegisterOffset(register, 0), bytes.byteArray().clone(), false, slot,
                        layout);
                }
            }
            slot.network().schedule(PERIOD_NANOS, tick[0]);
        };
        slot.network().schedule(0, tick[0]);
    }

    /**
     * Breaks {@code data}, meant for the sub-register at {@code offset} of memory node {@code memnode}, the way of this
     * mode; {@code posted}: a WRITE of it is on its way already (the tap), else it is written here.
     */
    private void corrupt(int memnode, int offset, byte[] data, boolean posted, SlotContext slot, RegisterLayout layout) {
        int self = NodeId.replica(slot.replica());
        int region = RegisterLayout.regionId(slot.replica());
        int sub = layout.subRegisterBytes();
        acted();
        if (mode == Mode.BOGUS_CHECKSUM) {
            data[RegisterLayout.CHECKSUM_OFFSET] ^= 0x5A;
            if (!posted) {
                slot.network().injectWrite(self, memnode, region, offset, data);
            }
        } else {
            boolean first = offset % layout.registerBytes() == 0;
            if (!posted) {
                slot.network().injectWrite(self, memnode, region, offset, data);
            }
            slot.network().injectWrite(self, memnode, region, first ? offset + sub : offset - sub, data);
        }
    }
}
