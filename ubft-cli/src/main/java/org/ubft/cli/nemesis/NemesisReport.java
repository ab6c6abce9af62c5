package org.ubft.cli.nemesis;

import org.ubft.sim.linearizability.CheckResult;
import org.ubft.sim.linearizability.History;
import org.ubft.sim.linearizability.RedisOp;

import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What one nemesis run found: the faults applied, the clients' replies, the checks' results, and the violations (a
 * wrong reply, a history that is not linearizable, a lost acknowledged write, diverging replicas) and failures (a
 * stall, a process that died by itself, a run that could not go on), each one line.
 */
public record NemesisReport(long seed, String app, long faultPhaseNanos, Map<FaultSchedule.Kind, Integer> faults,
                     int clients, long replies, long failedRequests, long longestWaitNanos, long longestWaitFromNanos,
                     History<RedisOp, String> history, CheckResult<RedisOp, String> linearizability, String lost,
                     List<String[]> finals, List<String> violations, List<String> failures, NemesisPlan.Dirs dirs,
                     boolean faultFree) {
    public boolean ok() {
        return violations.isEmpty() && failures.isEmpty();
    }

    /** The summary block of this run. */
    public void print(PrintWriter out) {
        out.printf("--- nemesis summary seed=%d ---%n", seed);
        out.printf("app=%s fault_phase_s=%.1f clients=%d replies=%d failed_requests=%d longest_wait_ms=%d"
            + " (from t=%.1fs)%n", app, faultPhaseNanos / 1e9, clients, replies, failedRequests,
            longestWaitNanos / 1_000_000, longestWaitFromNanos / 1e9);
        int total = faults.values().stream().mapToInt(Integer::intValue).sum();
        if (faultFree) {
            out.println("faults=0 (--no-faults)");
        } else {
        out.printf("faults=%d %s%n", total, faults.entrySet().stream()
            .map(e -> e.getKey().name().toLowerCase(java.util.Locale.ROOT) + "=" + e.getValue())
            .collect(Collectors.joining(" ", "{", "}")));
        }
        if (history != null) {
            out.printf("kv history_ops=%d pending=%d linearizability=%s%n", history.size(), history.pendingCount(),
                linearizability == null ? "not checked" : linearizability.verdict().name().toLowerCase(
                    java.util.Locale.ROOT) + " (" + linearizability.message() + ")");
            out.printf("lost_acknowledged_writes=%s%n", lost == null ? (linearizability != null
                && linearizability.linearizable() ? "0 (the final reads of every key agree with the history)"
                : "not determined") : lost);
        } else {
            out.println("replies_checked=every reply against a local instance of the application");
        }
        StringBuilder where = new StringBuilder("replicas_at_exit=");
        for (int i = 0; i < finals.size(); i++) {
            String[] s = finals.get(i);
            where.append(i == 0 ? "" : " ").append("replica-").append(i).append(':')
                .append(s == null ? "?" : s[0] + "/" + s[1].substring(0, Math.min(12, s[1].length())) + " view " + s[2]);
        }
        out.println(where);
        violations.forEach(v -> out.println("violation: " + v));
        failures.forEach(f -> out.println("failure: " + f));
        out.printf("result=%s%n", ok() ? "OK no violation, nothing acknowledged lost, no stall"
            + (faultFree ? ", no view change (a fault-free run)" : "")
            : "FAILED " + violations.size() + " violations, " + failures.size() + " failures; log: " + dirs.log());
        out.flush();
    }
}
