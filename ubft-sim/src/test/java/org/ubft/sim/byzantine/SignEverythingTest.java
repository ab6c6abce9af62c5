package org.ubft.sim.byzantine;

import org.junit.jupiter.api.Test;
import org.ubft.sim.scenario.ByzantineScenarios;
import org.ubft.sim.scenario.Scenarios;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A follower signs every message of its CTBcast stream with its LOCK and floods its stream with junk
 * ({@link SignEverything}): the junk is delivered and dropped, a SIGNED that comes after its message was delivered on
 * the fast path is not checked (CTBcast's receivers check staleness first: {@code staleSigned}), and the correct
 * replicas' signature checks stay within the resource checker's bound while the clients are served.
 */
class SignEverythingTest {
    @Test
    void aStreamSignedMessageByMessageCostsTheReceiversBoundedChecks() {
        assertTrue(Scenarios.ALL.contains(ByzantineScenarios.SIGN_EVERYTHING));
        ByzProbe p = new ByzProbe(ByzantineScenarios.SIGN_EVERYTHING, 1);
        String where = p.toString();
        assertTrue(p.result.ok(), where);
        assertTrue(p.behaviour().actions() > 500, "the stream was flooded\n" + where);
        for (int r = 0; r <= 1; r++) {
            assertTrue(ctbcast(p, r, "staleSigned") > 100, "replica " + r + " skipped stale SIGNEDs\n" + where);
            long executed = p.counter(r, "executed");
            assertTrue(ctbcast(p, r, "verifyRequests") <= 3 * executed + 100,
                "replica " + r + "'s CTBcast checks stay near one per executed request\n" + where);
        }
        assertTrue(!p.result.violations().has(org.ubft.sim.check.ResourceChecker.NAME), where);
    }

    /**
     * The same follower also withholds its LOCKs, so that each of its messages (the junk too) can be delivered only by
     * its SIGNED: each receiver checks its SIGNEDs within a per-broadcaster budget credited per executed slot
     * ({@code SignedCheckBudget}, {@code VerificationBudget.takeStream}), postpones the rest (its stream waits), and
     * stays within the resource checker's bound while serving the clients. Without the budget each correct replica
     * checked about 860 signatures for 18-26 executed requests (seeds 1-3).
     */
    @Test
    void aStreamDeliveredOnlyBySignedIsCheckedWithinItsBroadcastersBudget() {
        assertTrue(Scenarios.ALL.contains(ByzantineScenarios.SIGN_EVERYTHING_NO_LOCKS));
        for (long seed = 2; seed <= 3; seed++) {
            ByzProbe p = new ByzProbe(ByzantineScenarios.SIGN_EVERYTHING_NO_LOCKS, seed);
            String where = p.toString();
            assertTrue(p.result.ok(), where);
            long postponed = ctbcast(p, 0, "signedChecksPostponed") + ctbcast(p, 1, "signedChecksPostponed");
            assertTrue(postponed > 0, "the flooder's SIGNED checks waited for its budget\n" + where);
        }
    }

    /** Counter {@code name} inside replica {@code r}'s {@code ctbcast={...}} group. */
    private static long ctbcast(ByzProbe p, int r, String name) {
        for (String line : p.result.countersLines().split("\n")) {
            if (line.startsWith("replica-" + r + " ")) {
                Matcher m = Pattern.compile("ctbcast=\\{[^}]*[{ ,]" + name + "=(\\d+)").matcher(line);
                return m.find() ? Long.parseLong(m.group(1)) : -1;
            }
        }
        return -1;
    }
}
