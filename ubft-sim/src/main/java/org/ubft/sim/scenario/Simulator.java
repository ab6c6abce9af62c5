package org.ubft.sim.scenario;

import org.ubft.sim.ClientLatencies;
import org.ubft.sim.EventHub;
import org.ubft.sim.SimCluster;
import org.ubft.sim.SimOptions;
import org.ubft.sim.Trace;
import org.ubft.sim.check.AgreementChecker;
import org.ubft.sim.check.BoundedMemoryChecker;
import org.ubft.sim.check.Checker;
import org.ubft.sim.check.ExceptionChecker;
import org.ubft.sim.check.KvLinearizabilityChecker;
import org.ubft.sim.check.LivenessChecker;
import org.ubft.sim.check.NoDuplicateChecker;
import org.ubft.sim.check.ResourceChecker;
import org.ubft.sim.check.ValidityChecker;
import org.ubft.sim.check.Violations;

import java.io.Writer;
import org.ubft.consensus.runtime.ReplicaNode;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.IntPredicate;

/**
 * Runs one scenario with one seed: builds the cluster, lets the scenario plan its faults, attaches the checkers (and
 * the trace, if asked; the linearizability checker for the key-value workload; the resource checker, CPU work per
 * request) and runs to the plan's end. The seed fixes everything: the scenario's choices come from one
 * random stream and the cluster's (network, keys, workload) from another, both drawn from the seed.
 */
public final class Simulator {
    private Simulator() {
    }

    public static RunResult run(Scenario scenario, long seed) {
        return run(scenario, seed, null);
    }

    /** @param trace where to write the trace ({@link Trace}), or {@code null} for none */
    public static RunResult run(Scenario scenario, long seed, Writer trace) {
        long wallStart = System.nanoTime(); // only to report the wall time; nothing simulated reads it
        SplittableRandom random = new SplittableRandom(seed);
        SimOptions options = scenario.options().apply(random.split());
        long clusterSeed = random.nextLong();
        SplittableRandom planRandom = random.split();

        Violations violations = new Violations();
        EventHub hub = new EventHub();
        SimCluster[] ref = new SimCluster[1];
        Trace tracer = trace == null ? null : new Trace(trace, () -> ref[0] == null ? 0 : ref[0].network().fingerprint(),
            i -> ref[0] == null ? "replica-" + i : ref[0].replicaName(i));
        if (tracer != null) {
            hub.add(tracer);
        }
        IntPredicate correct = i -> ref[0].behaviour(i).correct();
        // twins are Byzantine as a pair, but each runs the real replica code: nothing may make it throw
        IntPredicate realCode = i -> correct.test(i) || ref[0].twinned(i);
        List<Checker> checkers = new ArrayList<>(List.of(new AgreementChecker(violations, correct),
            new ValidityChecker(violations, correct), new NoDuplicateChecker(violations, correct),
            new ExceptionChecker(violations, realCode)));
        // the behaviours' own random stream, apart from the others (so that runs without such choices are unchanged)
        SplittableRandom behaviourRandom = new SplittableRandom(seed ^ 0x3C6EF372FE94F82AL);
        SimCluster cluster = new SimCluster(options, clusterSeed, hub, scenario.behaviours().apply(behaviourRandom),
            scenario.clientBehaviours().get());
        ref[0] = cluster;
        Plan plan = scenario.planner().plan(cluster, planRandom);
        cluster.stopSubmitting(plan.stopSubmitting());
        checkers.add(new BoundedMemoryChecker(violations, cluster.probes()));
        long bound = options.cluster().consensus().timeBoundMillis();
        checkers.add(new org.ubft.sim.check.ReplicatedTimeChecker(violations, correct, t -> {
            long skew = Long.MIN_VALUE;
            for (int i = 0; i < options.n(); i++) {
                skew = correct.test(i) ? Math.max(skew, cluster.clockSkew(i)) : skew;
            }
            return SimCluster.EPOCH_MILLIS + t / 1_000_000 + Math.max(skew, 0) + bound;
        }));
        boolean allCorrect = true;
        for (int i = 0; i < options.n(); i++) {
            allCorrect &= correct.test(i) && !cluster.twinned(i);
        }
        if (allCorrect) {
            boolean clientsCorrect = true;
            for (int c = 0; c < cluster.clientCount(); c++) {
                clientsCorrect &= cluster.clientBehaviour(c).correct();
            }
            checkers.add(new org.ubft.sim.check.CorrectMessagesChecker(violations, options.n(),
                i -> cluster.replica(i) == null ? null : cluster.replica(i).replica().counters(), clientsCorrect));
        }
        checkers.add(new org.ubft.sim.check.ProvedFaultyChecker(violations, options.n(),
            i -> correct.test(i) && !cluster.twinned(i) && cluster.replica(i) != null,
            (i, j) -> cluster.replica(i).replica().provedFaulty(j), j -> !correct.test(j) || cluster.twinned(j)));
        ResourceChecker resources = new ResourceChecker(violations, options.n(), cluster::cpu, correct);
        checkers.add(resources);
        ClientLatencies latencies = new ClientLatencies(c -> cluster.clientBehaviour(c).correct());
        hub.add(latencies);
        if (options.redis()) {
            checkers.add(new org.ubft.sim.check.RedisLinearizabilityChecker(violations));
        } else if (options.kv()) {
            checkers.add(new KvLinearizabilityChecker(violations));
        }
        if (scenario.liveness()) {
            checkers.add(new LivenessChecker(violations, plan.gst(), plan.livenessBound(), cluster::countersLines,
                c -> cluster.clientBehaviour(c).correct()));
        }
        for (Checker c : checkers) {
            hub.add(c);
        }
        if (tracer != null) {
            tracer.fault(cluster.now(), "sim", "scenario " + scenario.name() + " seed " + seed + " gst " + plan.gst()
                + " end " + plan.end());
            for (int i = 0; i < options.n(); i++) {
                if (!cluster.behaviour(i).correct()) {
                    tracer.fault(cluster.now(), "sim", "byzantine replica-" + i + " " + cluster.behaviour(i));
                }
            }
        }
        String describeEvery = System.getenv("UBFT_SIM_DESCRIBE"); // debugging aid: replicas' state every N us
        if (describeEvery != null) {
            long every = Long.parseLong(describeEvery) * 1_000L;
            for (long t = every; t < plan.end(); t += every) {
                long at = t;
                cluster.at(t, "sim", "describe", () -> {
                    for (int i = 0; i < options.n(); i++) {
                        ReplicaNode node = cluster.replica(i);
                        System.err.println(at + " replica-" + i + " " + (node == null ? "down" : node.replica().describe()));
                    }
                });
            }
        }
        cluster.runUntil(plan.end());
        for (Checker c : checkers) {
            c.finish(cluster.now());
        }
        if (tracer != null) {
            tracer.flush();
        }
        long submitted = 0;
        long accepted = 0;
        for (int c = 0; c < cluster.clientCount(); c++) {
            if (!cluster.clientBehaviour(c).correct()) {
                continue; // a Byzantine client's requests need not complete
            }
            submitted += cluster.client(c).submitted();
            accepted += cluster.client(c).core().counters().requestsCompleted();
        }
        int n = options.n();
        double[] perRequest = new double[n];
        long[] perCycle = new long[n];
        long[] windowExcess = new long[n];
        double[] busy = new double[n];
        for (int i = 0; i < n; i++) {
            perRequest[i] = resources.verifiesPerRequest(i);
            perCycle[i] = cluster.cpu(i).maxCryptoPerCycle();
            windowExcess[i] = resources.maxWindowExcess(i);
            busy[i] = resources.maxBusyFraction(i);
        }
        RunMeasures measures = new RunMeasures(latencies.percentile(50), latencies.percentile(99), perRequest, perCycle,
            windowExcess, busy);
        return new RunResult(scenario.name(), seed, violations, cluster.now(), System.nanoTime() - wallStart, submitted,
            accepted, cluster.countersLines(), measures);
    }
}
