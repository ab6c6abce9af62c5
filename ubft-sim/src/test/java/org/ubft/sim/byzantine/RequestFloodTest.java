package org.ubft.sim.byzantine;

import org.junit.jupiter.api.Test;
import org.ubft.sim.scenario.ByzantineScenarios;
import org.ubft.sim.scenario.Scenarios;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A Byzantine leader floods the others with the requests replicas answer from what they hold ({@link RequestFlood}:
 * BATCH_REQUEST and CERTIFICATE_REQUEST for 16 slots every 10 µs, digests of its own batches so that the answers are
 * real). Each correct replica answers a requester at most a window's worth per interval of at least 1 ms
 * ({@code GapRecovery}'s answer budget, shared by both kinds), the signature checks stay within the resource
 * checker's bound, and the clients are served (liveness after GST).
 */
class RequestFloodTest {
    @Test
    void eachCorrectReplicaAnswersTheFlooderAWindowsWorthPerMillisecondAtMost() {
        assertTrue(Scenarios.ALL.contains(ByzantineScenarios.REQUEST_FLOOD));
        ByzProbe p = new ByzProbe(ByzantineScenarios.REQUEST_FLOOD, 1);
        RequestFlood f = (RequestFlood) p.behaviour();
        String where = p.toString();
        assertTrue(p.result.ok(), where);
        assertTrue(f.batchRequests() > 10_000 && f.certificateRequests() > 10_000, where);
        long intervals = p.result.virtualNanos() / 1_000_000 + 1;
        long bound = intervals * f.window();
        long answered = 0;
        for (int r = 1; r <= 2; r++) {
            long answers = directOut(p, r, 26) + directOut(p, r, 29); // BATCH, CERTIFICATE
            answered += answers;
            assertTrue(answers <= bound, "replica " + r + " answered " + answers + " > " + bound + "\n" + where);
        }
        assertTrue(answered > 0, "the flood asked for what the replicas hold\n" + where);
        assertTrue(!p.result.violations().has(org.ubft.sim.check.ResourceChecker.NAME), where);
    }

    /** Replica {@code r}'s point-to-point messages sent of consensus type {@code type} (its counters line). */
    private static long directOut(ByzProbe p, int r, int type) {
        for (String line : p.result.countersLines().split("\n")) {
            if (line.startsWith("replica-" + r + " ")) {
                Matcher m = Pattern.compile("direct_out=\\{([^}]*)\\}").matcher(line);
                if (m.find()) {
                    Matcher t = Pattern.compile("(?:^|,)" + type + ":(\\d+)").matcher(m.group(1));
                    return t.find() ? Long.parseLong(t.group(1)) : 0;
                }
            }
        }
        return 0;
    }
}
