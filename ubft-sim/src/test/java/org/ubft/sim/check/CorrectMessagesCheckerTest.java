package org.ubft.sim.check;

import org.junit.jupiter.api.Test;
import org.ubft.consensus.replica.ReplicaCounters.Drop;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Which drops {@link CorrectMessagesChecker} holds a run of correct replicas to: what only a Byzantine replica's
 * message earns always, a bad signature or a refusal for want of budget only when the clients are correct too (a
 * forged client signature is one, a client's flood the other),
 * and never what a correct run does have (late, repeated or out-of-window messages).
 */
class CorrectMessagesCheckerTest {
    private static CorrectMessagesChecker checker(boolean clientsCorrect) {
        return new CorrectMessagesChecker(new Violations(), 3, i -> null, clientsCorrect);
    }

    @Test
    void replicaOnlyDropsAreHeldWhateverTheClients() {
        for (boolean clients : new boolean[] {true, false}) {
            for (Drop d : Drop.values()) {
                if (d.name().startsWith("INVALID_") || CorrectMessagesChecker.REPLICAS_ONLY.contains(d)) {
                    assertTrue(checker(clients).held(d), d + " with correct clients: " + clients);
                }
            }
            assertTrue(checker(clients).held(Drop.MALFORMED));
            assertTrue(checker(clients).held(Drop.BAD_CERTIFICATE));
        }
    }

    @Test
    void aBadSignatureIsHeldOnlyWhenTheClientsAreCorrect() {
        assertTrue(checker(true).held(Drop.BAD_SIGNATURE));
        assertFalse(checker(false).held(Drop.BAD_SIGNATURE), "byz-client-forge's forged requests");
    }

    /** A correct sender never runs out of its verification budget; a flooding client may (byz-client-forge). */
    @Test
    void overBudgetIsHeldOnlyWhenTheClientsAreCorrect() {
        assertTrue(checker(true).held(Drop.OVER_BUDGET));
        assertFalse(checker(false).held(Drop.OVER_BUDGET), "a client's flood of signed requests");
    }

    @Test
    void dropsOfACorrectRunAreNotHeld() {
        for (Drop d : new Drop[] {Drop.STALE, Drop.DUPLICATE, Drop.OUT_OF_WINDOW, Drop.AFTER_GAP, Drop.BAD_TIME,
            Drop.BAD_CLIENT_REQUEST, Drop.EQUIVOCATED_REQUEST}) {
            assertFalse(checker(true).held(d), d.name());
        }
    }
}
