package org.ubft.ctbcast.core;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.NanoClock;
import org.ubft.fabric.CompletionRouter;
import org.ubft.fabric.Status;
import org.ubft.memnode.register.RegisterClientConfig;
import org.ubft.memnode.register.RegisterLayout;
import org.ubft.memnode.register.RegisterReader;
import org.ubft.memnode.register.RegisterWriter;

/**
 * {@link RegisterPort} over the replicated SWMR regular registers of ubft-memnode: a {@link RegisterWriter}
 * for this replica's own register region and a {@link RegisterReader} for everyone's, both on one
 * {@link CompletionRouter}. The register layout is {@link #layout(CtbcastConfig)}: one array per broadcaster,
 * t registers per array, {@link RegisterValue#BYTES}-byte values. Sans-IO: whoever owns the router polls it;
 * {@link #doWork()} runs the writer's and reader's timers (cooldown δ, retries).
 */
public final class ReplicatedRegisterPort implements RegisterPort {
    /** Default routing tags (the memnode's own {@code RegisterEndpoint} uses 1 and 2). */
    public static final int WRITER_TAG = 3;
    public static final int READER_TAG = 4;
    private static final int OPERATION_SLOT_MASK = 0xFFFF; // operation ids are generation << 16 | slot

    private final RegisterLayout layout;
    private final RegisterWriter writer;
    private final RegisterReader reader;
    private final long[] writeIds;
    private final long[] writeTokens;
    private final long[] readIds;
    private final long[] readTokens;
    private RegisterListener listener;

    /**
     * @param me the replica index whose register region this replica writes
     */
    public ReplicatedRegisterPort(CompletionRouter router, NanoClock clock, CtbcastConfig ctbcast, int me,
                                  RegisterClientConfig config, int writerTag, int readerTag) {
        this.layout = layout(ctbcast);
        this.writer = new RegisterWriter(router.fabric(), clock, layout, me, config, writerTag, this::onWrite);
        this.reader = new RegisterReader(router.fabric(), clock, layout, config, readerTag, this::onRead);
        router.register(writerTag, writer::onCompletion);
        router.register(readerTag, reader::onCompletion);
        int slots = config.maxConcurrentOps();
        writeIds = new long[slots];
        writeTokens = new long[slots];
        readIds = new long[slots];
        readTokens = new long[slots];
        java.util.Arrays.fill(writeIds, -1);
        java.util.Arrays.fill(readIds, -1);
    }

    /** The register layout of CTBcast: n arrays (one per broadcaster) of t registers of 104 bytes. */
    public static RegisterLayout layout(CtbcastConfig config) {
        return new RegisterLayout(config.n(), config.t(), RegisterValue.BYTES);
    }

    /** Where results go (the replica's core). */
    public void bind(RegisterListener listener) {
        this.listener = listener;
    }

    @Override
    public boolean write(long token, int broadcaster, int slot, long k, DirectBuffer value, int offset) {
        if (writer.freeSlots() == 0) {
            return false;
        }
        long id = writer.write(layout.registerIndex(broadcaster, slot), k, value, offset, RegisterValue.BYTES);
        int i = (int) id & OPERATION_SLOT_MASK;
        writeIds[i] = id;
        writeTokens[i] = token;
        return true;
    }

    @Override
    public boolean read(long token, int owner, int broadcaster, int slot) {
        if (reader.freeSlots() == 0) {
            return false;
        }
        long id = reader.read(owner, layout.registerIndex(broadcaster, slot));
        int i = (int) id & OPERATION_SLOT_MASK;
        readIds[i] = id;
        readTokens[i] = token;
        return true;
    }

    /** The writer's and reader's timers: deferred writes (cooldown δ) and retries. */
    public int doWork() {
        return writer.doWork() + reader.doWork();
    }

    public RegisterWriter writer() {
        return writer;
    }

    public RegisterReader reader() {
        return reader;
    }

    public RegisterLayout layout() {
        return layout;
    }

    private void onWrite(long writeId, int register, long timestamp, Status status) {
        int i = (int) writeId & OPERATION_SLOT_MASK;
        if (i < writeIds.length && writeIds[i] == writeId) {
            writeIds[i] = -1;
            listener.onRegisterWritten(writeTokens[i], timestamp, status == Status.SUCCESS);
        }
    }

    private void onRead(long readId, Status status, long timestamp, DirectBuffer value, int offset, int length) {
        int i = (int) readId & OPERATION_SLOT_MASK;
        if (i < readIds.length && readIds[i] == readId) {
            readIds[i] = -1;
            listener.onRegisterRead(readTokens[i], status == Status.SUCCESS, timestamp, value, offset, length);
        }
    }
}
