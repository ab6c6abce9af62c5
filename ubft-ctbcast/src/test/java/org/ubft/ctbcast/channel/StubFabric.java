package org.ubft.ctbcast.channel;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.ubft.fabric.CompletionHandler;
import org.ubft.fabric.Fabric;
import org.ubft.fabric.LocalRegion;
import org.ubft.fabric.Permissions;

/**
 * A fabric that only records the WRITEs posted to it (no allocation), for sans-IO tests of the sender:
 * the test completes operations itself by calling the sender's completion handler.
 */
final class StubFabric implements Fabric {
    int outstanding;
    int maxOutstanding = 1 << 20;
    long writes;
    long lastId;
    int lastOffset;
    int lastLength;
    DirectBuffer lastSrc;
    int lastSrcIndex;

    @Override
    public int localNode() {
        return ChannelHarness.SENDER;
    }

    @Override
    public LocalRegion register(int regionId, int length, Permissions permissions) {
        throw new UnsupportedOperationException();
    }

    @Override
    public LocalRegion localRegion(int regionId) {
        return null;
    }

    @Override
    public void read(long workRequestId, int owner, int regionId, int offset, MutableDirectBuffer dst, int dstIndex, int length) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void write(long workRequestId, int owner, int regionId, int offset, DirectBuffer src, int srcIndex, int length) {
        outstanding++;
        writes++;
        lastId = workRequestId;
        lastOffset = offset;
        lastLength = length;
        lastSrc = src;
        lastSrcIndex = srcIndex;
    }

    /** The test calls this when it completes an operation through the sender. */
    void completed() {
        outstanding--;
    }

    @Override
    public int poll(CompletionHandler handler, int limit) {
        return 0;
    }

    @Override
    public int outstanding() {
        return outstanding;
    }

    @Override
    public int maxOutstanding() {
        return maxOutstanding;
    }

    @Override
    public void close() {
    }
}
