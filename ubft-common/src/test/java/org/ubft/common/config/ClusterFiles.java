package org.ubft.common.config;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Cluster files for tests: a minimal valid one, variations of it, and the repository's examples. */
final class ClusterFiles {
    /** Required keys and the endpoints f = fm = 1 needs; everything else defaults. */
    static final String MINIMAL = String.join("\n",
            "cluster.name = test",
            "fabric = shm",
            "replica.0 = 127.0.0.1:17100",
            "replica.1 = 127.0.0.1:17101",
            "replica.2 = 127.0.0.1:17102",
            "memnode.0 = 127.0.0.1:17110",
            "memnode.1 = 127.0.0.1:17111",
            "memnode.2 = 127.0.0.1:17112",
            "client.0 = 127.0.0.1:17120",
            "");

    private ClusterFiles() {
    }

    /** Writes {@code text} to {@code dir/name}. */
    static Path write(Path dir, String name, String text) {
        try {
            Path file = dir.resolve(name);
            Files.createDirectories(file.getParent());
            Files.writeString(file, text);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@link #MINIMAL} without the line setting {@code key}. */
    static String minimalWithout(String key) {
        StringBuilder out = new StringBuilder();
        for (String line : MINIMAL.split("\n")) {
            if (!line.startsWith(key + " ")) {
                out.append(line).append('\n');
            }
        }
        if (out.length() == MINIMAL.length()) {
            throw new IllegalArgumentException("MINIMAL does not set " + key);
        }
        return out.toString();
    }

    /** The repository root: the first directory up from the working directory that holds conf/. */
    static Path repoRoot() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isDirectory(dir.resolve("conf"))) {
                return dir;
            }
        }
        throw new IllegalStateException("no conf/ directory above " + Path.of("").toAbsolutePath());
    }
}
