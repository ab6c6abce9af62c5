package org.ubft.consensus.replica;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

class VerificationBudgetTest {
    private static final long MS = 1_000_000;

    @Test
    void aSenderHasItsCapThenWhatProgressAndTimeGiveIt() {
        VerificationBudget b = new VerificationBudget(3, 2, 1, 16, 8, 0);
        long cap = b.cap();
        for (long i = 0; i < cap; i++) {
            assertTrue(b.take(2, 0));
        }
        assertFalse(b.take(2, 0), "the cap is spent");
        assertEquals(1, b.refused(2));
        assertTrue(b.take(1, 0), "another replica's budget is its own");
        assertTrue(b.take(3, 0), "and so is a client's (source n + c)");
        b.slotExecuted();
        for (long i = 0; i < b.perSlot(); i++) {
            assertTrue(b.take(2, 0));
        }
        assertFalse(b.take(2, 0), "an executed slot gives perSlot more");
        assertTrue(b.take(2, 3 * MS), "a millisecond gives PER_MILLI more");
        assertTrue(b.take(2, 3 * MS));
        assertTrue(b.take(2, 3 * MS));
        assertFalse(b.take(2, 3 * MS));
        assertEquals(cap + b.perSlot() + 3, b.spent(2));
    }

    @Test
    void aCertificateIsPaidWholeOrRefusedWholeSoThatItsRetriesSaveUp() {
        VerificationBudget b = new VerificationBudget(3, 0, 1, 16, 8, 0);
        while (b.take(1, 0)) {
            // spend the cap
        }
        long now = 0;
        for (int retry = 0; retry < 10; retry++) { // a certificate of 2 shares asked for again every millisecond
            now += 1_000_000;
            if (b.take(1, now, 2)) {
                return; // the tokens of two milliseconds paid for it
            }
        }
        fail("a two-share certificate retried for 10 ms was never paid for: each retry spent the token it had saved");
    }

    @Test
    void aCertificateTheSendersTokensCannotCoverIsRefusedWholeThenPaidOnceTheyCome() {
        VerificationBudget b = new VerificationBudget(3, 0, 1, 16, 8, 0);
        while (b.take(1, 0)) {
            // spend replica 1's cap
        }
        long[] now = {1_000_000}; // one token since
        int[] checked = {0};
        ConsensusCrypto accepting = new ConsensusCrypto() {
            @Override
            public void sign(byte[] message, int offset, int length, byte[] signature, int at) {
            }

            @Override
            public boolean verifyReplica(int replica, byte[] message, int offset, int length, byte[] signature, int at) {
                checked[0]++;
                return true;
            }

            @Override
            public boolean verifyClient(int client, byte[] message, int offset, int length, byte[] signature, int at) {
                return true;
            }
        };
        ChargedCrypto crypto = new ChargedCrypto(accepting, b, () -> now[0], 3);
        org.agrona.concurrent.UnsafeBuffer shares = new org.agrona.concurrent.UnsafeBuffer(
            new byte[2 * org.ubft.consensus.wire.ConsensusWire.SHARE_BYTES]);
        shares.putShort(0, (short) 0, java.nio.ByteOrder.LITTLE_ENDIAN);
        shares.putShort(org.ubft.consensus.wire.ConsensusWire.SHARE_BYTES, (short) 2, java.nio.ByteOrder.LITTLE_ENDIAN);
        byte[] statement = new byte[8];
        byte[] scratch = new byte[64];
        crypto.charge(1); // replica 1 relays a certificate of two shares (replicas 0 and 2)
        assertFalse(ByzantineChecks.validShares(crypto, 3, 2, shares, 0, 2, statement, 8, scratch));
        assertTrue(crypto.refusedLast(), "refused for want of tokens, not as a bad signature");
        assertEquals(0, checked[0], "no share checked: the tokens of one are kept");
        now[0] += 1_000_000; // a second token
        crypto.charge(1);
        assertTrue(ByzantineChecks.validShares(crypto, 3, 2, shares, 0, 2, statement, 8, scratch));
        assertEquals(2, checked[0]);
    }

    @Test
    void aRefusedReservationTakesNothing() {
        VerificationBudget b = new VerificationBudget(3, 0, 1, 16, 8, 0);
        long cap = b.cap();
        assertFalse(b.take(2, 0, (int) cap + 1));
        assertTrue(b.take(2, 0, (int) cap), "the refused reservation left every token");
        assertFalse(b.take(2, 0));
    }

    @Test
    void creditNeverLiftsASenderAboveTheCapAndOwnWorkIsNeverRefused() {
        VerificationBudget b = new VerificationBudget(3, 0, 1, 16, 8, 0);
        for (int i = 0; i < 1_000; i++) {
            b.slotExecuted();
            b.progressed();
        }
        long taken = 0;
        while (b.take(0, 0)) {
            taken++;
        }
        assertEquals(b.cap(), taken, "a quiet sender saves up to the cap, no more");
        for (int i = 0; i < 10_000; i++) {
            assertTrue(b.take(-1, 0));
        }
        assertEquals(b.cap() + 10_000, b.total());
    }

    @Test
    void aReplicaProvedFaultyForfeitsItsTokensAndKeepsOnlyTheSteadyRate() {
        VerificationBudget b = new VerificationBudget(3, 1, 1, 256, 128, 0);
        assertTrue(b.cap() > 1_000, "W = 256: a burst of " + b.cap() + " checks for a correct sender's view change");
        assertTrue(b.take(2, 0));
        b.provedFaulty(2, 0);
        assertTrue(b.provedFaulty(2));
        assertFalse(b.provedFaulty(1));
        assertFalse(b.take(2, 0), "its tokens are forfeited");
        assertTrue(b.take(1, 0), "another replica's budget is untouched");
        for (int i = 0; i < 1_000; i++) {
            b.slotExecuted();
            b.progressed();
        }
        long taken = 0;
        while (b.take(2, 0)) {
            taken++;
        }
        assertEquals(b.perSlot(), taken, "its cap is perSlot from now on, however much credit comes");
        b.slotExecuted();
        long more = 0;
        while (b.take(2, 0)) {
            more++;
        }
        assertEquals(b.perSlot(), more, "an executed slot still gives it perSlot");
        b.provedFaulty(-1, 0);
        b.provedFaulty(3, 0); // a client's source, or own work: not a replica proved faulty
        assertFalse(b.provedFaulty(3));
    }

    @Test
    void aBadSignatureProvesItsSenderFaultyARefusalDoesNot() {
        VerificationBudget b = new VerificationBudget(3, 1, 1, 16, 8, 0);
        boolean[] valid = {true};
        ConsensusCrypto crypto = new ConsensusCrypto() {
            @Override
            public void sign(byte[] message, int offset, int length, byte[] signature, int at) {
            }

            @Override
            public boolean verifyReplica(int replica, byte[] message, int offset, int length, byte[] signature, int at) {
                return valid[0];
            }

            @Override
            public boolean verifyClient(int client, byte[] message, int offset, int length, byte[] signature, int at) {
                return false;
            }
        };
        ChargedCrypto charged = new ChargedCrypto(crypto, b, () -> 0, 3);
        byte[] statement = new byte[8];
        byte[] signature = new byte[64];
        charged.charge(1);
        assertTrue(charged.verifyReplica(1, statement, 0, 8, signature, 0));
        assertFalse(b.provedFaulty(1), "a good signature proves nothing");
        while (b.take(2, 0)) {
            // spend replica 2's cap
        }
        charged.charge(2);
        valid[0] = false;
        assertFalse(charged.verifyReplica(2, statement, 0, 8, signature, 0));
        assertTrue(charged.refusedLast());
        assertFalse(b.provedFaulty(2), "refused unchecked: nothing is known of the signature");
        charged.charge(1); // replica 1 relays a share of replica 0's that fails its check
        assertFalse(charged.verifyReplica(0, statement, 0, 8, signature, 0));
        assertTrue(b.provedFaulty(1), "the relayer is proved faulty");
        assertFalse(b.provedFaulty(0), "not the share's signer: the relayer should have verified it");
        charged.charge(-1); // own work (a message of this replica's own)
        assertFalse(charged.verifyReplica(0, statement, 0, 8, signature, 0));
        assertFalse(b.provedFaulty(0));
        charged.chargeClient(0);
        assertFalse(charged.verifyClient(0, statement, 0, 8, signature, 0));
        assertFalse(b.provedFaulty(0), "a client's bad signature proves no replica faulty");
    }
}
