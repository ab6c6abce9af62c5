package org.ubft.sim.byzantine;

import org.junit.jupiter.api.Test;
import org.ubft.sim.ClientBehaviour;
import org.ubft.sim.scenario.ByzantineScenarios;
import org.ubft.sim.scenario.RunResult;
import org.ubft.sim.scenario.Scenario;
import org.ubft.sim.scenario.Simulator;

import java.util.function.Predicate;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Each {@code byz-client-*} scenario (client 0 Byzantine, every replica correct) over {@link #SEEDS}: no violation
 * (agreement, validity against what the client really sent, no duplicate, bounded memory, liveness of client 1), every
 * request of client 1 accepted, the behaviour acted, and evidence at the replicas or the Byzantine client's core of
 * how the protocol handled it.
 */
class ByzantineClientsTest {
    private static final long[] SEEDS = {3, 4};

    /** One run, with the client behaviour it made and the counters of replicas and Byzantine clients. */
    record Run(RunResult result, ByzantineClient behaviour) {
        /** Counter {@code name} of the line starting with {@code node} (e.g. "replica-1 ", "client-0 "). */
        long counter(String node, String name) {
            for (String line : result.countersLines().split("\n")) {
                if (line.startsWith(node)) {
                    var m = Pattern.compile("[ {,]" + name + "=(\\d+)").matcher(line);
                    return m.find() ? Long.parseLong(m.group(1)) : 0;
                }
            }
            return 0;
        }

        long sum(String name) {
            return counter("replica-0 ", name) + counter("replica-1 ", name) + counter("replica-2 ", name);
        }

        @Override
        public String toString() {
            return result.scenario() + " seed " + result.seed() + " ok=" + result.ok() + " submitted="
                + result.submitted() + " accepted=" + result.accepted() + " " + behaviour
                + (result.ok() ? "" : "\n" + result.violations().kept()) + "\n" + result.countersLines();
        }
    }

    static Run run(Scenario s, long seed) {
        ByzantineClient[] made = new ByzantineClient[1];
        Scenario probe = s.withClientBehaviours(() -> {
            ClientBehaviour[] b = s.clientBehaviours().get();
            made[0] = (ByzantineClient) b[0];
            return b;
        });
        return new Run(Simulator.run(probe, seed), made[0]);
    }

    private static void attackFailsSafely(Scenario scenario, Predicate<Run> evidence) {
        for (long seed : SEEDS) {
            Run r = run(scenario, seed);
            String where = r.result.replayCommand(scenario.name() + "-" + seed + ".trace") + "\n" + r;
            assertTrue(r.result.ok(), where);
            // the correct client's requests (only its are counted) all complete
            assertTrue(r.result.accepted() > 50 && r.result.accepted() == r.result.submitted(), where);
            assertTrue(r.behaviour.actions() > 0, "the behaviour never acted: " + where);
            assertTrue(evidence.test(r), "no evidence of the attack: " + where);
        }
    }

    /**
     * The followers never get the client's requests, so they cannot endorse its unsigned copy: the leader's proposal
     * waits until the client's request timeout, when the client retransmits SIGNED (still to the leader only), and the
     * followers accept the signed copy in the PREPARE (the leader proposes a request only once every follower echoed
     * it, or signed). So the Byzantine client is served too, after retransmitting signed, and the correct replicas
     * never change view.
     */
    @Test
    void aRequestSentOnlyToTheLeaderIsDecidedSignedOnly() {
        attackFailsSafely(ByzantineScenarios.CLIENT_LEADER_ONLY, r -> r.counter("client-0 ", "signed_retransmissions") > 0
            && r.counter("client-0 ", "completed") > 0 && r.sum("view_changes") == 0);
    }

    /**
     * Each follower holds its own variant of a request number, and each Echo Req names its variant (the SHA-256 of
     * its identity), so the leader counts no echo for its own variant and does not propose it: it waits for the
     * client's signed retransmission, which every follower endorses. Each number executes once, the same request
     * everywhere (agreement), validity accepts only a variant the client really sent to some replica, and the
     * correct replicas never change view (when echoes named only the number, the leader proposed a variant no
     * follower could endorse, and the view changed every 10 ms or so, client 1 waiting up to 11 ms a request).
     */
    @Test
    void differentRequestsUnderOneNumberExecuteOnceAndAlike() {
        attackFailsSafely(ByzantineScenarios.CLIENT_EQUIVOCATE,
            r -> r.counter("client-0 ", "signed_retransmissions") > 0 && r.counter("client-0 ", "completed") > 0
                && r.sum("view_changes") == 0);
    }

    /**
     * Replayed numbers are answered from the reply cache, never executed again (no-duplicate and validity hold): the
     * client drops those replies as late, so it drops more late replies than the one per completed request (the
     * (f+2)-th reply) it drops anyway.
     */
    @Test
    void replayedRequestNumbersAreNotExecutedAgain() {
        attackFailsSafely(ByzantineScenarios.CLIENT_REPLAY,
            r -> r.counter("client-0 ", "dropped_late") > r.counter("client-0 ", "completed") + 20);
    }

    /**
     * The number sent just before, sent again signed with another payload, often while the leader's proposal of the
     * first payload is in flight: every replica keeps the request it holds and drops the other unchecked
     * ({@code EQUIVOCATED_REQUEST}), so the leader's proposal is endorsed and no view changes. When the signed copy
     * replaced the held one, no replica (the leader included) endorsed the proposal: every seed of 1-4 changed view
     * once or twice and served about half the requests.
     */
    @Test
    void aSignedSwapOfAnInFlightRequestTakesNothingFromTheLeader() {
        attackFailsSafely(ByzantineScenarios.CLIENT_SWAP, r -> {
            for (int i = 0; i < 3; i++) {
                if (r.counter("replica-" + i + " ", "EQUIVOCATED_REQUEST") == 0) {
                    return false;
                }
            }
            return r.sum("view_changes") == 0;
        });
    }

    /**
     * Signed requests with forged signatures, each in a later session (so each passes a replica's cheap checks) and
     * sent twice: every replica checks them off its agent thread ({@code ClientPreverifier}) and drops each with its
     * verdict; none executes (validity: the forged payloads were never "sent" by the client's workload).
     */
    @Test
    void forgedSignaturesAreCheckedOffTheAgentThreadAndNeverTaken() {
        attackFailsSafely(ByzantineScenarios.CLIENT_FORGE, r -> {
            for (int i = 0; i < 3; i++) {
                String replica = "replica-" + i + " ";
                if (r.counter(replica, "client_checks_off_thread") == 0 || r.counter(replica, "BAD_SIGNATURE") == 0) {
                    return false;
                }
            }
            return true;
        });
    }

    /**
     * A client that never sends one of its request numbers leaves its later requests waiting at every replica, ahead
     * of the next one it can execute, for good, while replica 2 complains about every view every millisecond: a
     * correct replica complains on such a request only when it executes nothing and waits on a gap in the leader's
     * stream, so no view change happens (before, a far-ahead request and f others' complaints made one about every
     * 20 ms, and an idle cluster changed view every timeout even without the complaining replica).
     */
    @Test
    void aHoleInAClientsNumbersForcesNoViewChangeWithAReplicaThatAlwaysComplains() {
        attackFailsSafely(ByzantineScenarios.GAP_CLIENT_COMPLAINER, r -> r.sum("view_changes") == 0);
    }
}
