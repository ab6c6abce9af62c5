package org.ubft.common.config;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;

import java.util.List;

/**
 * The Agrona idle strategies an agent can use between duty cycles that found no work, by the names the
 * cluster key {@code idle.strategy} accepts:
 * <ul>
 *   <li>{@code backoff}: spin a little, yield a little, then park from {@value #BACKOFF_MIN_PARK_NS} ns up to
 *       {@value #BACKOFF_MAX_PARK_NS} ns. Sized for small shared machines: an idle agent costs about two
 *       thousand wake-ups a second, and a message waits at most half a millisecond for an idle agent.</li>
 *   <li>{@code sleeping}: sleep one millisecond; the cheapest and the slowest.</li>
 *   <li>{@code yielding}: {@link Thread#yield()}; one core per agent, shared politely.</li>
 *   <li>{@code busy-spin}: never gives the core back; for agents pinned to dedicated cores.</li>
 * </ul>
 */
public final class IdleStrategies {
    /** Every name {@link #of(String)} accepts, the default first. */
    public static final List<String> NAMES = List.of("backoff", "sleeping", "yielding", "busy-spin");

    /** Spins of {@code backoff} before it yields. */
    public static final long BACKOFF_MAX_SPINS = 10;
    /** Yields of {@code backoff} before it parks. */
    public static final long BACKOFF_MAX_YIELDS = 5;
    /** First park period of {@code backoff}; it doubles up to {@link #BACKOFF_MAX_PARK_NS}. */
    public static final long BACKOFF_MIN_PARK_NS = 1_000;
    /** Longest park period of {@code backoff}. */
    public static final long BACKOFF_MAX_PARK_NS = 500_000;
    /** Sleep period of {@code sleeping}. */
    public static final long SLEEPING_PERIOD_MS = 1;

    private IdleStrategies() {
    }

    /**
     * A strategy for one agent thread. Stateful strategies ({@code backoff}) are new on every call: never
     * share one between threads.
     *
     * @throws IllegalArgumentException if {@code name} is not one of {@link #NAMES}
     */
    public static IdleStrategy of(String name) {
        switch (name) {
            case "backoff":
                return new BackoffIdleStrategy(BACKOFF_MAX_SPINS, BACKOFF_MAX_YIELDS, BACKOFF_MIN_PARK_NS, BACKOFF_MAX_PARK_NS);
            case "sleeping":
                return new SleepingMillisIdleStrategy(SLEEPING_PERIOD_MS);
            case "yielding":
                return YieldingIdleStrategy.INSTANCE;
            case "busy-spin":
                return BusySpinIdleStrategy.INSTANCE;
            default:
                throw new IllegalArgumentException(
                        "unknown idle strategy '" + name + "': expected one of " + String.join(", ", NAMES));
        }
    }
}
