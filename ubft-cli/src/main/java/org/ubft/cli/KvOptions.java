package org.ubft.cli;

import org.ubft.apps.kv.store.StoreLimits;
import picocli.CommandLine;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * The key-value store's bounds ({@code --app kv}): {@code @Mixin KvOptions kv;}. Every replica of a cluster must be
 * given the same values.
 */
public final class KvOptions {
    static final String NAMES = "--kv-max-keys, --kv-max-bytes and --kv-max-value-bytes";
    private static final StoreLimits DEFAULTS = StoreLimits.defaults();

    @Option(names = "--kv-max-keys", paramLabel = "N",
            description = "kv: most keys the store holds; more writes get -OOM / SERVER_ERROR out of memory (default: "
                + "100000). Give every replica the same value.")
    private Integer maxKeys;

    @Option(names = "--kv-max-bytes", paramLabel = "BYTES",
            description = "kv: most bytes the store holds, counting key + value + 64 per key (default: 8388608 ="
                + " 8 MiB, at most about 2 GiB). A replica allocates about four times this, plus four times the"
                + " transfer room, for state transfer at start: give it the heap (UBFT_JAVA_OPTS=-Xmx...)."
                + " Give every replica the same value.")
    private Long maxBytes;

    @Option(names = "--kv-max-value-bytes", paramLabel = "BYTES",
            description = "kv: largest value (default: 1048576 = 1 MiB). Give every replica the same value.")
    private Integer maxValueBytes;

    /** Whether any of these options was given. */
    static boolean given(CommandLine cmd) {
        CommandLine.ParseResult r = cmd.getParseResult();
        return r.hasMatchedOption("--kv-max-keys") || r.hasMatchedOption("--kv-max-bytes")
            || r.hasMatchedOption("--kv-max-value-bytes");
    }

    /** The limits; exit 2 naming the option if they are not valid. */
    StoreLimits limits(CommandLine cmd) {
        try {
            return new StoreLimits(maxKeys != null ? maxKeys : DEFAULTS.maxKeys(),
                maxBytes != null ? maxBytes : DEFAULTS.maxBytes(),
                maxValueBytes != null ? maxValueBytes : DEFAULTS.maxValueBytes());
        } catch (IllegalArgumentException e) {
            throw new ParameterException(cmd, NAMES + ": " + e.getMessage());
        }
    }
}
