package org.ubft.sim.byzantine;

import org.agrona.DirectBuffer;
import org.junit.jupiter.api.Test;
import org.ubft.consensus.replica.ReplicaOutput;
import org.ubft.sim.ReplicaBehaviour;
import org.ubft.sim.SlotContext;
import org.ubft.sim.scenario.Faults;
import org.ubft.sim.scenario.Plan;
import org.ubft.sim.scenario.Scenario;
import org.ubft.sim.scenario.Scenarios;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** The example of a new Byzantine behaviour in docs/byzantine.md ("Writing a Byzantine behaviour") compiles, acts and runs clean. */
class ByzantineReadmeExampleTest {
    // --- as in docs/byzantine.md ---
    static final class DoubleSender extends ByzantineBehaviour {
        DoubleSender() {
            super("double-sender");
        }

        @Override
        public ReplicaOutput wrapOutput(ReplicaOutput output, SlotContext slot) {
            return new ReplicaOutput() {
                public long ctbcast(DirectBuffer b, int off, int len) { return output.ctbcast(b, off, len); }
                public void allDelivered(long k) { output.allDelivered(k); }
                public void tbcast(DirectBuffer b, int off, int len) { output.tbcast(b, off, len); }
                public void reply(int client, DirectBuffer b, int off, int len) { output.reply(client, b, off, len); }
                public void send(int to, DirectBuffer b, int off, int len) {
                    output.send(to, b, off, len);
                    output.send(to, b, off, len);
                    acted();
                }
            };
        }
    }

    @Test
    void theReadmeBehaviourRuns() {
        Scenario doubles = Scenario.of("byz-double-sender", "a follower sends each direct message twice", (c, r) -> {
            Faults.synchronous(c, r);
            return new Plan(0, Scenarios.AFTER_GST + Scenarios.LIVENESS_BOUND, Scenarios.LIVENESS_BOUND);
        }).withBehaviours(() -> new ReplicaBehaviour[] {null, new DoubleSender()});
        // --- end of the example in docs/byzantine.md ---
        ByzProbe p = new ByzProbe(doubles, 1);
        assertTrue(p.result.ok() && p.result.accepted() > 50, p.toString());
        assertTrue(p.behaviour().actions() > 0, p.toString());
    }
}
