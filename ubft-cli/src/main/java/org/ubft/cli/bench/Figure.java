package org.ubft.cli.bench;

/** One figure of {@code ubft bench}: runs its measurements and returns what to write and plot. */
interface Figure {
    /** The name on the command line and of its files ({@code fig7}, {@code throughput}, ...). */
    String name();

    /** One line for {@code ubft bench --help} and the report: what the figure shows. */
    String description();

    /** Measures; {@link BenchEnv#quick()} asks for a smoke run (a few requests per point, no meaningful figure). */
    FigureData run(BenchEnv env) throws Exception;
}
