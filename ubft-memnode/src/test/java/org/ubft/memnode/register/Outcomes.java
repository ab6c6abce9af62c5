package org.ubft.memnode.register;

import org.agrona.DirectBuffer;
import org.ubft.fabric.Status;

import java.util.HashMap;
import java.util.Map;

/** Test helper: records completed writes and reads by id. */
final class Outcomes implements WriteListener, ReadListener {
    record Read(Status status, long timestamp, byte[] value) {
    }

    final Map<Long, Status> writes = new HashMap<>();
    final Map<Long, Read> reads = new HashMap<>();

    @Override
    public void onWriteComplete(long writeId, int register, long timestamp, Status status) {
        if (writes.put(writeId, status) != null) {
            throw new AssertionError("write " + writeId + " completed twice");
        }
    }

    @Override
    public void onReadComplete(long readId, Status status, long timestamp, DirectBuffer value, int offset,
                               int length) {
        byte[] bytes = new byte[length];
        value.getBytes(offset, bytes);
        if (reads.put(readId, new Read(status, timestamp, bytes)) != null) {
            throw new AssertionError("read " + readId + " completed twice");
        }
    }

    boolean written(long id) {
        return writes.containsKey(id);
    }

    boolean read(long id) {
        return reads.containsKey(id);
    }
}
