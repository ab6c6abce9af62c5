package org.ubft.apps.example;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** README.md shows {@link EmbeddingExampleTest}'s code as it is (from its class comment on, imports left out). */
class ReadmeSnippetTest {
    static final String EXAMPLE = "ubft-apps/src/test/java/org/ubft/apps/example/EmbeddingExampleTest.java";

    @Test
    void theReadmeEmbeddingExampleIsTheTestsCode() throws IOException {
        Path root = repoRoot();
        String file = Files.readString(root.resolve(EXAMPLE)).replace("\r\n", "\n");
        String code = file.substring(file.indexOf("\n/**") + 1).stripTrailing();
        String readme = Files.readString(root.resolve("README.md")).replace("\r\n", "\n");
        assertTrue(readme.contains("```java\n" + code + "\n```\n"), "README.md's embedding example differs from "
            + EXAMPLE + ": copy the file's code, from its class comment to its end, into the README's java block");
    }

    /** The repository root: the first directory above the working directory that holds README.md and conf/. */
    private static Path repoRoot() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve("README.md")) && Files.isDirectory(dir.resolve("conf"))) {
                return dir;
            }
        }
        throw new IllegalStateException("no README.md and conf/ above " + Path.of("").toAbsolutePath());
    }
}
