package org.ubft.cli.nemesis;

import org.ubft.consensus.app.StateMachine;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

/**
 * What one nemesis run does (one seed): the application, its clients, the fault schedule's options, how long and the
 * bounds it is judged by.
 *
 * @param app            the application's name as the replicas get it ({@code flip}, {@code orderbook}, {@code kv} or a
 *                       class name)
 * @param replicaArgs    the replicas' options besides config and id (the application's, without --data-dir)
 * @param requests       for the shadow-checked applications: request {@code i} of client {@code c} as
 *                       {@code requests(c).get()}; {@code null} for kv
 * @param shadow         a fresh instance of the application, for the shadow check; {@code null} for kv
 * @param clients        closed-loop clients (client indices 0..clients-1; kv's final reader is index {@code clients})
 * @param duration       length of the fault phase
 * @param stallBound     longest wait for a reply while the faults are within tolerance (or after they heal)
 * @param schedule       the fault schedule's options
 * @param f              replicas tolerated (faults beyond it do not count for stalls)
 * @param fm             memory nodes tolerated
 * @param kvKeys         keys the key-value clients use
 * @param maxHistoryOps  operations the key-value history holds at most (a full history ends the fault phase)
 * @param postHealReplies replies each client must get after every fault healed
 * @param faultFree      no fault is injected: the same clients and checks on a healthy cluster, which must not change
 *                       view either (a loaded but healthy cluster that changes view fails the run)
 */
public record NemesisPlan(String app, List<String> replicaArgs, java.util.function.IntFunction<Supplier<byte[]>> requests,
                   Supplier<StateMachine> shadow, int clients, Duration duration, Duration stallBound,
                   FaultSchedule.Options schedule, int f, int fm, int kvKeys, int maxHistoryOps, int postHealReplies,
                   boolean faultFree) {
    boolean kv() {
        return requests == null;
    }

    /** The run's working directory layout: the replicas' data, the log. */
    public record Dirs(Path work, Path data, Path log) {
        public static Dirs in(Path work) {
            return new Dirs(work, work.resolve("data"), work.resolve("nemesis.log"));
        }
    }
}
