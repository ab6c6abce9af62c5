package org.ubft.consensus.replica;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** {@link SlotTable#claim} is the one place an entry changes slot: every column is reset, the shares included. */
class SlotTableTest {
    @Test
    void claimingAnEntryForAnotherSlotResetsEveryColumnAndTheSameSlotKeepsThem() {
        SlotTable t = new SlotTable(4, 3, 2, 0, 32); // 8 entries
        assertEquals(-1, t.indexIfCurrent(9));
        int i = t.claim(9);
        assertEquals(1, i);
        t.prepView[i] = 2;
        t.prepLength[i] = 10;
        t.endorsed[i] = true;
        t.wcView[i] = 2;
        t.wcMask[i] = 7;
        t.sentWillCertify[i] = 2;
        t.sentWillCommit[i] = 2;
        t.sentCertify[i] = 2;
        t.sentCommit[i] = 2;
        t.reproposedAfterDecision[i] = 2;
        t.recommittedView[i] = 2;
        t.decided[i] = true;
        t.proposeTime[i] = 5;
        t.shares.put(i, 1, 2, 9, new byte[32], 0, new byte[64], 0);
        assertEquals(i, t.claim(9));
        assertEquals(2, t.prepView[i], "claiming the slot it holds changes nothing");
        assertEquals(i, t.claim(17)); // slot 17: the same entry, the window moved
        assertEquals(-1, t.indexIfCurrent(9));
        assertEquals(i, t.indexIfCurrent(17));
        assertEquals(-1, t.prepView[i]);
        assertEquals(0, t.prepLength[i]);
        assertFalse(t.endorsed[i]);
        assertEquals(-1, t.wcView[i]);
        assertEquals(0, t.wcMask[i]);
        assertEquals(-1, t.sentWillCertify[i]);
        assertEquals(-1, t.sentWillCommit[i]);
        assertEquals(-1, t.sentCertify[i]);
        assertEquals(-1, t.sentCommit[i]);
        assertEquals(-1, t.reproposedAfterDecision[i]);
        assertEquals(-1, t.recommittedView[i]);
        assertFalse(t.decided[i]);
        assertEquals(0, t.proposeTime[i]);
        assertFalse(t.shares.holds(i, 1, 2, 9));
    }
}
