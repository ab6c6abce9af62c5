package org.ubft.cli;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code --app CLASS --classpath JAR}: a user's own StateMachine, compiled into a jar at test time, runs in real
 * replica processes under {@code ubft local} with every reply checked against a local instance; a missing class, a
 * class that is not a StateMachine and a missing jar each stop the command with exit 2 and a message that says so.
 */
class UserStateMachineTest {
    @TempDir
    static Path dir;
    private static Path jar;

    @BeforeAll
    static void compile() {
        jar = UserJars.counterJar(dir);
    }

    @Test
    void localRunsTheUsersClassFromItsJarAndChecksEveryReply() {
        Path file = TestClusters.write("shm", 100);
        CommandRun run = CommandRun.of("local", "--config", file.toString(), "--app", UserJars.COUNTER,
            "--classpath", jar.toString(), "--requests", "300", "--payload", "8");
        assertEquals(0, run.exitCode, run.toString());
        assertTrue(run.out.contains("result=OK every reply matched a local instance of " + UserJars.COUNTER),
            run.toString());
        assertTrue(run.out.contains("app=" + UserJars.COUNTER), run.toString());
    }

    @Test
    void aMissingClassIsNamedWithTheJar() {
        Path file = TestClusters.write("shm", 100);
        CommandRun run = CommandRun.of("replica", "--config", file.toString(), "--id", "0", "--app",
            "com.example.userapp.Missing", "--classpath", jar.toString());
        assertEquals(2, run.exitCode, run.toString());
        assertTrue(run.err.contains("--app com.example.userapp.Missing: no class com.example.userapp.Missing in "
            + jar), run.toString());
    }

    @Test
    void aClassThatIsNotAStateMachineIsRefused() {
        Path file = TestClusters.write("shm", 100);
        CommandRun run = CommandRun.of("replica", "--config", file.toString(), "--id", "0", "--app",
            "java.lang.StringBuilder");
        assertEquals(2, run.exitCode, run.toString());
        assertTrue(run.err.contains("does not implement org.ubft.consensus.app.StateMachine"), run.toString());
        CommandRun nemesis = CommandRun.of("nemesis", "--app", "java.lang.StringBuilder");
        assertEquals(2, nemesis.exitCode, nemesis.toString());
        assertTrue(nemesis.err.contains("does not implement org.ubft.consensus.app.StateMachine"), nemesis.toString());
    }

    @Test
    void aMissingJarOrAJarWithoutAClassIsRefused() {
        Path file = TestClusters.write("shm", 100);
        CommandRun run = CommandRun.of("replica", "--config", file.toString(), "--id", "0", "--app",
            UserJars.COUNTER, "--classpath", dir.resolve("nowhere.jar").toString());
        assertEquals(2, run.exitCode, run.toString());
        assertTrue(run.err.contains("no such file or directory"), run.toString());
        CommandRun builtIn = CommandRun.of("replica", "--config", file.toString(), "--id", "0", "--app", "flip",
            "--classpath", jar.toString());
        assertEquals(2, builtIn.exitCode, builtIn.toString());
        assertTrue(builtIn.err.contains("goes with --app CLASS"), builtIn.toString());
    }
}
