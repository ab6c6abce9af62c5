package org.ubft.memnode.register;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NanoClock;
import org.ubft.fabric.CompletionRouter;
import org.ubft.fabric.Fabric;
import org.ubft.fabric.Status;

/**
 * A replica's register client on one fabric: a {@link RegisterWriter} for its own registers and a
 * {@link RegisterReader} for everyone's, sharing the fabric's completions through a
 * {@link CompletionRouter}. {@link #doWork()} is its duty cycle. The blocking {@link #write} and
 * {@link #read} drive that cycle until the operation completes; they are for tools, demos and
 * benchmarks that run in real time, not for protocol cores, which use the listeners instead.
 */
public final class RegisterEndpoint {
    /** Tags of the two components in work-request ids. */
    public static final int WRITER_TAG = 1;
    public static final int READER_TAG = 2;

    private final Fabric fabric;
    private final NanoClock clock;
    private final CompletionRouter router;
    private final RegisterWriter writer;
    private final RegisterReader reader;
    private final RegisterLayout layout;

    private long awaitedId = -1;
    private Status awaitedStatus;
    private long awaitedTimestamp;
    private MutableDirectBuffer readInto;
    private int readIntoIndex;

    /**
     * @param writerIndex the replica index of this endpoint (whose register region it may write)
     */
    public RegisterEndpoint(Fabric fabric, NanoClock clock, RegisterLayout layout, int writerIndex,
                            RegisterClientConfig config) {
        this(new CompletionRouter(fabric, 4), clock, layout, writerIndex, config);
    }

    /**
     * An endpoint that shares {@code router} (and its fabric) with other components; it registers the tags
     * {@link #WRITER_TAG} and {@link #READER_TAG}.
     */
    public RegisterEndpoint(CompletionRouter router, NanoClock clock, RegisterLayout layout, int writerIndex,
                            RegisterClientConfig config) {
        Fabric fabric = router.fabric();
        this.fabric = fabric;
        this.clock = clock;
        this.layout = layout;
        this.router = router;
        this.writer = new RegisterWriter(fabric, clock, layout, writerIndex, config, WRITER_TAG, this::onWrite);
        this.reader = new RegisterReader(fabric, clock, layout, config, READER_TAG, this::onRead);
        router.register(WRITER_TAG, writer::onCompletion);
        router.register(READER_TAG, reader::onCompletion);
    }

    /** One duty cycle: completions, then deferred writes and retries. */
    public int doWork() {
        return router.poll(64) + writer.doWork() + reader.doWork();
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

    public Fabric fabric() {
        return fabric;
    }

    /**
     * Writes {@code value} with {@code timestamp} to {@code register} and waits for the outcome.
     *
     * @return the write's status, or {@code null} if it did not complete within {@code timeoutNanos}
     *         (it stays pending: with a majority of memory nodes down it never completes)
     */
    public Status write(int register, long timestamp, DirectBuffer value, int index, IdleStrategy idle,
                        long timeoutNanos) {
        long deadline = clock.nanoTime() + timeoutNanos;
        if (!awaitFreeSlot(true, idle, deadline)) {
            return null;
        }
        awaitedId = writer.write(register, timestamp, value, index, layout.valueBytes());
        return await(idle, deadline);
    }

    /**
     * Reads register {@code register} of replica {@code writerIndex} into {@code dst} and waits for it.
     *
     * @return the value's timestamp ({@link RegisterLayout#DEFAULT_TIMESTAMP} for the default value), or
     *         {@code Long.MIN_VALUE} if the read failed or did not complete within {@code timeoutNanos}
     */
    public long read(int writerIndex, int register, MutableDirectBuffer dst, int dstIndex, IdleStrategy idle,
                     long timeoutNanos) {
        long deadline = clock.nanoTime() + timeoutNanos;
        if (!awaitFreeSlot(false, idle, deadline)) {
            return Long.MIN_VALUE;
        }
        readInto = dst;
        readIntoIndex = dstIndex;
        awaitedId = reader.read(writerIndex, register);
        Status s = await(idle, deadline);
        readInto = null;
        return s == Status.SUCCESS ? awaitedTimestamp : Long.MIN_VALUE;
    }

    /**
     * An operation keeps its slot until every memory node answered, so after a memory node crash a slot
     * frees only when the operation on it times out: wait for one rather than fail.
     */
    private boolean awaitFreeSlot(boolean forWrite, IdleStrategy idle, long deadline) {
        idle.reset();
        while ((forWrite ? writer.freeSlots() : reader.freeSlots()) == 0) {
            if (clock.nanoTime() - deadline >= 0) {
                return false;
            }
            idle.idle(doWork());
        }
        return true;
    }

    private Status await(IdleStrategy idle, long deadline) {
        awaitedStatus = null;
        idle.reset();
        while (awaitedStatus == null && clock.nanoTime() - deadline < 0) {
            idle.idle(doWork());
        }
        awaitedId = -1;
        return awaitedStatus;
    }

    private void onWrite(long writeId, int register, long timestamp, Status status) {
        if (writeId == awaitedId) {
            awaitedStatus = status;
        }
    }

    private void onRead(long readId, Status status, long timestamp, DirectBuffer value, int offset, int length) {
        if (readId == awaitedId) {
            awaitedTimestamp = timestamp;
            if (readInto != null && length > 0) {
                readInto.putBytes(readIntoIndex, value, offset, length);
            }
            awaitedStatus = status;
        }
    }
}
