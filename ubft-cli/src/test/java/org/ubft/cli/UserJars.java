package org.ubft.cli;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/**
 * Jars of a user's own StateMachine, compiled from source at test time so that the class is on no class path but the
 * jar's (what {@code --app CLASS --classpath JAR} must load).
 */
final class UserJars {
    /** The class in {@link #counterJar}: a counter; a request of 8 bytes is a long to add, the reply the new total. */
    static final String COUNTER = "com.example.userapp.Counter";

    private static final String COUNTER_SOURCE = """
        package com.example.userapp;

        import java.nio.ByteBuffer;
        import org.ubft.consensus.app.StateMachine;

        public final class Counter implements StateMachine {
            private long total;

            @Override
            public byte[] execute(byte[] request) {
                if (request.length != Long.BYTES) {
                    return new byte[0];
                }
                total += ByteBuffer.wrap(request).getLong();
                return ByteBuffer.allocate(Long.BYTES).putLong(total).array();
            }

            @Override
            public byte[] snapshot() {
                return ByteBuffer.allocate(Long.BYTES).putLong(total).array();
            }

            @Override
            public void restore(byte[] snapshot) {
                total = ByteBuffer.wrap(snapshot).getLong();
            }

            @Override
            public int maxSnapshotBytes() {
                return Long.BYTES;
            }
        }
        """;

    /**
     * A broken counter in the same jar: its snapshot forgets the total (a restored replica starts again from 0), so
     * replies after a restart from a checkpoint differ from a correct execution's.
     */
    static final String FORGETFUL = "com.example.userapp.Forgetful";

    private static final String FORGETFUL_SOURCE = COUNTER_SOURCE.replace("class Counter", "class Forgetful")
        .replace("return ByteBuffer.allocate(Long.BYTES).putLong(total).array();\n    }\n\n    @Override\n    public void restore",
            "return new byte[Long.BYTES];\n    }\n\n    @Override\n    public void restore");

    /**
     * A broken machine in the same jar: its reply depends on the process it runs in (not deterministic), so replicas never send
     * f+1 equal replies and a client waits for good.
     */
    static final String RANDOM = "com.example.userapp.Random";

    private static final String RANDOM_SOURCE = COUNTER_SOURCE.replace("class Counter", "class Random")
        .replace("total += ByteBuffer.wrap(request).getLong();", "total += ProcessHandle.current().pid();");

    private UserJars() {
    }

    /** A jar in {@code dir} holding {@link #COUNTER}, {@link #FORGETFUL} and {@link #RANDOM}. */
    static Path counterJar(Path dir) {
        try {
            Path src = dir.resolve("src/com/example/userapp");
            Files.createDirectories(src);
            Files.writeString(src.resolve("Counter.java"), COUNTER_SOURCE);
            Files.writeString(src.resolve("Forgetful.java"), FORGETFUL_SOURCE);
            Files.writeString(src.resolve("Random.java"), RANDOM_SOURCE);
            if (FORGETFUL_SOURCE.equals(COUNTER_SOURCE.replace("class Counter", "class Forgetful"))) {
                throw new AssertionError("the forgetful snapshot was not written");
            }
            Path classes = Files.createDirectories(dir.resolve("classes"));
            JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
            int rc = javac.run(null, null, null, "-d", classes.toString(), "-cp",
                System.getProperty("java.class.path"), src.resolve("Counter.java").toString(),
                src.resolve("Forgetful.java").toString(), src.resolve("Random.java").toString());
            if (rc != 0) {
                throw new AssertionError("javac failed with " + rc);
            }
            Path jar = dir.resolve("userapp.jar");
            try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar));
                 Stream<Path> files = Files.walk(classes)) {
                for (Path f : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
                    out.putNextEntry(new JarEntry(classes.relativize(f).toString().replace('\\', '/')));
                    Files.copy(f, (OutputStream) out);
                    out.closeEntry();
                }
            }
            return jar;
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }
}
