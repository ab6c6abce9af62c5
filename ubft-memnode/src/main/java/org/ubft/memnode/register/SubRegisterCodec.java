package org.ubft.memnode.register;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.ubft.common.Checksums;

import java.nio.ByteOrder;

import static org.ubft.memnode.register.RegisterLayout.CHECKSUM_OFFSET;
import static org.ubft.memnode.register.RegisterLayout.TIMESTAMP_OFFSET;
import static org.ubft.memnode.register.RegisterLayout.VALUE_OFFSET;

/**
 * Encodes and checks one sub-register in the format of {@link RegisterLayout}. Stateless; allocates nothing.
 * The buffers must be backed by a byte array or a ByteBuffer ({@link Checksums}).
 */
public final class SubRegisterCodec {
    /** Every multi-byte field of a register is little-endian, whatever the platform. */
    public static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;

    /** A sub-register whose checksum matches and whose timestamp is not negative. */
    public static final int VALID = 0;
    /** A sub-register of zeros only: never written; it holds the default value. */
    public static final int EMPTY = 1;
    /** Anything else: torn by a concurrent WRITE, or bogus. */
    public static final int INVALID = 2;

    private SubRegisterCodec() {
    }

    /**
     * Writes a sub-register at {@code index} of {@code dst}: {@code timestamp}, the layout's
     * {@code valueBytes} of {@code value} from {@code valueIndex}, zero padding, and the checksum.
     */
    public static void encode(MutableDirectBuffer dst, int index, RegisterLayout layout, long timestamp,
                              DirectBuffer value, int valueIndex) {
        int size = layout.subRegisterBytes();
        dst.setMemory(index, size, (byte) 0);
        dst.putLong(index + TIMESTAMP_OFFSET, timestamp, ORDER);
        dst.putBytes(index + VALUE_OFFSET, value, valueIndex, layout.valueBytes());
        dst.putLong(index + CHECKSUM_OFFSET, checksum(dst, index, size), ORDER);
    }

    /**
     * xxHash64 of the {@code size} bytes of the sub-register at {@code index}, its checksum field taken as
     * zero. The buffer is left as it was.
     */
    public static long checksum(MutableDirectBuffer buffer, int index, int size) {
        long stored = buffer.getLong(index + CHECKSUM_OFFSET, ORDER);
        buffer.putLong(index + CHECKSUM_OFFSET, 0L, ORDER);
        long sum = Checksums.xxHash64(buffer, index, size);
        buffer.putLong(index + CHECKSUM_OFFSET, stored, ORDER);
        return sum;
    }

    /** {@link #VALID}, {@link #EMPTY} or {@link #INVALID}, for the sub-register at {@code index}. */
    public static int classify(MutableDirectBuffer buffer, int index, RegisterLayout layout) {
        int size = layout.subRegisterBytes();
        if (isZero(buffer, index, size)) {
            return EMPTY;
        }
        if (timestamp(buffer, index) < 0) {
            return INVALID; // correct writers never use negative timestamps
        }
        return buffer.getLong(index + CHECKSUM_OFFSET, ORDER) == checksum(buffer, index, size) ? VALID : INVALID;
    }

    public static long timestamp(DirectBuffer buffer, int index) {
        return buffer.getLong(index + TIMESTAMP_OFFSET, ORDER);
    }

    private static boolean isZero(DirectBuffer buffer, int index, int size) {
        for (int i = 0; i < size; i += 8) {
            if (buffer.getLong(index + i) != 0L) {
                return false;
            }
        }
        return true;
    }
}
