package org.ubft.cli;

import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SystemNanoClock;
import org.ubft.common.NodeId;
import org.ubft.common.config.ClusterConfig;
import org.ubft.consensus.app.StateMachine;
import org.ubft.consensus.replica.ReplicaConfig;
import org.ubft.consensus.runtime.OwnStreamLog;
import org.ubft.consensus.runtime.ReplicaNode;
import org.ubft.consensus.runtime.UnreplicatedServer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import sun.misc.Signal;

import java.io.PrintWriter;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * {@code ubft replica --config FILE --id N [--app flip|orderbook] [--path fast|slow] [--data-dir DIR]
 * [--unreplicated]}: runs replica N (an
 * {@link ReplicaNode} on an {@link AgentRunner} with the cluster's idle strategy) until SIGTERM or SIGINT. Logs one
 * ready line, and at exit one counters line ({@code replica-N counters: name=value ...}); exit 0, or 1 if the agent
 * failed. With {@code --unreplicated} it runs the baseline {@link UnreplicatedServer} as replica 0 instead.
 */
@Command(name = "replica",
        mixinStandardHelpOptions = true,
        versionProvider = ProjectVersion.class,
        description = {"Run one replica of the cluster with an application.",
            "It logs one line when ready, runs until SIGTERM or Ctrl-C, then logs its counters",
            "(one line, 'replica-N counters: name=value ...') and exits 0 (1 if it failed)."})
public final class ReplicaCommand implements java.util.concurrent.Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Mixin
    private ClusterFileOption cluster;

    @Option(names = "--id", required = true, paramLabel = "N", description = "Index of this replica (replica.N).")
    private int id;

    @Option(names = "--app", defaultValue = "flip", paramLabel = "APP",
            description = "Replicated application: " + Apps.DESCRIPTION + " (default: ${DEFAULT-VALUE}).")
    private String app;

    @Option(names = "--classpath", paramLabel = "JAR",
            description = "Jar file (or directory of classes) holding the StateMachine class that --app names; the"
                + " class needs a public constructor without arguments.")
    private java.nio.file.Path classpath;

    @Mixin
    private KvOptions kv;

    @Option(names = "--path", defaultValue = "fast", paramLabel = "fast|slow",
            description = "Consensus path tried first: fast (slow path on timeout) or slow only (default: ${DEFAULT-VALUE}).")
    private String path;

    @Option(names = "--status-every-ms", defaultValue = "0", paramLabel = "MS",
            description = "Also log the counters every MS milliseconds while running, as 'replica-N status: ...',"
                + " followed by the replica's view, checkpoint and per-peer state as 'replica-N state: ...'"
                + " (0, the default: only the counters, at exit).")
    private long statusEveryMillis;

    @Option(names = "--data-dir", paramLabel = "DIR",
            description = {"Directory where the replica keeps its own CTBcast stream (replica-N.stream, a few MB),"
                + " the batches it executed since its latest checkpoint (replica-N.decisions) and that checkpoint's"
                + " state (replica-N.checkpoint), created if missing: after a crash and restart it goes on with its"
                + " stream and takes its state back, so even a cluster whose replicas were all killed keeps every"
                + " acknowledged request. Keep one directory per cluster lifetime (replicas of one host may share"
                + " it): files left by an earlier cluster must be deleted before a new cluster starts.",
                "Default: none (a restarted replica catches up by state transfer but cannot CTBcast more than t"
                + " messages, so it takes no part in a later view change; a restart of every replica loses the"
                + " state)."})
    private java.nio.file.Path dataDir;

    @Option(names = "--unreplicated",
            description = "Run the unreplicated baseline server instead (no consensus, no memory nodes); --id must be 0.")
    private boolean unreplicated;

    @Override
    public Integer call() throws InterruptedException {
        Apps.check(spec.commandLine(), app, classpath);
        if (!Apps.KV.equals(app) && KvOptions.given(spec.commandLine())) {
            throw new ParameterException(spec.commandLine(), KvOptions.NAMES + " work with --app kv only");
        }
        ReplicaConfig.Path first = Apps.path(spec.commandLine(), path);
        ClusterConfig config = cluster.load();
        StateMachine machine = Apps.create(spec.commandLine(), app, classpath, config, kv.limits(spec.commandLine()));
        if (id < 0 || id >= config.n()) {
            throw new ParameterException(spec.commandLine(), "--id " + id + " is not a replica of cluster '"
                + config.clusterName() + "': " + cluster.file() + " has replica.0 to replica." + (config.n() - 1));
        }
        if (unreplicated && id != 0) {
            throw new ParameterException(spec.commandLine(), "--unreplicated runs the server as replica 0: use --id 0");
        }
        PrintWriter out = spec.commandLine().getOut();
        CountDownLatch stop = new CountDownLatch(1);
        Signal.handle(new Signal("TERM"), s -> stop.countDown());
        Signal.handle(new Signal("INT"), s -> stop.countDown());
        AtomicReference<Throwable> failure = new AtomicReference<>();
        String ready;
        Agent agent;
        IdleStrategy idle;
        Supplier<String> counters;
        if (unreplicated) {
            UnreplicatedServer server = UnreplicatedServer.open(config, machine, SystemNanoClock.INSTANCE);
            agent = server;
            idle = server.idleStrategy(config.newIdleStrategy());
            ready = server.readyLine() + " cluster=" + config.clusterName() + " fabric=" + config.fabric().configName()
                + " app=" + app;
            counters = server::countersLine;
        } else {
            ReplicaNode node;
            try {
                node = ReplicaNode.open(config, id, machine, first, SystemNanoClock.INSTANCE, dataDir);
            } catch (OwnStreamLog.UnusableLogException e) {
                throw new ParameterException(spec.commandLine(), "--data-dir " + dataDir + ": " + e.getMessage(), e,
                    spec.findOption("--data-dir"), String.valueOf(dataDir));
            }
            agent = node;
            idle = node.idleStrategy(config.newIdleStrategy());
            ready = NodeId.toString(NodeId.replica(id)) + " ready: cluster=" + config.clusterName() + " fabric="
                + config.fabric().configName() + " app=" + app + " path=" + path + " n=" + config.n()
                + " window=" + config.consensusWindow() + " tail=" + config.ctbcastTail() + " stream_log="
                + (dataDir == null ? "none" : dataDir.toString()) + " stream=" + node.streamDescription();
            if (dataDir == null) {
                spec.commandLine().getErr().println(NodeId.toString(NodeId.replica(id)) + " warning: no --data-dir:"
                    + " if this process restarts, its CTBcast stream is lost and its peers deliver none of its"
                    + " broadcasts again (it counts towards f for the cluster's life); give --data-dir DIR to keep the"
                    + " stream across restarts");
            }
            counters = node::countersLine;
            agent = withStatus(node, statusEveryMillis, out);
        }
        AgentRunner runner = new AgentRunner(idle, e -> {
            failure.compareAndSet(null, e);
            stop.countDown();
        }, null, agent);
        AgentRunner.startOnThread(runner);
        out.println(ready);
        out.flush();
        stop.await();
        out.println(memoryLine(unreplicated ? "server" : NodeId.toString(NodeId.replica(id))));
        runner.close(); // joins the agent thread, then the agent's onClose closes the node
        out.println(counters.get());
        out.flush();
        Throwable e = failure.get();
        if (e != null) {
            spec.commandLine().getErr().println(agent.roleName() + " failed: " + e);
            e.printStackTrace(new PrintWriter(spec.commandLine().getErr(), true));
            return 1;
        }
        return 0;
    }

    /**
     * {@code NAME memory: heap_used_bytes=U heap_committed_bytes=C}: the heap still in use after a full collection,
     * with the node still open (what it holds, not its garbage), and what the JVM committed for it.
     */
    static String memoryLine(String name) {
        System.gc();
        Runtime rt = Runtime.getRuntime();
        return name + " memory: heap_used_bytes=" + (rt.totalMemory() - rt.freeMemory()) + " heap_committed_bytes="
            + rt.totalMemory();
    }

    /**
     * {@code node} that logs each view it enters ('replica-N view V at TIME: leader replica-L, ...', for the operator:
     * a view change is a suspected or replaced leader; the line says why this replica complained so far), each
     * complaint it sends ('replica-N complains about view V at TIME'), when it starts sealing a view ('replica-N leaves
     * view V at TIME'), its view's NEW_VIEW delivered ('replica-N view V new view at TIME': the view change's
     * certificates and the leader's re-proposals sent) and its first execution in a view it entered ('replica-N view V
     * first execution at TIME': how long the view took to serve) and, with {@code millis > 0}, also prints its counters line as a status line every
     * {@code millis}, on its own thread.
     */
    private static Agent withStatus(ReplicaNode node, long millis, PrintWriter out) {
        long period = millis * 1_000_000L;
        // each line built once now, discarded: its first formatting (java.time's, string concatenation's call sites)
        // costs milliseconds of class loading and linking, which a view change's first lines would otherwise spend on
        // this agent thread, between a replica's COMPLAINT and its handling of its peers'
        var r = node.replica();
        for (String unused : new String[] {complaintLine(r, 0), leaveLine(r, 0), viewLine(r, 0), newViewLine(r, 0),
            firstExecutionLine(r, 0), provedFaultyLine(r, 0)}) {
            assert unused.startsWith("replica-");
        }
        return new Agent() {
            private long next = System.nanoTime() + period;
            private long view = node.replica().view();
            private long suspicions = node.replica().counters().suspicions();
            private long executedAtEntry = -1;
            private boolean newViewLogged = true;
            private long complaints = node.replica().counters().complaints();
            private long provedFaulty;

            @Override
            public int doWork() {
                int work = node.doWork();
                var replica = node.replica();
                if (replica.counters().complaints() != complaints) {
                    complaints = replica.counters().complaints();
                    log(complaintLine(replica, view));
                }
                if (replica.counters().suspicions() != suspicions) {
                    suspicions = replica.counters().suspicions(); // it seals: changing view, perhaps done already
                    log(leaveLine(replica, view));
                }
                for (int p = 0; p < replica.n(); p++) {
                    if ((provedFaulty & (1L << p)) == 0 && replica.provedFaulty(p)) {
                        provedFaulty |= 1L << p;
                        log(provedFaultyLine(replica, p));
                    }
                }
                if (replica.view() != view) {
                    view = replica.view();
                    executedAtEntry = replica.executedUpTo();
                    newViewLogged = false;
                    log(viewLine(replica, view));
                }
                if (!newViewLogged && replica.newViewEntered()) {
                    newViewLogged = true;
                    log(newViewLine(replica, view));
                } else if (executedAtEntry >= 0 && replica.executedUpTo() != executedAtEntry) {
                    executedAtEntry = -1;
                    log(firstExecutionLine(replica, view));
                }
                if (period <= 0) {
                    return work;
                }
                long now = System.nanoTime();
                if (now - next >= 0) {
                    next = now + period;
                    out.println(node.countersLine().replaceFirst(" counters: ", " status: "));
                    out.println("replica-" + node.replica().self() + " state: " + node.replica().describe());
                    out.flush();
                }
                return work;
            }

            private void log(String line) {
                out.println(line);
                out.flush();
            }

            @Override
            public String roleName() {
                return node.roleName();
            }

            @Override
            public void onClose() {
                node.onClose();
            }
        };
    }

    private static String complaintLine(org.ubft.consensus.replica.Replica replica, long view) {
        return "replica-" + replica.self() + " complains about view " + view + " at " + java.time.Instant.now()
            + ": complaints so far by reason " + replica.counters().complaintsByReason();
    }

    private static String provedFaultyLine(org.ubft.consensus.replica.Replica replica, int peer) {
        return "replica-" + replica.self() + " warning at " + java.time.Instant.now() + ": replica-" + peer + " is proved"
            + " Byzantine: it sent a signature that failed its check, or certified another proposal than the leader's"
            + " (or it runs with another key set: every replica needs the keys of one `ubft keygen` run); its messages"
            + " here get only a few checks per executed slot from now on (proved_faulty in the counters)";
    }

    private static String leaveLine(org.ubft.consensus.replica.Replica replica, long view) {
        return "replica-" + replica.self() + " leaves view " + view + " at " + java.time.Instant.now()
            + ": sealing it, executed_up_to=" + replica.executedUpTo();
    }

    private static String viewLine(org.ubft.consensus.replica.Replica replica, long view) {
        return "replica-" + replica.self() + " view " + view + " at " + java.time.Instant.now() + ": leader replica-"
            + replica.leader() + ", executed_up_to=" + replica.executedUpTo()
            + ", this replica's complaints so far by reason " + replica.counters().complaintsByReason();
    }

    private static String newViewLine(org.ubft.consensus.replica.Replica replica, long view) {
        return "replica-" + replica.self() + " view " + view + " new view at " + java.time.Instant.now()
            + ": its NEW_VIEW delivered, executed_up_to=" + replica.executedUpTo();
    }

    private static String firstExecutionLine(org.ubft.consensus.replica.Replica replica, long view) {
        return "replica-" + replica.self() + " view " + view + " first execution at " + java.time.Instant.now()
            + ": executed_up_to=" + replica.executedUpTo();
    }
}
