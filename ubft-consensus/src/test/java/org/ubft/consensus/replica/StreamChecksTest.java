package org.ubft.consensus.replica;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.ubft.consensus.wire.ConsensusWire;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link StreamChecks}: a peer's CTBcast COMMIT whose shares are checked off the agent thread parks its stream; the
 * messages and gap reports of that stream that arrive meanwhile wait, and everything is handled in the stream's
 * order once the verdicts are back, the parked COMMIT's checks answered by exactly its verdicts. Driven here as the
 * replica drives it (a host that parks every message whose first byte says "commit").
 */
class StreamChecksTest {
    private static final int N = 3;
    private static final byte COMMIT = 1;
    private static final byte OTHER = 2;
    private static final byte NESTED = 3;
    /** A "COMMITS" message: three COMMITs' shares one after another (each as a COMMIT's, seeds 10, 20, 30 apart). */
    private static final byte BUNDLE = 4;
    private static final byte[] STATEMENT = {9, 8, 7, 6};

    private final List<String> handled = new ArrayList<>();
    private final List<long[]> submitted = new ArrayList<>();
    private final List<Integer> answers = new ArrayList<>();
    private boolean portTakes = true;
    private StreamChecks checks;

    /** The replica's part: deliverNow, processCtbcast (a COMMIT parks if it may) and onCommit's checks. */
    private final StreamChecks.Host host = new StreamChecks.Host() {
        @Override
        public void deliver(int from, long k, DirectBuffer buffer, int offset, int length) {
            checks.handling(from, true, length);
            checks.enter(from);
            try {
                if (buffer.getByte(offset) == NESTED) {
                    // a message handled inside this one (a summary's held message of peer 2): it never parks
                    checks.enter(2);
                    try {
                        UnsafeBuffer inner = message(COMMIT, 70);
                        assertFalse(checks.park(2, STATEMENT, STATEMENT.length, inner, 1, 2, (s, b, at) -> false));
                        assertFalse(checks.park(from, STATEMENT, STATEMENT.length, inner, 1, 2, (s, b, at) -> false));
                    } finally {
                        checks.exit();
                    }
                }
                if (buffer.getByte(offset) == BUNDLE) {
                    // CtbcastInbox.processCommits: from the part it resumes at, each part may park in turn
                    int resume = checks.resumePart(from);
                    for (int c = resume; c < 3; c++) {
                        int at = offset + 1 + c * 2 * ConsensusWire.SHARE_BYTES;
                        if (checks.park(from, STATEMENT, STATEMENT.length, buffer, at, 2, (s, b, a) -> false)) {
                            checks.parkedAtPart(c);
                            checks.keepParked(from, k, buffer, offset, length);
                            return;
                        }
                        if (c == resume) {
                            checks.nextPart(from);
                        }
                        handled.add(from + ":" + k + "/" + c);
                    }
                    return;
                }
                if (buffer.getByte(offset) == COMMIT
                    && checks.park(from, STATEMENT, STATEMENT.length, buffer, offset + 1, 2, (s, b, at) -> false)) {
                    assertTrue(checks.parkedNow());
                    checks.keepParked(from, k, buffer, offset, length);
                    return;
                }
                if (buffer.getByte(offset) == COMMIT) {
                    // validShares: each share answered by its verdict, else checked here (recorded as 0)
                    for (int j = 0; j < 2; j++) {
                        int at = offset + 1 + j * ConsensusWire.SHARE_BYTES;
                        int signer = buffer.getShort(at, ByteOrder.LITTLE_ENDIAN);
                        byte[] sig = new byte[64];
                        buffer.getBytes(at + 2, sig);
                        answers.add(checks.answer(signer, STATEMENT, 0, STATEMENT.length, sig, 0));
                    }
                }
                handled.add(from + ":" + k);
            } finally {
                checks.exit();
                checks.handled();
            }
        }

        @Override
        public void gap(int from, long fromK, long toK) {
            handled.add(from + ":gap" + fromK + "-" + toK);
        }
    };

    private void newChecks() {
        checks = new StreamChecks(N, 0, 2, 512, host);
        checks.checkWith((peer, id, signer, statement, length, signature, at) -> {
            submitted.add(new long[] {peer, id, signer, signature[at]});
            return portTakes;
        });
    }

    /** A message of peer 1's stream: a "COMMIT" with two shares (signers 1 and 2, signature bytes = seed), or other. */
    private static UnsafeBuffer message(byte kind, int seed) {
        UnsafeBuffer b = new UnsafeBuffer(new byte[1 + 2 * ConsensusWire.SHARE_BYTES]);
        b.putByte(0, kind);
        for (int j = 0; j < 2; j++) {
            int at = 1 + j * ConsensusWire.SHARE_BYTES;
            b.putShort(at, (short) (1 + j), ByteOrder.LITTLE_ENDIAN);
            for (int i = 0; i < 64; i++) {
                b.putByte(at + 2 + i, (byte) (seed + j));
            }
        }
        return b;
    }

    /** A "COMMITS" message of three COMMITs (share seeds 10, 20 and 30). */
    private static UnsafeBuffer bundle() {
        UnsafeBuffer bundle = new UnsafeBuffer(new byte[1 + 6 * ConsensusWire.SHARE_BYTES]);
        bundle.putByte(0, BUNDLE);
        for (int c = 0; c < 3; c++) {
            bundle.putBytes(1 + c * 2 * ConsensusWire.SHARE_BYTES, message(COMMIT, 10 * (c + 1)), 1,
                2 * ConsensusWire.SHARE_BYTES);
        }
        return bundle;
    }

    /** As Replica.onCtbcastDeliver: held behind a parked COMMIT, else handled now. */
    private void deliver(int from, long k, UnsafeBuffer m) {
        if (!checks.holdMessage(from, k, m, 0, m.capacity())) {
            host.deliver(from, k, m, 0, m.capacity());
        }
    }

    private void gap(int from, long fromK, long toK) {
        if (!checks.holdGap(from, fromK, toK)) {
            host.gap(from, fromK, toK);
        }
    }

    @Test
    void aParkedCommitHoldsItsStreamAndEverythingIsHandledInOrderWithItsVerdicts() {
        newChecks();
        deliver(1, 1, message(OTHER, 0));
        deliver(1, 2, message(COMMIT, 40));
        assertEquals(2, submitted.size(), "both shares checked off the thread");
        deliver(1, 3, message(OTHER, 0));
        gap(1, 4, 6);
        deliver(1, 6, message(OTHER, 0));
        deliver(2, 1, message(OTHER, 0)); // another peer's stream is not held
        assertEquals(List.of("1:1", "2:1"), handled);
        assertEquals(4, checks.waiting(1));

        checks.verdict(submitted.get(0)[1], true);
        assertEquals(List.of("1:1", "2:1"), handled, "one verdict still out");
        checks.verdict(submitted.get(0)[1], false); // a second verdict for the same check: ignored
        checks.verdict(submitted.get(1)[1], false);
        assertEquals(List.of("1:1", "2:1", "1:2", "1:3", "1:gap4-6", "1:6"), handled);
        assertEquals(List.of(ChargedCrypto.VALID, ChargedCrypto.INVALID), answers,
            "the parked COMMIT's checks answered by exactly their verdicts");
        assertEquals(0, checks.waiting(1));
        assertEquals(1, checks.parked());
        assertEquals(1, checks.answered());
    }

    @Test
    void aCommitWaitingBehindAnotherParksInTurnWhenItsTurnComes() {
        newChecks();
        deliver(1, 1, message(COMMIT, 10));
        deliver(1, 2, message(COMMIT, 20));
        deliver(1, 3, message(OTHER, 0));
        assertEquals(2, submitted.size());
        checks.verdict(submitted.get(0)[1], true);
        checks.verdict(submitted.get(1)[1], true);
        assertEquals(List.of("1:1"), handled, "the second COMMIT parked in turn, the third message behind it");
        assertEquals(4, submitted.size());
        assertEquals(20, submitted.get(2)[3], "the second COMMIT's own shares are checked");
        checks.verdict(submitted.get(2)[1], true);
        checks.verdict(submitted.get(3)[1], true);
        assertEquals(List.of("1:1", "1:2", "1:3"), handled);
        assertEquals(List.of(ChargedCrypto.VALID, ChargedCrypto.VALID, ChargedCrypto.VALID, ChargedCrypto.VALID),
            answers);
    }

    /**
     * A COMMITS message's parts park one by one: each part's checks go out when its turn comes, the message waits whole
     * and is handled again from the part that parked (the parts before it handled once), the messages behind it wait.
     */
    @Test
    void theCommitsOfABundleParkOneByOneAndTheBundleResumesWhereItParked() {
        newChecks();
        UnsafeBuffer bundle = bundle();
        deliver(1, 1, bundle);
        deliver(1, 2, message(OTHER, 0));
        for (int c = 0; c < 3; c++) {
            assertEquals(2 * (c + 1), submitted.size(), "part " + c + "'s checks, and only those, are out: " + handled);
            assertEquals(10 * (c + 1), submitted.get(2 * c)[3]);
            assertEquals(2, checks.waiting(1));
            checks.verdict(submitted.get(2 * c)[1], true);
            checks.verdict(submitted.get(2 * c + 1)[1], true);
        }
        assertEquals(List.of("1:1/0", "1:1/1", "1:1/2", "1:2"), handled);
        assertEquals(3, checks.parked());
        assertEquals(3, checks.answered());
        assertEquals(0, checks.waiting(1));

        // longer than a slot of the room (no valid message is): handled at once, no part parks (it could not be kept)
        UnsafeBuffer tooLong = new UnsafeBuffer(new byte[600]);
        tooLong.putBytes(0, bundle, 0, bundle.capacity());
        deliver(1, 3, tooLong);
        assertEquals(List.of("1:1/0", "1:1/1", "1:1/2", "1:2", "1:3/0", "1:3/1", "1:3/2"), handled);
        assertEquals(3, checks.parked());
    }

    /**
     * A full room forces a parked COMMITS message: it is handled whole now, the part that parked with what came back and
     * the parts after it without parking (each would be forced at once: its checks submitted for nothing), so the room
     * has space again, no entry is overwritten and everything is handled in order.
     */
    @Test
    void aFullRoomForcesAParkedBundleWhole() {
        newChecks();
        deliver(1, 1, bundle());
        for (int k = 2; k <= StreamChecks.ROOM; k++) {
            deliver(1, k, message(OTHER, 0));
        }
        assertEquals(StreamChecks.ROOM, checks.waiting(1));
        deliver(1, StreamChecks.ROOM + 1, message(OTHER, 0));
        List<String> expected = new ArrayList<>(List.of("1:1/0", "1:1/1", "1:1/2"));
        for (int k = 2; k <= StreamChecks.ROOM + 1; k++) {
            expected.add("1:" + k);
        }
        assertEquals(expected, handled);
        assertEquals(0, checks.waiting(1));
        assertEquals(1, checks.parked());
        assertEquals(1, checks.forced());
        assertEquals(2, submitted.size(), "only the first part's checks went out");
    }

    @Test
    void aFullRoomHandlesTheParkedCommitAtOnceItsMissingChecksDoneOnTheThread() {
        newChecks();
        deliver(1, 1, message(COMMIT, 10));
        checks.verdict(submitted.get(0)[1], true);
        for (int k = 2; k <= StreamChecks.ROOM; k++) {
            deliver(1, k, message(OTHER, 0));
        }
        assertTrue(handled.isEmpty());
        assertEquals(StreamChecks.ROOM, checks.waiting(1));
        deliver(1, StreamChecks.ROOM + 1, message(OTHER, 0)); // a flood: the room is full
        assertEquals(StreamChecks.ROOM + 1, handled.size(), "everything handled, in order: " + handled);
        assertEquals("1:1", handled.get(0));
        assertEquals(List.of(ChargedCrypto.VALID, 0), answers, "the verdict that came back used, the other done here");
        assertEquals(1, checks.forced());
        checks.verdict(submitted.get(1)[1], false); // the late verdict of a COMMIT handled already: ignored
        assertEquals(StreamChecks.ROOM + 1, handled.size());
    }

    @Test
    void checksThePortRefusesOrDropsAreDoneOnTheThreadAndTheOwnStreamNeverParks() {
        newChecks();
        portTakes = false;
        deliver(1, 1, message(COMMIT, 10));
        assertEquals(List.of("1:1"), handled, "no check taken: not parked, both checked on the thread");
        assertEquals(List.of(0, 0), answers);
        assertEquals(0, checks.parked());
        handled.clear();
        answers.clear();
        submitted.clear();
        portTakes = true;
        newChecks();
        deliver(1, 1, message(COMMIT, 10));
        checks.dropped(submitted.get(0)[1]);
        checks.verdict(submitted.get(1)[1], true);
        assertEquals(List.of("1:1"), handled);
        assertEquals(List.of(0, ChargedCrypto.VALID), answers);
        answers.clear();
        deliver(0, 1, message(COMMIT, 10)); // this replica's own stream: its shares are known, never parked
        assertEquals(List.of("1:1", "0:1"), handled);
        assertFalse(checks.parkedNow());
        deliver(1, 2, message(NESTED, 0)); // a message handled inside another may not park (its order)
        assertEquals(List.of("1:1", "0:1", "1:2"), handled);
        assertEquals(1, checks.parked());
    }

    /**
     * A message too long for the room (longer than any valid one: a Byzantine broadcaster's) behind a parked COMMIT
     * does not overtake it: everything waiting is handled first, in order, its missing checks on the thread.
     */
    @Test
    void aMessageTooLongForTheRoomWaitsForWhatCameBefore() {
        newChecks();
        deliver(1, 1, message(COMMIT, 10));
        deliver(1, 2, message(COMMIT, 20));
        assertEquals(2, submitted.size(), "the second COMMIT waits unparked behind the first");
        UnsafeBuffer huge = new UnsafeBuffer(new byte[600]);
        huge.putByte(0, OTHER);
        deliver(1, 3, huge);
        assertEquals(List.of("1:1", "1:2", "1:3"), handled);
        assertEquals(List.of(0, 0, 0, 0), answers, "no verdict came: every check done on the thread");
        assertEquals(0, checks.waiting(1));
        assertEquals(1, checks.parked(), "nothing parked while the room was flushed");
    }
}
