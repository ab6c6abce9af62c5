package org.ubft.consensus.replica;

import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DisplacedOwnSharesTest {
    private static byte[] filled(int length, int value) {
        byte[] b = new byte[length];
        Arrays.fill(b, (byte) value);
        return b;
    }

    @Test
    void theOldestAndTheLatestDisplacedShareOfASlotAreBothKept() {
        DisplacedOwnShares shares = new DisplacedOwnShares(4, 32, 64);
        byte[] digest = filled(32, 7);
        // slot 9 at table index 1, certified in views 0, 1 and 2: the shares of views 0 and 1 are displaced in turn
        shares.keep(1, 0, 9, digest, 0, filled(64, 10), 0);
        shares.keep(1, 1, 9, digest, 0, filled(64, 11), 0);
        int oldest = shares.find(1, 0, 9, digest, 0);
        assertTrue(oldest >= 0, "a replica still sealing view 0 needs the view-0 share (adversary-mixed 1832)");
        assertTrue(shares.find(1, 1, 9, digest, 0) >= 0);
        assertTrue(Arrays.equals(shares.signatures(), shares.signatureOffset(oldest),
            shares.signatureOffset(oldest) + 64, filled(64, 10), 0, 64));
        assertFalse(shares.find(1, 0, 9, filled(32, 8), 0) >= 0, "another digest");
        assertFalse(shares.find(2, 0, 9, digest, 0) >= 0, "another table index");
    }

    @Test
    void aNewSlotAtTheSameIndexReplacesBoth() {
        DisplacedOwnShares shares = new DisplacedOwnShares(4, 32, 64);
        byte[] digest = filled(32, 7);
        shares.keep(1, 0, 9, digest, 0, filled(64, 10), 0);
        shares.keep(1, 3, 13, digest, 0, filled(64, 12), 0); // slot 13 took index 1 (the window moved)
        assertFalse(shares.find(1, 0, 9, digest, 0) >= 0);
        assertTrue(shares.find(1, 3, 13, digest, 0) >= 0);
    }
}
