package org.ubft.cli;

import org.junit.jupiter.api.Test;
import org.ubft.common.config.ConfigException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.util.concurrent.Callable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The handling every subcommand inherits from {@link Ubft#newCommandLine()}. */
class ConfigErrorHandlerTest {
    @Command(name = "throws")
    static final class Throws implements Callable<Integer> {
        private final Exception toThrow;

        Throws(Exception toThrow) {
            this.toThrow = toThrow;
        }

        @Override
        public Integer call() throws Exception {
            throw toThrow;
        }
    }

    private static CommandRun runThrowing(Exception e) {
        CommandLine cl = Ubft.newCommandLine();
        cl.addSubcommand(new CommandLine(new Throws(e)));
        return CommandRun.on(cl, "throws");
    }

    @Test
    void configExceptionOfAnySubcommandIsOneLineAndExit2() {
        CommandRun run = runThrowing(new ConfigException("x.properties", "key 'f' = '0': expected an integer from 1 to 100"));
        assertEquals(Ubft.EXIT_CONFIG_ERROR, run.exitCode);
        assertEquals("x.properties: key 'f' = '0': expected an integer from 1 to 100" + System.lineSeparator(), run.err);
    }

    @Test
    void wrappedConfigExceptionIsFound() {
        CommandRun run = runThrowing(new IllegalStateException("starting",
                new ConfigException("y.properties", "missing required key 'fabric'")));
        assertEquals(2, run.exitCode);
        assertEquals("y.properties: missing required key 'fabric'" + System.lineSeparator(), run.err);
    }

    @Test
    void otherExceptionsAreNotHidden() {
        CommandRun run = runThrowing(new IllegalStateException("a bug"));
        assertEquals(1, run.exitCode);
        assertTrue(run.err.contains("java.lang.IllegalStateException: a bug"), run.toString());
        assertTrue(run.err.contains("\tat "), "keeps the stack trace: " + run);
    }
}
