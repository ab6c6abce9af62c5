package org.ubft.cli;

import picocli.CommandLine.IVersionProvider;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/** The version of the project, written into {@code version.properties} by Maven resource filtering. */
public final class ProjectVersion implements IVersionProvider {
    private static final String RESOURCE = "version.properties";

    /** The project version, like {@code 0.1.0-SNAPSHOT}. */
    static String version() {
        try (InputStream in = ProjectVersion.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("org/ubft/cli/" + RESOURCE + " is missing from the class path;"
                        + " build ubft-cli with Maven");
            }
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("version");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public String[] getVersion() {
        return new String[] {
            "ubft " + version(),
            "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vm.name") + ")",
        };
    }
}
