package org.ubft.cli;

import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;

/** One in-process run of a {@code ubft} command line: exit code, stdout and stderr. */
public final class CommandRun {
    public final int exitCode;
    public final String out;
    public final String err;

    private CommandRun(int exitCode, String out, String err) {
        this.exitCode = exitCode;
        this.out = out;
        this.err = err;
    }

    /** Runs {@code args} on a fresh {@link Ubft#newCommandLine()}. */
    public static CommandRun of(String... args) {
        return on(Ubft.newCommandLine(), args);
    }

    /** Runs {@code args} on {@code commandLine}, capturing its output. */
    static CommandRun on(CommandLine commandLine, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        int code = commandLine.execute(args);
        return new CommandRun(code, out.toString(), err.toString());
    }

    @Override
    public String toString() {
        return "exit " + exitCode + "\n--- out\n" + out + "--- err\n" + err;
    }
}
