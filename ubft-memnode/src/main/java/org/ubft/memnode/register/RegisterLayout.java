package org.ubft.memnode.register;

import org.ubft.common.NodeId;
import org.ubft.fabric.Fabric;

/**
 * Where registers live in a memory node's memory (paper §6.1, docs/design.md §5). Immutable.
 *
 * <p>A memory node hosts one <em>register region</em> per writer replica, with region id
 * {@link #REGION_ID_BASE} + the writer's replica index. A region is an array of
 * {@code arrays × registersPerArray} registers (for CTBcast: one array per broadcaster, so
 * {@code arrays = n}, and {@code registersPerArray = t}); register {@code i} of array {@code a} has index
 * {@code a × registersPerArray + i}. A register is two sub-registers written alternately; a sub-register is
 *
 * <pre>
 *   offset 0   timestamp   8 B, little-endian signed; correct writers use timestamps &gt;= 0
 *   offset 8   checksum    8 B, xxHash64 of the whole sub-register with this field read as zero,
 *                              so it covers timestamp, value and padding
 *   offset 16  value       valueBytes, then zero padding to a multiple of 8 B
 * </pre>
 *
 * All fields are 8-byte aligned, matching the fabric's 8-byte atomicity. A sub-register that is all zero
 * (as registration leaves it) holds the default value: timestamp {@link #DEFAULT_TIMESTAMP}, empty value.
 */
public final class RegisterLayout {
    /** Region id of writer replica 0's register region on every memory node; replica i uses base + i. */
    public static final int REGION_ID_BASE = 0x5245_0000; // "RE"
    /** Timestamp of the default value, returned for never-written registers and Byzantine writers. */
    public static final long DEFAULT_TIMESTAMP = -1;
    public static final int TIMESTAMP_OFFSET = 0;
    public static final int CHECKSUM_OFFSET = 8;
    public static final int VALUE_OFFSET = 16;
    /** Sub-registers per register (double buffering, §6.1). */
    public static final int SUB_REGISTERS = 2;

    private final int arrays;
    private final int registersPerArray;
    private final int valueBytes;
    private final int subRegisterBytes;
    private final int registerBytes;
    private final int registerCount;
    private final int regionBytes;

    /**
     * @param arrays            register arrays per writer (CTBcast: one per broadcaster, n)
     * @param registersPerArray registers per array (CTBcast: the tail t)
     * @param valueBytes        size of a register value (CTBcast: fingerprint and signature)
     */
    public RegisterLayout(int arrays, int registersPerArray, int valueBytes) {
        if (arrays <= 0 || registersPerArray <= 0 || valueBytes <= 0) {
            throw new IllegalArgumentException("arrays, registersPerArray and valueBytes must be positive, got "
                + arrays + ", " + registersPerArray + ", " + valueBytes);
        }
        long sub = subRegisterBytes(valueBytes);
        long region = regionBytes(arrays, registersPerArray, valueBytes);
        if (SUB_REGISTERS * sub > Fabric.MAX_OPERATION_BYTES) {
            throw new IllegalArgumentException("a register of " + SUB_REGISTERS * sub
                + " B does not fit in one fabric operation (" + Fabric.MAX_OPERATION_BYTES + " B)");
        }
        if (region > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("a register region of " + region + " B is too large");
        }
        this.arrays = arrays;
        this.registersPerArray = registersPerArray;
        this.valueBytes = valueBytes;
        this.subRegisterBytes = (int) sub;
        this.registerBytes = SUB_REGISTERS * (int) sub;
        this.registerCount = arrays * registersPerArray;
        this.regionBytes = (int) region;
    }

    /** Bytes of one sub-register: timestamp, checksum, value padded to 8 B. */
    public static long subRegisterBytes(int valueBytes) {
        return VALUE_OFFSET + (((long) valueBytes + 7) & ~7L);
    }

    /** Bytes of one writer's register region. */
    public static long regionBytes(int arrays, int registersPerArray, int valueBytes) {
        return (long) arrays * registersPerArray * SUB_REGISTERS * subRegisterBytes(valueBytes);
    }

    /**
     * Register memory of one memory node: one region per writer replica (paper Table 2, last row, counts
     * this for CTBcast with {@code arrays = n}, {@code registersPerArray = t}).
     */
    public static long memnodeFootprintBytes(int n, int arrays, int registersPerArray, int valueBytes) {
        if (n <= 0) {
            throw new IllegalArgumentException("n must be positive, got " + n);
        }
        return n * regionBytes(arrays, registersPerArray, valueBytes);
    }

    /** Register memory of one memory node serving {@code n} writer replicas with this layout. */
    public long memnodeFootprintBytes(int n) {
        return memnodeFootprintBytes(n, arrays, registersPerArray, valueBytes);
    }

    /** Region id of writer replica {@code writerIndex}'s registers on every memory node. */
    public static int regionId(int writerIndex) {
        if (writerIndex < 0 || writerIndex > NodeId.MAX_INDEX) {
            throw new IllegalArgumentException("writer index " + writerIndex + " outside 0.." + NodeId.MAX_INDEX);
        }
        return REGION_ID_BASE + writerIndex;
    }

    /** Index in a region of register {@code slot} of array {@code array}. */
    public int registerIndex(int array, int slot) {
        if (array < 0 || array >= arrays || slot < 0 || slot >= registersPerArray) {
            throw new IllegalArgumentException("register (" + array + ", " + slot + ") outside "
                + arrays + " × " + registersPerArray);
        }
        return array * registersPerArray + slot;
    }

    /** Offset in the region of register {@code register} (both sub-registers, {@link #registerBytes()} long). */
    public int registerOffset(int register) {
        checkRegister(register);
        return register * registerBytes;
    }

    /** Offset in the region of sub-register {@code sub} (0 or 1) of register {@code register}. */
    public int subRegisterOffset(int register, int sub) {
        if (sub < 0 || sub >= SUB_REGISTERS) {
            throw new IllegalArgumentException("sub-register " + sub + " is not 0 or 1");
        }
        return registerOffset(register) + sub * subRegisterBytes;
    }

    /** Throws IllegalArgumentException unless {@code register} is a register index of this layout. */
    public void checkRegister(int register) {
        if (register < 0 || register >= registerCount) {
            throw new IllegalArgumentException("register " + register + " outside 0.." + (registerCount - 1));
        }
    }

    public int arrays() {
        return arrays;
    }

    public int registersPerArray() {
        return registersPerArray;
    }

    public int valueBytes() {
        return valueBytes;
    }

    public int subRegisterBytes() {
        return subRegisterBytes;
    }

    public int registerBytes() {
        return registerBytes;
    }

    /** Registers per region. */
    public int registerCount() {
        return registerCount;
    }

    public int regionBytes() {
        return regionBytes;
    }

    @Override
    public String toString() {
        return "RegisterLayout{arrays=" + arrays + ", registersPerArray=" + registersPerArray
            + ", valueBytes=" + valueBytes + ", regionBytes=" + regionBytes + '}';
    }
}
