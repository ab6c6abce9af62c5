package org.ubft.fabric.shm;

import java.nio.file.Path;

/**
 * A file under a region file's name that a poster cannot use: malformed header, wrong version, inconsistent
 * size, or an I/O error. Peer-written data, so it is counted and the operation denied, never propagated.
 */
final class UnusableRegionFileException extends Exception {
    private static final long serialVersionUID = 1L;

    UnusableRegionFileException(Path file, String reason) {
        super(file.getFileName() + ": " + reason, null, false, false);
    }
}
