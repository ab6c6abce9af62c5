package org.ubft.cli;

import org.ubft.apps.flip.Flip;
import org.ubft.consensus.app.StateMachine;
import org.ubft.consensus.replica.ReplicaConfig;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

import java.util.Locale;

/** The applications and paths the commands accept, with the errors that name the accepted values. */
final class Apps {
    static final String NAMES = "flip";

    private Apps() {
    }

    /** A fresh instance of application {@code name}. */
    static StateMachine create(CommandLine cmd, String name) {
        if ("flip".equals(name)) {
            return new Flip();
        }
        throw new ParameterException(cmd, "--app must be " + NAMES + ", got '" + name + "'");
    }

    /** {@code fast} or {@code slow}. */
    static ReplicaConfig.Path path(CommandLine cmd, String name) {
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "fast" -> ReplicaConfig.Path.FAST;
            case "slow" -> ReplicaConfig.Path.SLOW;
            default -> throw new ParameterException(cmd, "--path must be fast or slow, got '" + name + "'");
        };
    }
}
