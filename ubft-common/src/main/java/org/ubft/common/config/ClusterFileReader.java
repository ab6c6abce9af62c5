package org.ubft.common.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * Reads a cluster file with {@link Properties#load(Reader)} syntax (UTF-8), keeping the keys in file
 * order and noting keys set more than once, which plain {@code Properties} would silently overwrite.
 */
final class ClusterFileReader {
    /** The entries of a file, in file order, with trailing blanks of values removed. */
    final Map<String, String> entries = new LinkedHashMap<>();
    /** Keys that appear more than once, each listed once. */
    final List<String> duplicateKeys = new ArrayList<>();

    private ClusterFileReader() {
    }

    static ClusterFileReader read(Path file, String source) {
        ClusterFileReader reader = new ClusterFileReader();
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            new RecordingProperties(reader).load(in);
        } catch (NoSuchFileException e) {
            throw new ConfigException(source,
                    "no such file; give the path of a cluster file, like conf/local-shm.properties", e);
        } catch (IOException | IllegalArgumentException e) {
            throw new ConfigException(source, "cannot read the cluster file (" + e + "); it must be a readable"
                    + " UTF-8 file of 'key = value' lines", e);
        }
        return reader;
    }

    /** {@code Properties.load} calls {@code put} once per line, in file order. */
    private static final class RecordingProperties extends Properties {
        private static final long serialVersionUID = 1L;
        private final transient ClusterFileReader target;

        RecordingProperties(ClusterFileReader target) {
            this.target = target;
        }

        @Override
        public synchronized Object put(Object key, Object value) {
            String k = (String) key;
            String v = ((String) value).strip();
            if (target.entries.containsKey(k) && !target.duplicateKeys.contains(k)) {
                target.duplicateKeys.add(k);
            }
            target.entries.put(k, v);
            return super.put(key, value);
        }
    }
}
