package org.ubft.consensus.wire;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ubft.consensus.wire.RequestNumbers.MAX_SEQUENCE;
import static org.ubft.consensus.wire.RequestNumbers.MAX_SESSION;
import static org.ubft.consensus.wire.RequestNumbers.first;
import static org.ubft.consensus.wire.RequestNumbers.inWindow;
import static org.ubft.consensus.wire.RequestNumbers.isNext;
import static org.ubft.consensus.wire.RequestNumbers.number;
import static org.ubft.consensus.wire.RequestNumbers.stale;

/** The session/sequence split of request numbers and the one execution rule. */
class RequestNumbersTest {
    @Test
    void aNumberIsASessionAndASequenceOrderedBySessionFirst() {
        long n = number(12_345, 678);
        assertEquals(12_345, RequestNumbers.session(n));
        assertEquals(678, RequestNumbers.sequence(n));
        assertTrue(number(12_346, 1) > number(12_345, MAX_SEQUENCE));
        assertTrue(number(MAX_SESSION, MAX_SEQUENCE) > 0, "numbers stay positive");
        assertEquals(1, first(0), "session 0 is plain numbering from 1");
        assertThrows(IllegalArgumentException.class, () -> number(MAX_SESSION + 1, 1));
        assertThrows(IllegalArgumentException.class, () -> number(1, MAX_SEQUENCE + 1));
        assertFalse(RequestNumbers.valid(number(5, 0)), "sequence 0 is no request");
        assertFalse(RequestNumbers.valid(0));
    }

    @Test
    void theNextIsTheFollowingSequenceOrTheFirstOfALaterSession() {
        long last = number(100, 7);
        assertTrue(isNext(last, number(100, 8)));
        assertFalse(isNext(last, number(100, 9)), "no gap");
        assertFalse(isNext(last, last), "at most once");
        assertTrue(isNext(last, first(101)));
        assertTrue(isNext(last, first(9_999)), "any later session");
        assertFalse(isNext(last, number(101, 2)), "a later session from its first");
        assertFalse(isNext(last, first(99)), "an earlier session is stale");
        assertFalse(isNext(number(100, MAX_SEQUENCE), number(101, 0)), "last + 1 across the boundary is sequence 0");
        assertTrue(isNext(0, 1), "nothing executed: plain 1");
        assertTrue(isNext(0, first(100)), "nothing executed: a session's first");
        assertTrue(stale(last, number(99, MAX_SEQUENCE)));
        assertFalse(stale(last, number(100, 1)), "same session, executed: not stale");
    }

    @Test
    void theWindowIsTheCurrentSessionsNextOrALaterSessionsFirst() {
        long last = number(100, 7);
        assertTrue(inWindow(last, number(100, 8), 16));
        assertTrue(inWindow(last, number(100, 23), 16));
        assertFalse(inWindow(last, number(100, 24), 16), "too far ahead");
        assertFalse(inWindow(last, last, 16));
        assertTrue(inWindow(last, number(200, 1), 16));
        assertTrue(inWindow(last, number(200, 16), 16), "a new session's first requests in any order");
        assertFalse(inWindow(last, number(200, 17), 16), "a jump");
        assertFalse(inWindow(last, number(99, 8), 16), "stale");
        assertFalse(inWindow(last, number(200, 0), 16));
    }

    @Test
    void aRequestWithSequenceZeroIsMalformed() {
        UnsafeBuffer b = new UnsafeBuffer(new byte[64]);
        int len = ClientWire.putRequest(b, 0, 0, number(3, 0), new UnsafeBuffer(new byte[2]), 0, 2);
        assertEquals(-1, ClientWire.requestLength(b, 0, len, 16));
        len = ClientWire.putRequest(b, 0, 0, first(3), new UnsafeBuffer(new byte[2]), 0, 2);
        assertEquals(len, ClientWire.requestLength(b, 0, len, 16));
    }
}
