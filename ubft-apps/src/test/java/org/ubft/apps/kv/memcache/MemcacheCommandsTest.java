package org.ubft.apps.kv.memcache;

import org.junit.jupiter.api.Test;
import org.ubft.apps.kv.store.ReplyBuffer;
import org.ubft.apps.kv.store.Store;
import org.ubft.apps.kv.store.StoreLimits;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** memcached semantics of the store's commands at chosen times (exptime relative, absolute, negative). */
class MemcacheCommandsTest {
    private Store store = new Store(StoreLimits.defaults());

    /** Runs {@code line} (tokens; a storage command's data after '|') at {@code nowMillis}; CRLF shown as |. */
    private String at(long nowMillis, String line) {
        store.advanceTo(nowMillis);
        String[] parts = line.split("\\|", 2);
        List<byte[]> args = new ArrayList<>();
        for (String t : parts[0].split(" ")) {
            args.add(t.getBytes(StandardCharsets.UTF_8));
        }
        if (parts.length == 2) {
            args.add(parts[1].getBytes(StandardCharsets.UTF_8));
        }
        ReplyBuffer out = new ReplyBuffer(1 << 20);
        MemcacheCommands.execute(args, store, out);
        return new String(out.toByteArray(), StandardCharsets.UTF_8).replace("\r\n", "|");
    }

    @Test
    void storageCommandsAndCas() {
        assertEquals("STORED|", at(0, "set k 5 0 3|abc"));
        assertEquals("VALUE k 5 3|abc|END|", at(0, "get k"));
        assertEquals("NOT_STORED|", at(0, "add k 0 0 1|x"));
        assertEquals("NOT_STORED|", at(0, "replace nothing 0 0 1|x"));
        assertEquals("STORED|", at(0, "append k 9 9 2|de"));
        assertEquals("STORED|", at(0, "prepend k 0 0 1|_"));
        String gets = at(0, "gets k");
        assertTrue(gets.startsWith("VALUE k 5 6 "), gets); // append and prepend keep the flags
        String cas = gets.split("\\|")[0].substring("VALUE k 5 6 ".length());
        assertEquals("STORED|", at(0, "cas k 1 0 1 " + cas + "|z"));
        assertEquals("EXISTS|", at(0, "cas k 1 0 1 " + cas + "|z"));
        assertEquals("NOT_FOUND|", at(0, "cas none 1 0 1 1|z"));
        assertEquals("", at(0, "set q 0 0 1 noreply|q"));
        assertEquals("CLIENT_ERROR bad data chunk|", at(0, "set k 0 0 5|abc"));
        assertEquals("CLIENT_ERROR bad command line format|", at(0, "set k abc 0 1|a"));
        assertEquals("CLIENT_ERROR bad command line format|", at(0, "set k 4294967296 0 1|a"));
        assertEquals("CLIENT_ERROR bad command line format (key longer than 250 bytes)|",
            at(0, "set " + "x".repeat(251) + " 0 0 1|a"));
        assertEquals("DELETED|", at(0, "delete k"));
        assertEquals("NOT_FOUND|", at(0, "delete k 0"));
        assertEquals("ERROR|", at(0, "delete"));
    }

    @Test
    void exptimeIsRelativeUpToThirtyDaysThenAbsoluteAndNegativeExpiresAtOnce() {
        long now = 1_700_000_000_000L;
        assertEquals("STORED|", at(now, "set r 0 10 1|r"));
        assertEquals("STORED|", at(now, "set a 0 1700000020 1|a"));
        assertEquals("STORED|", at(now, "set n 0 -1 1|n"));
        assertEquals("STORED|", at(now, "set p 0 1600000000 1|p")); // absolute, in the past
        assertEquals("END|", at(now, "get n p"));
        assertEquals("VALUE r 0 1|r|VALUE a 0 1|a|END|", at(now + 9_999, "get r a"));
        assertEquals("VALUE a 0 1|a|END|", at(now + 10_000, "get r a"));
        assertEquals("END|", at(now + 20_000, "get a"));
        assertEquals("STORED|", at(now + 20_000, "set t 0 5 1|t"));
        assertEquals("TOUCHED|", at(now + 20_000, "touch t 100"));
        assertEquals("VALUE t 0 1|t|END|", at(now + 119_999, "gat 1 t"));
        assertEquals("END|", at(now + 121_000, "get t"));
        assertEquals("NOT_FOUND|", at(now + 121_000, "touch t 1"));
        assertEquals("STORED|", at(now + 121_000, "set f 0 0 1|f"));
        assertEquals("OK|", at(now + 121_000, "flush_all 2"));
        assertEquals("VALUE f 0 1|f|END|", at(now + 122_999, "get f"));
        assertEquals("END|", at(now + 123_000, "get f"));
    }

    @Test
    void incrWrapsAtTwoToTheSixtyFourAndDecrStopsAtZero() {
        assertEquals("STORED|", at(0, "set c 0 0 20|18446744073709551615"));
        assertEquals("0|", at(0, "incr c 1"));
        assertEquals("0|", at(0, "decr c 5"));
        assertEquals("NOT_FOUND|", at(0, "incr none 1"));
        assertEquals("STORED|", at(0, "set s 0 0 3|abc"));
        assertEquals("CLIENT_ERROR cannot increment or decrement non-numeric value|", at(0, "incr s 1"));
        assertEquals("CLIENT_ERROR invalid numeric delta argument|", at(0, "incr c -1"));
        assertEquals("", at(0, "incr c 7 noreply"));
        assertEquals("VALUE c 0 1|7|END|", at(0, "get c"));
    }

    @Test
    void otherCommandsAndAFullStore() {
        assertEquals("VERSION 1.6.0-ubft|", at(0, "version"));
        assertEquals("OK|", at(0, "verbosity 1"));
        assertEquals("", at(0, "verbosity noreply"));
        assertEquals("ERROR|", at(0, "verbosity"));
        assertEquals("ERROR|", at(0, "get"));
        assertEquals("CLIENT_ERROR unknown stats group|", at(0, "stats noreply"));
        assertTrue(at(0, "stats").contains("STAT curr_items 0|"));
        assertTrue(at(0, "stats").endsWith("END|"));
        assertEquals("END|", at(0, "stats slabs"));
        store = new Store(new StoreLimits(1, 1 << 20, 4));
        assertEquals("STORED|", at(0, "set a 0 0 1|a"));
        assertEquals("SERVER_ERROR out of memory storing object (the store holds its maximum of 1 keys)|",
            at(0, "set b 0 0 1|b"));
        assertEquals("SERVER_ERROR object too large for cache|", at(0, "set a 0 0 5|abcde"));
        assertEquals("SERVER_ERROR object too large for cache|", at(0, "append a 0 0 4|abcd"));
    }
}
