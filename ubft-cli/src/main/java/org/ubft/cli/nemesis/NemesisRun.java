package org.ubft.cli.nemesis;

import org.ubft.common.config.ClusterConfig;
import org.ubft.consensus.client.ClientOptions;
import org.ubft.consensus.client.UbftClient;
import org.ubft.consensus.client.UbftClientException;
import org.ubft.sim.linearizability.CheckResult;
import org.ubft.sim.linearizability.History;
import org.ubft.sim.linearizability.RedisOp;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One nemesis run (one seed) over real processes: starts the cluster, runs the clients, applies the seeded fault
 * schedule for the plan's duration, heals every fault, lets every client get a few more replies, reads every
 * key-value key back, stops everything and checks: every reply (shadow or linearizability), nothing acknowledged lost,
 * no stall beyond the bound, no process that died by itself, replicas at the same slot with the same state digest.
 */
public final class NemesisRun {
    private static final long TICK_MILLIS = 100;
    /** A replica's line for a view it entered (ReplicaCommand), view 1 or later. */
    private static final Pattern VIEW_LINE = Pattern.compile("replica-\\d+ view [1-9]\\d* at [^\\n]*");

    private final NemesisPlan plan;
    private final long seed;
    private final Path configFile;
    private final NemesisPlan.Dirs dirs;
    private final PrintWriter out;
    private final PrintWriter log;
    private final ClusterConfig config;
    private final ClientOptions clientOptions;
    private final long t0 = System.nanoTime();
    private final List<String> violations = new ArrayList<>();
    private final List<String> failures = new ArrayList<>();
    /** Fault-free runs: the replicas whose view change was reported already. */
    private final boolean[] viewChangeSeen;
    private final Map<FaultSchedule.Kind, Integer> applied = new EnumMap<>(FaultSchedule.Kind.class);
    private final boolean[] replicaDown;
    private final boolean[] memnodeDown;
    private final List<NemesisClient> clients = new ArrayList<>();
    private volatile boolean beyondTolerance;
    private volatile long inToleranceSince = System.nanoTime();
    private volatile String stall;
    private volatile long longestWaitNanos;
    private volatile long longestWaitFromNanos;
    private KvHistory kvHistory;
    private NemesisCluster cluster;
    private FaultSchedule schedule;

    public NemesisRun(NemesisPlan plan, long seed, Path configFile, NemesisPlan.Dirs dirs, PrintWriter out, PrintWriter log) {
        this.plan = plan;
        this.seed = seed;
        this.configFile = configFile;
        this.dirs = dirs;
        this.out = out;
        this.log = log;
        this.config = ClusterConfig.load(configFile);
        this.clientOptions = ClientOptions.defaults()
            .withInvokeTimeout(plan.stallBound().plus(Duration.ofMinutes(2)))
            .withRetransmission(Duration.ofMillis(50), Duration.ofMillis(400))
            .withIdleStrategy(config::newIdleStrategy);
        this.replicaDown = new boolean[config.n()];
        this.memnodeDown = new boolean[config.memnodeCount()];
        this.viewChangeSeen = new boolean[config.n()];
    }

    /** Runs and returns the report; never throws for a finding (it is in the report). */
    public NemesisReport run() throws InterruptedException {
        List<String> replicaArgs = new ArrayList<>(plan.replicaArgs());
        replicaArgs.addAll(List.of("--data-dir", dirs.data().toString()));
        cluster = new NemesisCluster(log, configFile, config.n(), config.memnodeCount(), replicaArgs);
        schedule = new FaultSchedule(plan.schedule(), seed);
        Thread monitor = new Thread(this::watchForStalls, "nemesis-stall-monitor");
        monitor.setDaemon(true);
        long faultPhaseNanos = 0;
        List<String[]> finals = new ArrayList<>();
        int[] codes = new int[0];
        CheckResult<RedisOp, String> linearizability = null;
        String lost = null;
        try {
            cluster.start();
            event("cluster ready: " + config.memnodeCount() + " memory nodes, " + config.n() + " replicas");
            startClients();
            monitor.start();
            faultPhaseNanos = faultPhase();
            heal();
            postHeal();
            for (NemesisClient c : clients) {
                c.stop(2_000);
            }
            if (plan.kv() && stall == null) {
                finalReads(); // after a stall they could wait for good; the history is still checked
            }
            monitor.interrupt();
            codes = cluster.stop();
            for (int i = 0; i < config.n(); i++) {
                finals.add(cluster.finalState(i));
            }
            checkAgreement(finals);
            if (plan.faultFree()) {
                checkNoViewChange(finals);
            }
            if (plan.kv()) {
                History<RedisOp, String> h = kvHistory.history();
                linearizability = KvHistory.check(h);
                String v = KvHistory.violation(h, linearizability, plan.clients());
                if (v != null) {
                    violations.add(v);
                    lost = v.startsWith(KvHistory.LOST) ? "the final reads miss an acknowledged write" : null;
                }
            }
        } catch (RuntimeException e) {
            failures.add("the run failed: " + e);
        } finally {
            monitor.interrupt();
            for (NemesisClient c : clients) {
                c.stop(1); // stopped already, or (after an exception) closed now
            }
            cluster.close();
        }
        for (NemesisClient c : clients) {
            for (String p : c.problems()) {
                (p.contains("WRONG REPLY") ? violations : failures).add(p);
            }
        }
        if (stall != null) {
            failures.add(0, stall);
        }
        for (int i = 0; i < codes.length; i++) {
            if (codes[i] != 0) {
                failures.add("replica-" + i + " exited with code " + codes[i] + " at the end (SIGTERM); see " + dirs.log());
            }
        }
        long replies = clients.stream().mapToLong(NemesisClient::replies).sum();
        long failed = clients.stream().mapToLong(NemesisClient::failures).sum();
        return new NemesisReport(seed, plan.app(), faultPhaseNanos, new TreeMap<>(applied), clients.size(), replies,
            failed, longestWaitNanos, longestWaitFromNanos, kvHistory != null ? kvHistory.history() : null,
            linearizability, lost, finals, violations, failures, dirs, plan.faultFree());
    }

    private void startClients() {
        for (int c = 0; c < plan.clients(); c++) {
            NemesisClient client;
            if (plan.kv()) {
                if (kvHistory == null) {
                    kvHistory = new KvHistory(plan.maxHistoryOps(), plan.kvKeys());
                }
                client = new KvClient(c, config, clientOptions, kvHistory, seed * 31 + c);
            } else {
                client = new ShadowClient(c, config, clientOptions, plan.requests().apply(c), plan.shadow().get());
            }
            clients.add(client);
            client.start();
        }
    }

    /** The fault schedule for the plan's duration; ends early at a stall, a finding or a full history. */
    private long faultPhase() throws InterruptedException {
        long start = System.nanoTime();
        long end = start + plan.duration().toNanos();
        if (plan.faultFree()) { // the same load and checks, no fault; ends at the first view change
            while (System.nanoTime() < end && !shouldEnd()) {
                Thread.sleep(Math.min(TICK_MILLIS, Math.max(1, (end - System.nanoTime()) / 1_000_000)));
                findViewChanges();
            }
            return System.nanoTime() - start;
        }
        while (System.nanoTime() < end && !shouldEnd()) {
            FaultSchedule.Fault f = schedule.next();
            if (!sleep(Math.min(f.delayMillis(), Math.max(0, (end - System.nanoTime()) / 1_000_000)))
                || System.nanoTime() >= end) {
                break; // not applied
            }
            if (!checkAlive()) {
                break;
            }
            apply(f);
        }
        return System.nanoTime() - start;
    }

    private boolean shouldEnd() {
        if (stall != null || !failures.isEmpty()) {
            return true;
        }
        for (NemesisClient c : clients) {
            if (c.finished() || c.problemCount() > 0) {
                return true;
            }
        }
        return false;
    }

    /** Sleeps up to {@code millis} in ticks; false if the run should end. */
    private boolean sleep(long millis) throws InterruptedException {
        long until = System.nanoTime() + millis * 1_000_000;
        while (System.nanoTime() < until) {
            if (shouldEnd()) {
                return false;
            }
            Thread.sleep(Math.min(TICK_MILLIS, Math.max(1, (until - System.nanoTime()) / 1_000_000)));
        }
        return !shouldEnd();
    }

    /** False (and a failure) if a process the nemesis did not take down is gone: it died by itself. */
    private boolean checkAlive() {
        for (int i = 0; i < replicaDown.length; i++) {
            if (!replicaDown[i] && !cluster.replicaAlive(i)) {
                failures.add("replica-" + i + " died by itself (the nemesis had not killed it); its last output is in "
                    + dirs.log());
            }
        }
        for (int j = 0; j < memnodeDown.length; j++) {
            if (!memnodeDown[j] && !cluster.memnodeAlive(j)) {
                failures.add("memnode-" + j + " died by itself; see " + dirs.log());
            }
        }
        return failures.isEmpty();
    }

    private void apply(FaultSchedule.Fault f) {
        event(f.toString());
        applied.merge(f.kind(), 1, Integer::sum);
        schedule.applied(f);
        int t = f.target();
        switch (f.kind()) {
            case KILL_REPLICA -> {
                replicaDown[t] = true;
                cluster.killReplica(t);
            }
            case PAUSE_REPLICA -> cluster.pauseReplica(t);
            case RESUME_REPLICA -> cluster.resumeReplica(t);
            case RESTART_REPLICA -> {
                cluster.restartReplica(t);
                replicaDown[t] = false;
            }
            case KILL_MEMNODE -> {
                memnodeDown[t] = true;
                cluster.killMemnode(t);
            }
            case RESTART_MEMNODE -> {
                cluster.restartMemnode(t);
                memnodeDown[t] = false;
            }
            case RESTART_CLUSTER -> {
                beyondTolerance = true;
                for (int i = 0; i < config.n(); i++) {
                    replicaDown[i] = true;
                    cluster.killReplica(i);
                }
                for (int i = config.n() - 1; i >= 0; i--) {
                    cluster.restartReplica(i);
                    replicaDown[i] = false;
                }
                event("every replica restarted");
            }
        }
        boolean within = schedule.faultyReplicas() <= plan.f() && schedule.faultyMemnodes() <= plan.fm();
        if (within && beyondTolerance) {
            inToleranceSince = System.nanoTime();
        }
        beyondTolerance = !within;
    }

    private void heal() {
        for (FaultSchedule.Fault f : schedule.healAll()) {
            apply(f);
        }
        beyondTolerance = false;
        inToleranceSince = System.nanoTime();
        event(plan.faultFree() ? "end of the phase without faults" : "every fault healed");
    }

    /**
     * Every client still running must get {@code postHealReplies} more replies: service is back once the faults are
     * healed (a stall otherwise, reported by the monitor, or here if a client makes no progress without waiting).
     */
    private void postHeal() throws InterruptedException {
        long[] base = clients.stream().mapToLong(NemesisClient::replies).toArray();
        long deadline = System.nanoTime() + plan.stallBound().plusSeconds(60).toNanos();
        while (stall == null && failures.isEmpty()) {
            boolean all = true;
            for (int c = 0; c < clients.size(); c++) {
                NemesisClient client = clients.get(c);
                all &= client.finished() || client.replies() - base[c] >= plan.postHealReplies();
            }
            if (all) {
                break;
            }
            if (System.nanoTime() > deadline) {
                failures.add("after healing, the clients did not get " + plan.postHealReplies() + " replies each within "
                    + plan.stallBound().plusSeconds(60).toSeconds() + " s");
                break;
            }
            Thread.sleep(TICK_MILLIS);
        }
        event("after healing: " + clients.stream().mapToLong(NemesisClient::replies).sum() + " replies in all");
    }

    /** A fresh client (the final reader) reads every key; the reads are part of the history. */
    private void finalReads() {
        int reader = plan.clients();
        try (UbftClient client = UbftClient.connect(config, reader, clientOptions)) {
            for (int k = 0; k < kvHistory.keys(); k++) {
                RedisOp op = RedisOp.get(KvHistory.key(k));
                int at = kvHistory.invokeAlways(reader, op);
                kvHistory.respond(at, KvHistory.output(client.invoke(KvHistory.request(op))));
            }
        } catch (UbftClientException e) {
            failures.add("the final reads got no reply: " + e.getMessage());
        }
        event("final reads of " + kvHistory.keys() + " keys done");
    }

    private void checkAgreement(List<String[]> finals) {
        Map<String, String> digestAt = new TreeMap<>();
        for (int i = 0; i < finals.size(); i++) {
            String[] s = finals.get(i);
            if (s == null) {
                failures.add("replica-" + i + " printed no counters line at exit");
                continue;
            }
            String other = digestAt.putIfAbsent(s[0], s[1]);
            if (other != null && !other.equals(s[1])) {
                violations.add("DIVERGENCE: replicas executed up to slot " + s[0] + " with different state digests ("
                    + other + " and replica-" + i + "'s " + s[1] + ")");
            }
        }
    }

    /**
     * A fault-free run: no replica may have left view 0. A view change there is spurious (the leader was slow, not
     * faulty): it costs the clients a fail-over for nothing, so a healthy cluster under load must not make one.
     */
    private void checkNoViewChange(List<String[]> finals) {
        for (int i = 0; i < finals.size(); i++) {
            String[] s = finals.get(i);
            if (s != null && !"0".equals(s[2]) && !viewChangeSeen[i]) {
                failures.add("SPURIOUS VIEW CHANGE: replica-" + i + " ended in view " + s[2] + " of a fault-free run"
                    + " (a healthy leader was suspected: its replica log says when; see consensus.request.timeout.ms and .min.ms"
                    + " in docs/operations.md)");
            }
        }
    }

    /**
     * A fault-free run, on its tick: a replica that logged a view it entered is a spurious view change, reported with
     * its line (when, and why that replica complained) so that the run ends at once.
     */
    private void findViewChanges() {
        for (int i = 0; i < viewChangeSeen.length; i++) {
            if (viewChangeSeen[i]) {
                continue;
            }
            Matcher m = VIEW_LINE.matcher(cluster.replicaOutput(i));
            if (m.find()) {
                viewChangeSeen[i] = true;
                String f = String.format("SPURIOUS VIEW CHANGE at t=%.1fs: %s (a healthy leader was suspected; see"
                    + " consensus.request.timeout.ms and .min.ms in docs/operations.md)", (System.nanoTime() - t0) / 1e9,
                    m.group().trim());
                failures.add(f);
                event(f);
            }
        }
    }

    /** The monitor thread: a client waiting longer than the bound while within tolerance is a stall. */
    private void watchForStalls() {
        long bound = plan.stallBound().toNanos();
        try {
            while (!Thread.currentThread().isInterrupted()) {
                Thread.sleep(TICK_MILLIS);
                long now = System.nanoTime();
                for (NemesisClient c : clients) {
                    long since = c.busySince();
                    if (since < 0) {
                        continue;
                    }
                    long waited = now - Math.max(since, inToleranceSince);
                    if (!beyondTolerance && waited > longestWaitNanos) {
                        longestWaitNanos = waited;
                        longestWaitFromNanos = Math.max(since, inToleranceSince) - t0;
                    }
                    if (!beyondTolerance && waited > bound && stall == null && !c.stopping()) {
                        stall = String.format("STALL: client-%d got no reply for %.1f s (bound %d s) with the faults"
                            + " within tolerance, at t=%.1f s; faulty now: %d replicas, %d memory nodes", c.id,
                            waited / 1e9, plan.stallBound().toSeconds(), (now - t0) / 1e9,
                            schedule == null ? 0 : schedule.faultyReplicas(),
                            schedule == null ? 0 : schedule.faultyMemnodes());
                        event(stall);
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void event(String text) {
        String line = String.format("nemesis seed=%d t=%.1fs %s", seed, (System.nanoTime() - t0) / 1e9, text);
        synchronized (log) {
            log.println(line);
            log.flush();
        }
        synchronized (out) {
            out.println(line);
            out.flush();
        }
    }
}
