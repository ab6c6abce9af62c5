package org.ubft.cli.nemesis;

import org.junit.jupiter.api.Test;
import org.ubft.apps.kv.machine.KvWire;
import org.ubft.sim.linearizability.History;
import org.ubft.sim.linearizability.Operation;
import org.ubft.sim.linearizability.RedisOp;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** How the nemesis names what a key-value history shows: nothing, a lost acknowledged write, a violation. */
class KvHistoryTest {
    private static final int READER = 3;

    private static Operation<RedisOp, String> op(int id, int client, long from, long to, RedisOp in, String out) {
        return Operation.completed(id, client, from, to, in, out);
    }

    @Test
    void aFinalReadThatMissesAnAcknowledgedWriteIsALostWrite() {
        History<RedisOp, String> h = new History<>(List.of(
            op(0, 0, 0, 10, RedisOp.set("k1", "5"), "+OK\r\n"),
            op(1, 1, 20, 30, RedisOp.incr("k1"), ":6\r\n"),
            op(2, READER, 40, 50, RedisOp.get("k1"), "$1\r\n5\r\n")));
        String v = KvHistory.violation(h, KvHistory.check(h), READER);
        assertTrue(v != null && v.startsWith(KvHistory.LOST), v);
        assertTrue(v.contains("INCR k1"), v);
    }

    @Test
    void aStaleReadByAClientIsNotLinearizableAndACorrectHistoryIsFine() {
        History<RedisOp, String> h = new History<>(List.of(
            op(0, 0, 0, 10, RedisOp.set("k1", "5"), "+OK\r\n"),
            op(1, 1, 20, 30, RedisOp.get("k1"), "$-1\r\n"),
            op(2, READER, 40, 50, RedisOp.get("k1"), "$1\r\n5\r\n")));
        String v = KvHistory.violation(h, KvHistory.check(h), READER);
        assertTrue(v != null && v.startsWith("NOT LINEARIZABLE"), v);
        History<RedisOp, String> ok = new History<>(List.of(
            op(0, 0, 0, 10, RedisOp.set("k1", "5"), "+OK\r\n"),
            op(1, 1, 5, 30, RedisOp.get("k1"), "$-1\r\n"),
            op(2, READER, 40, 50, RedisOp.get("k1"), "$1\r\n5\r\n")));
        assertNull(KvHistory.violation(ok, KvHistory.check(ok), READER));
    }

    @Test
    void repliesOtherThanOneExecutedCommandAreNeverTakenForRedisReplies() {
        byte[] done = new byte[] {KvWire.DONE, 0, 1, '+', 'O', 'K', '\r', '\n'};
        assertEquals("+OK\r\n", KvHistory.output(done));
        byte[] error = ("\u0004bad").getBytes(StandardCharsets.US_ASCII);
        assertTrue(KvHistory.output(error).startsWith("<reply status 4"), KvHistory.output(error));
        assertTrue(KvHistory.output(new byte[] {9}).startsWith("<not a key-value reply"));
    }
}
