package org.ubft.consensus.replica;

import org.agrona.DirectBuffer;
import org.junit.jupiter.api.Test;
import org.ubft.consensus.wire.ClientWire;
import org.ubft.consensus.wire.ConsensusWire;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * After a leader's crash the new leader, which executed every slot it re-proposes (Algorithm 3, lines 18-20), proposes
 * the requests waiting first, and holds its re-proposals until those new slots' COMMITs went out: a follower delivers
 * the leader's CTBcast stream in order, each message on the slow path with a replica down, so re-proposals sent with
 * the first new PREPAREs stood between them and their COMMIT (on the lent 16-core host the first execution came 13-21
 * ms after the NEW_VIEW, docs/performance.md).
 */
class ReproposalOrderTest {
    private static final long MS = 1_000_000;

    @Test
    void theFirstNewSlotsCommitGoesBeforeAnyReproposal() {
        ModelCluster c = new ModelCluster(ReplicaConfig.defaults(3, 2).withWindow(64), 5);
        for (ModelCluster.TestClient client : c.clientList) {
            client.target = 300;
        }
        assertTrue(c.runUntilDone(60, 5_000 * MS));
        int interval = c.config.checkpointInterval();
        for (int j = 0; j < 1_000 && c.replicas[1].executedUpTo() % interval < interval / 2; j++) {
            c.run(100_000); // the crash with half an interval of slots since the checkpoint, to re-propose
        }
        for (ModelCluster.TestClient client : c.clientList) {
            client.target = client.accepted + 1; // the one in flight finishes: the crash finds nothing in flight
        }
        c.run(20 * MS);
        List<long[]> stream = new ArrayList<>(); // replica 1's view-1 CTBcast messages to replica 2: {type, slot}
        c.filter = (kind, from, to, b, o, l) -> {
            if (kind == ModelCluster.Kind.CTBCAST && from == 1 && to == 2) {
                record(stream, b, o);
            }
            return true;
        };
        c.crashed[0] = true; // nothing in flight; the followers suspect it once a new request waits a request timeout
        c.clientList[0].target = c.clientList[0].accepted + 1;
        long done = c.clientList[0].target;
        for (int j = 0; j < 5_000 && c.clientList[0].accepted < done; j++) {
            c.run(100_000);
        }
        assertEquals(done, c.clientList[0].accepted, "the request is served in view 1: " + c.replicas[1].counters());
        assertEquals(1, c.replicas[1].view());
        int firstPrepare = -1;
        for (int j = 0; j < stream.size() && firstPrepare < 0; j++) {
            if (stream.get(j)[0] == ConsensusWire.PREPARE) {
                firstPrepare = j;
            }
        }
        assertTrue(firstPrepare >= 0, "view 1 has PREPAREs");
        long firstNew = stream.get(firstPrepare)[1];
        int firstReproposal = -1;
        int firstNewCommit = -1;
        for (int j = firstPrepare; j < stream.size(); j++) {
            long[] m = stream.get(j);
            if (m[0] == ConsensusWire.PREPARE && m[1] < firstNew && firstReproposal < 0) {
                firstReproposal = j;
            }
            if (m[0] == ConsensusWire.COMMIT && m[1] == firstNew && firstNewCommit < 0) {
                firstNewCommit = j;
            }
        }
        assertTrue(firstReproposal > 0, "slots since the checkpoint were re-proposed: " + describe(stream));
        assertTrue(firstNewCommit > 0, "the first new slot was committed on the slow path: " + describe(stream));
        assertTrue(firstNewCommit < firstReproposal,
            "the first new slot's COMMIT before the re-proposals: " + describe(stream));
    }

    /** Records a view-1 PREPARE or COMMIT as {type, slot}, each COMMIT of a COMMITS message too. */
    private static void record(List<long[]> stream, DirectBuffer b, int o) {
        int type = b.getByte(o) & 0xFF;
        if (type == ConsensusWire.COMMITS) {
            int count = b.getByte(o + 1) & 0xFF;
            int at = o + 2;
            for (int j = 0; j < count; j++) {
                int length = b.getInt(at, ClientWire.ORDER);
                record(stream, b, at + 4);
                at += 4 + length;
            }
        } else if ((type == ConsensusWire.PREPARE || type == ConsensusWire.COMMIT) && b.getLong(o + 1, ClientWire.ORDER) == 1) {
            stream.add(new long[] {type, b.getLong(o + 9, ClientWire.ORDER)});
        }
    }

    private static String describe(List<long[]> stream) {
        StringBuilder s = new StringBuilder();
        for (int j = 0; j < Math.min(stream.size(), 40); j++) {
            s.append(stream.get(j)[0] == ConsensusWire.PREPARE ? " P" : " C").append(stream.get(j)[1]);
        }
        return s.toString();
    }
}
