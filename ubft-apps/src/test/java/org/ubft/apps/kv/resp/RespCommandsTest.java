package org.ubft.apps.kv.resp;

import org.junit.jupiter.api.Test;
import org.ubft.apps.kv.store.ReplyBuffer;
import org.ubft.apps.kv.store.Store;
import org.ubft.apps.kv.store.StoreLimits;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Redis semantics of the store's commands, with chosen times (every command runs at an explicit time). */
class RespCommandsTest {
    private Store store = new Store(StoreLimits.defaults());

    /** Runs {@code line} (space-separated) at {@code now}; the RESP reply with CRLF shown as |. */
    private String at(long now, String line) {
        store.advanceTo(now);
        List<byte[]> args = new ArrayList<>();
        for (String a : line.split(" ")) {
            args.add(a.getBytes(StandardCharsets.UTF_8));
        }
        ReplyBuffer out = new ReplyBuffer(1 << 20);
        RespCommands.execute(args, store, out);
        return new String(out.toByteArray(), StandardCharsets.UTF_8).replace("\r\n", "|");
    }

    @Test
    void setOptionsAndTtlsFollowTheClock() {
        assertEquals("+OK|", at(1_000, "SET k v EX 10"));
        assertEquals(":10|", at(1_000, "TTL k"));
        assertEquals(":10000|", at(1_000, "PTTL k"));
        assertEquals(":9|", at(1_600, "TTL k")); // 9.4 s left: Redis rounds to 9
        assertEquals("+OK|", at(2_000, "SET k w KEEPTTL"));
        assertEquals(":9000|", at(2_000, "PTTL k"));
        assertEquals("$1|w|", at(10_999, "GET k"));
        assertEquals("$-1|", at(11_000, "GET k"));
        assertEquals(":-2|", at(11_000, "TTL k"));
        assertEquals("+OK|", at(11_000, "SET k v PX 5"));
        assertEquals("$-1|", at(11_005, "GET k"));
        assertEquals("+OK|", at(20_000, "SET k v EXAT 30"));
        assertEquals(":10000|", at(20_000, "PTTL k"));
        assertEquals("+OK|", at(20_000, "SET k v PXAT 20500"));
        assertEquals(":500|", at(20_000, "PTTL k"));
        assertEquals("-ERR invalid expire time in 'set' command|", at(20_000, "SET k v EX 0"));
        assertEquals("-ERR invalid expire time in 'set' command|", at(20_000, "SET k v PX -1"));
        assertEquals("-ERR value is not an integer or out of range|", at(20_000, "SET k v EX ten"));
        assertEquals("-ERR syntax error|", at(20_000, "SET k v EX 1 KEEPTTL"));
        assertEquals("-ERR syntax error|", at(20_000, "SET k v BOGUS"));
        assertEquals("$1|v|", at(20_000, "SET k x GET"));
        assertEquals("$1|x|", at(20_000, "SET k y NX GET")); // not set: NX failed; GET answers the old value
        assertEquals("+OK|", at(20_000, "SET k plain"));
        assertEquals(":-1|", at(20_000, "TTL k")); // SET without KEEPTTL clears the TTL
    }

    @Test
    void expireOptionsAndPersist() {
        at(0, "SET k v");
        assertEquals(":0|", at(0, "EXPIRE k 10 XX"));
        assertEquals(":1|", at(0, "EXPIRE k 10 NX"));
        assertEquals(":0|", at(0, "EXPIRE k 20 NX"));
        assertEquals(":0|", at(0, "EXPIRE k 5 GT"));
        assertEquals(":1|", at(0, "EXPIRE k 50 GT"));
        assertEquals(":1|", at(0, "PEXPIRE k 100 LT"));
        assertEquals(":100|", at(0, "PTTL k"));
        assertEquals(":1|", at(0, "PERSIST k"));
        assertEquals(":0|", at(0, "PERSIST k"));
        assertEquals(":0|", at(0, "EXPIRE k 5 GT")); // no TTL counts as infinite
        assertEquals(":1|", at(0, "EXPIREAT k 1"));
        assertEquals(":1|", at(999, "EXISTS k"));
        assertEquals(":0|", at(1_000, "EXISTS k"));
        at(1_000, "SET j v");
        assertEquals(":1|", at(1_000, "EXPIRE j -1")); // a time in the past deletes
        assertEquals(":0|", at(1_000, "EXISTS j"));
        assertEquals("-ERR NX and XX, GT or LT options at the same time are not compatible|",
            at(1_000, "EXPIRE j 1 NX XX"));
        assertEquals("-ERR Unsupported option FOO|", at(1_000, "EXPIRE j 1 FOO"));
        assertEquals(":0|", at(1_000, "EXPIRE missing 1"));
    }

    @Test
    void countersAndStrings() {
        assertEquals(":-1|", at(0, "DECR n"));
        assertEquals(":9223372036854775806|", at(0, "INCRBY m 9223372036854775806"));
        assertEquals(":9223372036854775807|", at(0, "INCR m"));
        assertEquals("-ERR increment or decrement would overflow|", at(0, "INCR m"));
        assertEquals("-ERR value is not an integer or out of range|", at(0, "INCRBY m 1.5"));
        assertEquals("-ERR value is not an integer or out of range|", at(0, "INCRBY m 007"));
        at(0, "SET t 10 EX 100");
        assertEquals(":11|", at(0, "INCR t"));
        assertEquals(":100|", at(0, "TTL t")); // INCR keeps the TTL
        assertEquals(":4|", at(0, "APPEND t ab"));
        assertEquals(":100|", at(0, "TTL t"));
        assertEquals("$4|11ab|", at(0, "GETSET t z"));
        assertEquals(":-1|", at(0, "TTL t")); // GETSET clears it
        assertEquals("$1|z|", at(0, "GETDEL t"));
        assertEquals(":0|", at(0, "EXISTS t"));
        assertEquals("-ERR wrong number of arguments for 'mset' command|", at(0, "MSET a 1 b"));
        assertEquals("+OK|", at(0, "MSET a 1 a 2"));
        assertEquals("*2|$1|2|$-1|", at(0, "MGET a none"));
        assertEquals(":1|", at(0, "SETNX fresh 1"));
        assertEquals(":0|", at(0, "SETNX fresh 2"));
        assertEquals("+OK|", at(0, "SETEX s 5 v"));
        assertEquals(":5000|", at(0, "PTTL s"));
        assertEquals("+PONG|", at(0, "PING"));
        assertEquals("$2|hi|", at(0, "PING hi"));
        assertEquals("+OK|", at(0, "SELECT 0"));
        assertEquals("-ERR DB index is out of range (this store has database 0 only)|", at(0, "SELECT 1"));
        assertEquals("*2|$4|save|$0||", at(0, "CONFIG GET save"));
        assertEquals("+OK|", at(0, "FLUSHALL"));
        assertEquals(":0|", at(0, "DBSIZE"));
    }

    @Test
    void aFullStoreAnswersOomAndMsetIsAllOrNothing() {
        store = new Store(new StoreLimits(3, 1 << 20, 10));
        assertEquals("+OK|", at(0, "MSET a 1 b 2"));
        assertEquals("-OOM command not allowed when the store holds its maximum of 3 keys: delete keys or raise"
            + " --kv-max-keys|", at(0, "MSET c 3 d 4"));
        assertEquals(":0|", at(0, "EXISTS c d"));
        assertEquals("+OK|", at(0, "SET c 3"));
        assertEquals("-OOM command not allowed when the store holds its maximum of 3 keys: delete keys or raise"
            + " --kv-max-keys|", at(0, "SET d 4"));
        assertEquals("-OOM command not allowed when the store holds its maximum of 3 keys: delete keys or raise"
            + " --kv-max-keys|", at(0, "INCR d"));
        assertEquals("-ERR value of 11 bytes is longer than this store's limit of 10 bytes (kv max value bytes)|",
            at(0, "SET a 12345678901"));
        assertEquals("-ERR value of 11 bytes is longer than this store's limit of 10 bytes (kv max value bytes)|",
            at(0, "APPEND a 1234567890"));
        store = new Store(new StoreLimits(100, 2 * (Store.ENTRY_OVERHEAD + 2), 10));
        assertEquals("+OK|", at(0, "SET a 1"));
        assertEquals("-OOM command not allowed when used memory > 'maxmemory' (" + 2 * (Store.ENTRY_OVERHEAD + 2)
            + " bytes): delete keys or raise --kv-max-bytes|", at(0, "SET bb 12"));
    }
}
