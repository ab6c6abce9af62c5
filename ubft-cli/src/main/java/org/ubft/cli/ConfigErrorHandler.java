package org.ubft.cli;

import org.ubft.common.config.ConfigException;
import org.ubft.fabric.rdma.RdmaUnavailableException;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.ParseResult;

/**
 * Turns a {@link ConfigException} (or an {@link RdmaUnavailableException}: the host lacks DiSNI's native library or
 * an RDMA device) thrown by any subcommand (also as the cause of another exception) into
 * its message, on one line on stderr, without a stack trace, and exit code {@link Ubft#EXIT_CONFIG_ERROR}.
 * Any other exception goes on to picocli's default handling (stack trace, exit code 1): it is a bug to
 * report, not a user error.
 */
final class ConfigErrorHandler implements IExecutionExceptionHandler {
    @Override
    public int handleExecutionException(Exception ex, CommandLine commandLine, ParseResult parseResult) throws Exception {
        RuntimeException config = configCause(ex);
        if (config == null) {
            throw ex;
        }
        commandLine.getErr().println(config.getMessage().replaceAll("[\\r\\n]+", " "));
        commandLine.getErr().flush();
        return Ubft.EXIT_CONFIG_ERROR;
    }

    /** A ConfigException, or an RdmaUnavailableException (this host lacks what fabric = rdma needs): user errors. */
    private static RuntimeException configCause(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof ConfigException || c instanceof RdmaUnavailableException) {
                return (RuntimeException) c;
            }
        }
        return null;
    }
}
