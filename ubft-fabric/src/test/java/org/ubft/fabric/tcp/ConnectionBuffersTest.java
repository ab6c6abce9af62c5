package org.ubft.fabric.tcp;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConnectionBuffersTest {
    /** A channel that takes at most {@code perWrite} bytes per call, like a congested socket. */
    private static final class SlowChannel implements WritableByteChannel {
        final ByteArrayOutputStream received = new ByteArrayOutputStream();
        int perWrite;

        SlowChannel(int perWrite) {
            this.perWrite = perWrite;
        }

        @Override
        public int write(ByteBuffer src) {
            int n = Math.min(perWrite, src.remaining());
            for (int i = 0; i < n; i++) {
                received.write(src.get());
            }
            return n;
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public void close() {
        }
    }

    @Test
    void sendBufferNeverHoldsMoreThanItsLimitAndKeepsFrameOrder() throws IOException {
        SendBuffer tx = new SendBuffer(16, 100);
        SlowChannel channel = new SlowChannel(0);
        ByteArrayOutputStream sent = new ByteArrayOutputStream();
        int frames = 0;
        for (int round = 0; round < 50; round++) {
            int length = 10 + round % 30;
            int at = tx.reserve(length);
            if (at < 0) {
                channel.perWrite = 7;
                tx.flushTo(channel);
                channel.perWrite = 0;
                continue;
            }
            assertTrue(tx.capacity() <= 100, "capacity " + tx.capacity() + " over the limit");
            for (int i = 0; i < length; i++) {
                tx.view().putByte(at + i, (byte) (frames + i));
                sent.write(frames + i);
            }
            tx.commit(length);
            frames++;
        }
        channel.perWrite = Integer.MAX_VALUE;
        tx.flushTo(channel);
        assertTrue(!tx.hasPending());
        assertArrayEquals(sent.toByteArray(), channel.received.toByteArray(), "bytes leave in the order committed");
        assertEquals(-1, new SendBuffer(16, 100).reserve(101), "a frame over the limit never fits");
    }

    @Test
    void receiveBufferGrowsOnlyForCheckedFramesUpToItsLimit() throws IOException {
        ReceiveBuffer rx = new ReceiveBuffer(64, 1000);
        byte[] stream = new byte[900];
        for (int i = 0; i < stream.length; i++) {
            stream[i] = (byte) i;
        }
        ReadableByteChannel in = Channels.newChannel(new java.io.ByteArrayInputStream(stream));
        assertEquals(64, rx.readFrom(in));
        assertTrue(rx.isFull());
        rx.consume(10);
        rx.ensureFrameFits(900 - 10);
        assertTrue(rx.capacity() >= 890 && rx.capacity() <= 1000, "grew to " + rx.capacity());
        while (rx.available() < 890) {
            assertTrue(rx.readFrom(in) > 0);
        }
        for (int i = 0; i < 890; i++) {
            assertEquals((byte) (i + 10), rx.view().getByte(rx.readIndex() + i));
        }
        assertThrows(IllegalArgumentException.class, () -> rx.ensureFrameFits(1001));
    }
}
