package org.ubft.ctbcast.channel;

import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.common.NodeId;
import org.ubft.fabric.CompletionRouter;
import org.ubft.fabric.Fabric;
import org.ubft.fabric.FabricTestbed;
import org.ubft.fabric.LocalRegion;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * A tail channel from {@link #SENDER} to {@link #RECEIVER} over one testbed, driven from the test
 * thread: {@link #pump()} polls the sender's completions through a {@link CompletionRouter}, polls the
 * receiver and lets the fabric progress.
 */
final class ChannelHarness implements AutoCloseable {
    static final int SENDER = NodeId.replica(0);
    static final int RECEIVER = NodeId.replica(1);
    static final int REGION = 11;
    static final int TAG = 3;

    final FabricTestbed testbed;
    final TailChannelLayout layout;
    final Fabric senderFabric;
    final Fabric receiverFabric;
    final CompletionRouter router;
    final TailChannelSender sender;
    final DeliveryRecorder recorder;
    TailChannelReceiver receiver;
    private final UnsafeBuffer message;

    ChannelHarness(FabricTestbed testbed, int t, int maxMessageBytes, int stagingCapacity) {
        this.testbed = testbed;
        this.layout = new TailChannelLayout(t, maxMessageBytes);
        this.receiverFabric = testbed.open(RECEIVER);
        this.senderFabric = testbed.open(SENDER);
        this.receiver = TailChannelReceiver.register(receiverFabric, REGION, SENDER, layout);
        this.router = new CompletionRouter(senderFabric, 4);
        this.sender = new TailChannelSender(senderFabric, TAG, RECEIVER, REGION, layout, stagingCapacity);
        router.register(TAG, sender);
        this.recorder = new DeliveryRecorder(maxMessageBytes);
        this.message = new UnsafeBuffer(new byte[maxMessageBytes]);
    }

    /** Sends the test message of the next index. */
    long sendNext() {
        long index = sender.nextIndex();
        int len = Messages.fill(message, index, layout.maxMessageBytes());
        long sent = sender.send(message, 0, len);
        if (sent != index) {
            fail("sender gave index " + sent + ", expected " + index);
        }
        return index;
    }

    LocalRegion region() {
        return receiverFabric.localRegion(REGION);
    }

    /** One round: sender completions, receiver poll, a little fabric progress. */
    void pump() {
        router.poll(64);
        receiver.poll(recorder);
        testbed.progress();
    }

    /** One round without polling the receiver. */
    void pumpSenderOnly() {
        router.poll(64);
        testbed.progress();
    }

    /**
     * Runs until the sender has nothing in flight or staged, failing if it stalls for longer than the
     * testbed's completion bound; then lets the receiver take everything in its ring.
     */
    void drain() {
        long lastProgress = testbed.nanoTime();
        long completed = completedWrites();
        while (!sender.isIdle()) {
            pump();
            if (completedWrites() != completed) {
                completed = completedWrites();
                lastProgress = testbed.nanoTime();
            } else if (testbed.nanoTime() - lastProgress > testbed.completionBoundNanos()) {
                fail("sender stalled with " + sender.inFlight() + " in flight and " + sender.staged() + " staged");
            }
        }
        while (receiver.poll(recorder) > 0) {
            // take all that is ready
        }
    }

    private long completedWrites() {
        return sender.written() + sender.unreachableWrites() + sender.deniedWrites();
    }

    @Override
    public void close() {
        testbed.close();
    }
}
