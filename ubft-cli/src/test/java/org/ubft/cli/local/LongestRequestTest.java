package org.ubft.cli.local;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link LongestRequest}: which request took longest, and when it was sent (what {@code ubft client} prints). */
class LongestRequestTest {
    @Test
    void namesTheLongestRequestAndWhenItWasSent() throws Exception {
        long[] calls = {0};
        LongestRequest longest = new LongestRequest(request -> {
            if (++calls[0] == 3) {
                Thread.sleep(50); // the third request is the slow one
            }
            return request;
        });
        assertEquals("", longest.summaryLine(), "nothing before the first request");
        long before = System.currentTimeMillis();
        assertArrayEquals(new byte[] {1}, longest.invoke(new byte[] {1}));
        longest.invoke(new byte[] {2});
        long slowSent = System.currentTimeMillis();
        longest.invoke(new byte[] {3});
        long after = System.currentTimeMillis();
        longest.invoke(new byte[] {4});
        Matcher m = Pattern.compile("longest_request_sent_at=(\\S+) longest_request_us=(\\d+)").matcher(longest.summaryLine());
        assertTrue(m.matches(), longest.summaryLine());
        long sentAt = Instant.parse(m.group(1)).toEpochMilli();
        assertTrue(sentAt >= slowSent && sentAt <= after && sentAt >= before, "sent at " + sentAt + ", the slow one "
            + slowSent + ".." + after);
        assertTrue(Long.parseLong(m.group(2)) >= 50_000, longest.summaryLine());
    }

    @Test
    void namesTheLongestRequestsInTheOrderTheyWereSent() throws Exception {
        long[] calls = {0};
        LongestRequest longest = new LongestRequest(request -> {
            long c = ++calls[0];
            if (c == 5 || c == 40 || c == 70) {
                Thread.sleep(30); // three slow ones among many quick ones
            }
            return request;
        });
        assertEquals("longest_requests=", longest.longestLine(), "none yet");
        long[] sent = new long[3];
        for (int i = 1; i <= 100; i++) {
            if (i == 5 || i == 40 || i == 70) {
                sent[i == 5 ? 0 : i == 40 ? 1 : 2] = System.currentTimeMillis();
            }
            longest.invoke(new byte[] {1});
        }
        String[] entries = longest.longestLine().substring("longest_requests=".length()).split(",");
        assertEquals(LongestRequest.KEPT, entries.length, longest.longestLine());
        long previous = 0;
        int slow = 0;
        for (String entry : entries) {
            String[] parts = entry.split(":");
            long at = Long.parseLong(parts[0]);
            assertTrue(at >= previous, "in send order: " + longest.longestLine());
            previous = at;
            if (Long.parseLong(parts[1]) >= 30_000) {
                assertTrue(Math.abs(at - sent[slow]) <= 5, "slow request " + slow + " sent at " + sent[slow] + ": "
                    + longest.longestLine());
                slow++;
            }
        }
        assertEquals(3, slow, "the three slow ones are kept: " + longest.longestLine());
    }
}
