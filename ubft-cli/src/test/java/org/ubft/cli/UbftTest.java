package org.ubft.cli;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class UbftTest {
    @Test
    void helpShowsUsageAndTheSubcommands() {
        CommandRun run = CommandRun.of("--help");
        assertEquals(0, run.exitCode, run.toString());
        assertTrue(run.out.startsWith("Usage: ubft "), run.toString());
        assertTrue(run.out.contains("config"), run.toString());
        assertEquals("", run.err);
    }

    @Test
    void everyCommandHasHelp() {
        List<List<String>> paths = new ArrayList<>();
        collect(Ubft.newCommandLine(), new ArrayList<>(), paths);
        assertTrue(paths.contains(List.of("config", "check")), paths.toString());
        for (List<String> path : paths) {
            List<String> args = new ArrayList<>(path);
            args.add("--help");
            CommandRun run = CommandRun.of(args.toArray(new String[0]));
            assertEquals(0, run.exitCode, args + ": " + run);
            String usage = "Usage: " + String.join(" ", prepend("ubft", path));
            assertTrue(run.out.startsWith(usage), args + ": " + run);
        }
    }

    private static void collect(CommandLine command, List<String> path, List<List<String>> into) {
        into.add(path);
        for (CommandLine sub : command.getSubcommands().values()) {
            List<String> subPath = new ArrayList<>(path);
            subPath.add(sub.getCommandName());
            if (!into.contains(subPath)) {
                collect(sub, subPath, into);
            }
        }
    }

    private static List<String> prepend(String head, List<String> tail) {
        List<String> all = new ArrayList<>();
        all.add(head);
        all.addAll(tail);
        return all;
    }

    @Test
    void versionIsTheProjectVersion() {
        CommandRun run = CommandRun.of("--version");
        assertEquals(0, run.exitCode, run.toString());
        assertTrue(run.out.matches("(?s)ubft \\d+\\.\\d+\\.\\d+(-SNAPSHOT)?\\R.*"), run.toString());
    }

    @Test
    void noSubcommandIsAUsageError() {
        CommandRun run = CommandRun.of();
        assertEquals(2, run.exitCode, run.toString());
        assertTrue(run.err.contains("Missing required subcommand"), run.toString());
    }
}
