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
 * and {@code auto}, the default, which {@link #resolve} turns into one of them for the cluster's fabric.
 */
public final class IdleStrategies {
    /** Every name {@link #of(String)} accepts, the default first. */
    public static final List<String> NAMES = List.of("auto", "backoff", "sleeping", "yielding", "busy-spin");
    /** The default: {@link #resolve} picks by fabric. */
    public static final String AUTO = "auto";

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
     * What {@code name} means on {@code fabric}: {@code name} itself, or for {@code auto} the strategy measured best
     * there (docs/performance.md, "Idle strategies"). On {@code shm} and {@code rdma} a message arrives as a write
     * into memory that nothing signals, so an agent finds it only when it polls: {@code yielding}, which polls
     * continually and still hands the core to any other runnable thread at once (on a 2-vCPU host with seven
     * processes it halved the fast path's p50 against {@code backoff}, which parks up to half a millisecond). On
     * {@code tcp} the agent waits on its sockets and the kernel wakes it when bytes arrive: {@code backoff}. The rule
     * does not depend on the number of cores: {@code yielding} gives way when cores are short and costs a system call
     * per empty poll when they are not.
     */
    public static String resolve(String name, FabricType fabric) {
        if (!AUTO.equals(name)) {
            return name;
        }
        return fabric == FabricType.TCP ? "backoff" : "yielding";
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
            case AUTO:
                throw new IllegalArgumentException("idle strategy 'auto' depends on the fabric: resolve it first"
                        + " (IdleStrategies.resolve)");
            default:
                throw new IllegalArgumentException(
                        "unknown idle strategy '" + name + "': expected one of " + String.join(", ", NAMES));
        }
    }
}
