package org.ubft.cli;

import picocli.CommandLine.Command;

/** {@code ubft config}: commands about cluster files. It has subcommands only. */
@Command(name = "config",
        mixinStandardHelpOptions = true,
        versionProvider = ProjectVersion.class,
        description = "Work with cluster files (conf/*.properties).",
        subcommands = {ConfigCheckCommand.class})
public final class ConfigCommand {
}
