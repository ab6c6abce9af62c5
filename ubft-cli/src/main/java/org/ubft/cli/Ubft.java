package org.ubft.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code ubft} command, run by {@code bin/ubft}. Each subcommand is one class listed in
 * {@code subcommands} below, with {@code mixinStandardHelpOptions = true} so that {@code --help} and
 * {@code --version} work on it. Subcommands signal a bad cluster file by throwing
 * {@link org.ubft.common.config.ConfigException}; {@link ConfigErrorHandler} turns it into one line on
 * stderr and exit code {@value #EXIT_CONFIG_ERROR} for all of them.
 */
@Command(name = "ubft",
        mixinStandardHelpOptions = true,
        versionProvider = ProjectVersion.class,
        description = "uBFT-J: Byzantine fault-tolerant state-machine replication with disaggregated memory.",
        subcommands = {ConfigCommand.class, KeygenCommand.class, MemnodeCommand.class, ReplicaCommand.class,
            ClientCommand.class, LocalCommand.class, SimCommand.class, GatewayCommand.class, NemesisCommand.class,
            org.ubft.cli.bench.BenchCommand.class, KvLoadCommand.class})
public final class Ubft {
    /** Exit code of a run stopped by a bad cluster file (as for a bad command line, picocli's usage code). */
    public static final int EXIT_CONFIG_ERROR = CommandLine.ExitCode.USAGE;

    /** Runs the command line {@code args} and exits with its exit code. */
    public static void main(String[] args) {
        System.exit(newCommandLine().execute(args));
    }

    /** The {@code ubft} command line with every subcommand and the shared error handling; for main and tests. */
    public static CommandLine newCommandLine() {
        return new CommandLine(new Ubft()).setExecutionExceptionHandler(new ConfigErrorHandler());
    }
}
