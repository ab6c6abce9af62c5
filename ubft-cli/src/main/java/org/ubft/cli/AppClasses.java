package org.ubft.cli;

import org.ubft.consensus.app.StateMachine;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Supplier;

/**
 * The user's own {@link StateMachine} named by {@code --app CLASS} (a fully qualified class name), loaded from
 * {@code --classpath JAR} (a jar file or a directory of classes) or, without it, from the {@code ubft} class path.
 * The class must implement {@link StateMachine} and have a public constructor without arguments; every problem is a
 * {@link ParameterException} (exit 2) that names the class, the jar and the fix.
 */
final class AppClasses {
    private AppClasses() {
    }

    /** True if {@code name} looks like a class name (it has a dot), not one of the built-in application names. */
    static boolean isClassName(String name) {
        return name != null && name.indexOf('.') > 0;
    }

    /**
     * A factory of fresh instances of {@code className} (each call a new, empty state machine).
     *
     * @throws ParameterException if the jar is missing, the class is missing, is not a {@link StateMachine}, cannot
     *                            be instantiated or its constructor throws
     */
    static Supplier<StateMachine> factory(CommandLine cmd, String className, Path classpath) {
        ClassLoader loader = loader(cmd, classpath);
        String where = classpath == null ? "on the class path of ubft (give --classpath JAR)" : "in " + classpath;
        Class<?> type;
        try {
            type = Class.forName(className, true, loader);
        } catch (ClassNotFoundException | NoClassDefFoundError e) {
            throw new ParameterException(cmd, "--app " + className + ": no class " + className + " " + where
                + " (--app takes " + Apps.NAMES + ", or the fully qualified name of your StateMachine class, e.g."
                + " com.example.MyService, with --classpath JAR)" + (e instanceof NoClassDefFoundError
                    ? "; a class it needs is missing: " + e.getMessage() : ""));
        } catch (LinkageError e) {
            throw new ParameterException(cmd, "--app " + className + ": class " + className + " " + where
                + " cannot be loaded: " + e);
        }
        if (!StateMachine.class.isAssignableFrom(type)) {
            throw new ParameterException(cmd, "--app " + className + ": class " + className + " " + where
                + " does not implement " + StateMachine.class.getName() + " (implement it: execute, snapshot, restore;"
                + " see the README, 'Embedding uBFT-J in your service')");
        }
        if (type.isInterface() || Modifier.isAbstract(type.getModifiers())) {
            throw new ParameterException(cmd, "--app " + className + ": " + className + " is abstract: name a concrete"
                + " class that implements " + StateMachine.class.getSimpleName());
        }
        Constructor<?> constructor;
        try {
            constructor = type.getConstructor();
        } catch (NoSuchMethodException e) {
            throw new ParameterException(cmd, "--app " + className + ": " + className + " needs a public constructor"
                + " without arguments (every replica creates its instance with it)");
        }
        Supplier<StateMachine> factory = () -> {
            try {
                return (StateMachine) constructor.newInstance();
            } catch (InvocationTargetException e) {
                throw new ParameterException(cmd, "--app " + className + ": its constructor threw " + e.getCause(),
                    e.getCause());
            } catch (ReflectiveOperationException e) {
                throw new ParameterException(cmd, "--app " + className + ": cannot create an instance: " + e, e);
            }
        };
        factory.get(); // fails here, at the start, rather than in a replica later
        return factory;
    }

    private static ClassLoader loader(CommandLine cmd, Path classpath) {
        ClassLoader parent = AppClasses.class.getClassLoader();
        if (classpath == null) {
            return parent;
        }
        if (!Files.exists(classpath)) {
            throw new ParameterException(cmd, "--classpath " + classpath + ": no such file or directory (give the jar,"
                + " or the directory of classes, that holds your StateMachine class)");
        }
        try {
            return new URLClassLoader("ubft-app", new URL[] {classpath.toAbsolutePath().toUri().toURL()}, parent);
        } catch (MalformedURLException e) {
            throw new ParameterException(cmd, "--classpath " + classpath + ": " + e.getMessage());
        }
    }
}
