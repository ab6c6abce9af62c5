package org.ubft.consensus.replica;

import org.HdrHistogram.Histogram;

/**
 * Where a replica's time goes, stage by stage, as histograms an operator reads in the counters line
 * ({@code stages_p50_us=} and {@code stages_p99_us=}): recording allocates nothing, memory is fixed.
 * <ul>
 *   <li>{@code echo}: leader, from a request's arrival to its proposal (waiting for the followers' Echo Req, §5.4,
 *       and for a pipeline slot);</li>
 *   <li>{@code prepare}: leader, from broadcasting a PREPARE to knowing it prepared: every replica's WILL_CERTIFY
 *       (fast path: the PREPARE was delivered everywhere), a certificate of f+1 CERTIFY shares (slow path), or
 *       the slot decided, whichever comes first;</li>
 *   <li>{@code decide}: from accepting a PREPARE to deciding the slot (WILL_CERTIFY, WILL_COMMIT; or the slow path).
 *       A leader delivers its own PREPARE in the duty cycle that broadcast it, so at the leader this stage spans
 *       {@code prepare} as well;</li>
 *   <li>{@code execute}: from deciding a slot to having executed it (waiting for earlier slots).</li>
 * </ul>
 */
public final class StageLatencies {
    /** The stages, in the order a request goes through them. */
    public enum Stage { ECHO, PREPARE, DECIDE, EXECUTE }

    private static final long HIGHEST_MICROS = 3_600_000_000L;
    private final Histogram[] histograms = new Histogram[Stage.values().length];

    StageLatencies() {
        for (int i = 0; i < histograms.length; i++) {
            histograms[i] = new Histogram(HIGHEST_MICROS, 2);
        }
    }

    void record(Stage stage, long nanos) {
        long micros = Math.min(Math.max(0, nanos / 1_000), HIGHEST_MICROS);
        histograms[stage.ordinal()].recordValue(micros);
    }

    /** The {@code percentile} of a stage in microseconds (0 if nothing was recorded). */
    public long percentileMicros(Stage stage, double percentile) {
        return histograms[stage.ordinal()].getValueAtPercentile(percentile);
    }

    public long count(Stage stage) {
        return histograms[stage.ordinal()].getTotalCount();
    }

    /** {@code {echo=..,prepare=..,decide=..,execute=..}} at {@code percentile}, stages never recorded left out. */
    public String describe(double percentile) {
        StringBuilder sb = new StringBuilder("{");
        for (Stage s : Stage.values()) {
            if (count(s) > 0) {
                sb.append(sb.length() == 1 ? "" : ",").append(s.name().toLowerCase()).append('=')
                    .append(percentileMicros(s, percentile));
            }
        }
        return sb.append('}').toString();
    }
}
