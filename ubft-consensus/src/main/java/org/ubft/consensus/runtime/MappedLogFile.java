package org.ubft.consensus.runtime;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.function.UnaryOperator;

/**
 * A replica's fixed-size, memory-mapped log file ({@link OwnStreamLog}, {@link DecisionLog}): created with its
 * directories if missing, refused if it exists with another size.
 */
record MappedLogFile(MappedByteBuffer buffer, boolean existed) {
    /**
     * Maps {@code file} at {@code size} bytes.
     *
     * @param mismatch turns what differs into the whole message (naming the file, the problem and the fix)
     * @throws OwnStreamLog.UnusableLogException if the file exists with another size
     * @throws IOException                       if it cannot be created or mapped
     */
    static MappedLogFile map(Path file, long size, UnaryOperator<String> mismatch) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        if (dir != null) {
            Files.createDirectories(dir);
        }
        boolean existed = Files.exists(file) && Files.size(file) > 0;
        if (existed && Files.size(file) != size) {
            throw new OwnStreamLog.UnusableLogException(mismatch.apply("its size is " + Files.size(file)
                + " bytes, not " + size), null);
        }
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
            StandardOpenOption.WRITE)) {
            return new MappedLogFile(ch.map(FileChannel.MapMode.READ_WRITE, 0, size), existed);
        }
    }
}
