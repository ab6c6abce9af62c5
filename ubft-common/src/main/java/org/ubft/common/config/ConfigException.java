package org.ubft.common.config;

import java.util.List;

/**
 * A cluster file (or a {@link ClusterConfig.Builder}) that cannot be used. The message is one line for
 * the user: it names the file, the key, the bad value and what is expected, for example
 * {@code conf/local-shm.properties: key 'ctbcast.tail' = 'abc': expected an integer from 2 to 4096}.
 * When several problems were found, the message gives the first one and says how many more there are;
 * {@link #problems()} lists them all.
 */
public final class ConfigException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String source;
    private final List<String> problems;

    /** One problem with {@code source} (a file path, or {@code "builder"}). */
    public ConfigException(String source, String problem) {
        this(source, List.of(problem), null);
    }

    /** One problem with {@code source} caused by {@code cause} (for example an I/O error). */
    public ConfigException(String source, String problem, Throwable cause) {
        this(source, List.of(problem), cause);
    }

    /** Several problems with {@code source}; {@code problems} must not be empty. */
    public ConfigException(String source, List<String> problems) {
        this(source, problems, null);
    }

    private ConfigException(String source, List<String> problems, Throwable cause) {
        super(message(source, problems), cause);
        this.source = source;
        this.problems = List.copyOf(problems);
    }

    private static String message(String source, List<String> problems) {
        if (problems.isEmpty()) {
            throw new IllegalArgumentException("a ConfigException needs at least one problem");
        }
        String first = source + ": " + problems.get(0);
        int more = problems.size() - 1;
        return more == 0 ? first : first + " (and " + more + " more problem" + (more == 1 ? "" : "s") + ")";
    }

    /** The file path, or {@code "builder"} for a programmatic configuration. */
    public String source() {
        return source;
    }

    /** Every problem found, in the order the checks run, each without the source prefix. */
    public List<String> problems() {
        return problems;
    }
}
