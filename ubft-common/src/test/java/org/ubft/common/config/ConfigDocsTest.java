package org.ubft.common.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Files;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** The README's configuration table and the example cluster files document every key, with its default. */
class ConfigDocsTest {
    @Test
    void readmeTableHasEveryKeyWithItsDefault() throws IOException {
        String readme = Files.readString(ClusterFiles.repoRoot().resolve("README.md"));
        for (ConfigKey key : ConfigKey.values()) {
            String row = "| `" + key.key() + "` | " + (key.required() ? "required" : "`" + key.defaultTemplate() + "`") + " |";
            assertTrue(readme.contains(row), "README.md lacks the row starting " + row);
        }
        for (String endpoint : List.of("replica.<i>", "memnode.<j>", "client.<k>")) {
            assertTrue(readme.contains("| `" + endpoint + "` | required |"), "README.md lacks " + endpoint);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"conf/local-shm.properties", "conf/local-tcp.properties", "conf/local-rdma.properties"})
    void exampleFileSetsAndCommentsEveryKey(String name) throws IOException {
        List<String> lines = Files.readAllLines(ClusterFiles.repoRoot().resolve(name));
        for (ConfigKey key : ConfigKey.values()) {
            int at = -1;
            for (int i = 0; i < lines.size() && at < 0; i++) {
                at = lines.get(i).startsWith(key.key() + " =") ? i : -1;
            }
            assertTrue(at >= 0, name + " does not set " + key.key());
            assertTrue(at > 0 && lines.get(at - 1).startsWith("#"), name + ": no comment right above " + key.key());
        }
    }
}
