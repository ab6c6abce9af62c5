package org.ubft.bench;

import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.ubft.common.Checksums;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

/**
 * xxHash64 through {@link Checksums} on the sizes the fabric layers hash: a register value (104 B), a
 * small tail-channel slot and a large one; heap and direct (memory-mapped regions are direct).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ChecksumBenchmark {
    @Param({"32", "104", "1024", "8192"})
    int size;

    @Param({"heap", "direct"})
    String memory;

    private UnsafeBuffer buffer;

    @Setup
    public void setUp() {
        buffer = memory.equals("heap")
            ? new UnsafeBuffer(new byte[size])
            : new UnsafeBuffer(ByteBuffer.allocateDirect(size));
        for (int i = 0; i < size; i++) {
            buffer.putByte(i, (byte) (i * 31));
        }
    }

    @Benchmark
    public long xxHash64() {
        return Checksums.xxHash64(buffer, 0, size);
    }
}
