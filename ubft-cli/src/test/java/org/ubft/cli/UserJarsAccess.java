package org.ubft.cli;

import java.nio.file.Path;

/** {@link UserJars} for tests in other packages. */
public final class UserJarsAccess {
    public static final String COUNTER = UserJars.COUNTER;
    public static final String FORGETFUL = UserJars.FORGETFUL;
    public static final String RANDOM = UserJars.RANDOM;

    private UserJarsAccess() {
    }

    public static Path counterJar(Path dir) {
        return UserJars.counterJar(dir);
    }
}
