package org.ubft.cli.bench;

import org.ubft.cli.Apps;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Figure 9: where the fast and the slow path's time goes, from the stage histograms of the first view's leader
 * ({@code stages_p50_us} of its counters line, {@link org.ubft.consensus.replica.StageLatencies}) and the client's
 * end-to-end median, for Flip with one closed-loop client. It reuses figure 7's Flip runs when they were made in the
 * same {@code ubft bench}, and runs its own otherwise.
 */
final class Fig9 implements Figure {
    static final String NAME = "fig9";
    private static final Pattern STAGES = Pattern.compile("stages_p50_us=\\{([^}]*)}");
    static final List<String> PARTS = List.of("echo", "prepare", "commit", "execute", "client and reply");

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "latency decomposition of the fast and slow paths from the leader's stage histograms";
    }

    @Override
    public FigureData run(BenchEnv env) {
        FigureData data = new FigureData(NAME, "Figure 9: latency by stage (Flip, leader's stage medians)",
            FigureData.Kind.STACKED, "path", "latency (us)", "path", "end_to_end_p50_us", "echo_us", "prepare_us",
            "commit_us", "execute_us", "client_and_reply_us", "fast_path_share");
        for (String mode : List.of(LiveCluster.FAST, LiveCluster.SLOW)) {
            LiveCluster.Run run = env.recalled(Apps.FLIP + "/" + mode);
            if (run == null) {
                env.progress(NAME + ": flip " + mode);
                run = Fig7.measure(env, Apps.FLIP, mode, env.pick(50, 5_000), env.pick(200, 20_000));
            } else {
                env.progress(NAME + ": flip " + mode + " (figure 7's run)");
            }
            Map<String, Long> stages = stages(run.leaderCounters());
            double e2e = run.summary().percentileMicros(50);
            double echo = stages.getOrDefault("echo", 0L);
            double prepare = stages.getOrDefault("prepare", 0L);
            double commit = Math.max(0, stages.getOrDefault("decide", 0L) - prepare);
            double execute = stages.getOrDefault("execute", 0L);
            double rest = Math.max(0, e2e - echo - prepare - commit - execute);
            data.row(mode, e2e, echo, prepare, commit, execute, rest, run.summary().fastPathShare());
            String x = mode + " path";
            double[] values = {echo, prepare, commit, execute, rest};
            for (int i = 0; i < PARTS.size(); i++) {
                data.point(PARTS.get(i), x, values[i]);
            }
        }
        data.note("Medians of replica-0's stage histograms (the first view's leader): echo = a request's arrival"
            + " until its proposal (the followers' Echo Req and a pipeline slot); prepare = PREPARE broadcast (CTBcast)"
            + " until prepared (every WILL_CERTIFY on the fast path, f+1 CERTIFY on the slow); commit = prepared until"
            + " decided (the leader's decide stage less prepare); execute = decided until executed. client and reply ="
            + " the client's end-to-end median less the stages: the request's and the reply's trips and the client."
            + " Medians do not add up exactly; the bar is a decomposition of the median request, not a sum of"
            + " distributions.");
        return data;
    }

    /** {@code stages_p50_us={echo=..,prepare=..,...}} of a counters line, by stage; empty if absent. */
    static Map<String, Long> stages(String counters) {
        Map<String, Long> out = new HashMap<>();
        Matcher m = STAGES.matcher(counters);
        if (m.find()) {
            for (String kv : m.group(1).split(",")) {
                String[] p = kv.split("=");
                if (p.length == 2) {
                    out.put(p[0].strip(), Long.parseLong(p[1].strip()));
                }
            }
        }
        if (out.isEmpty()) {
            throw new IllegalStateException("the leader reported no stage histograms (stages_p50_us) in: "
                + (counters.isEmpty() ? "no counters line" : counters));
        }
        return out;
    }
}
