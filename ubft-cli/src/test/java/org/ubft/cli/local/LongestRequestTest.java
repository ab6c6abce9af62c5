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
    void keepsTheLastSlowRequestsWithTheirSendTimes() throws Exception {
        long[] calls = {0};
        LongestRequest longest = new LongestRequest(request -> {
            if (++calls[0] % 2 == 0) {
                Thread.sleep(LongestRequest.SLOW_MICROS / 1000 + 2); // every second request is slow
            }
            return request;
        });
        assertEquals("slow_requests=", longest.slowLine(), "none yet");
        long before = System.currentTimeMillis();
        for (int i = 0; i < 2 * LongestRequest.SLOW_KEPT + 6; i++) {
            longest.invoke(new byte[] {1});
        }
        long after = System.currentTimeMillis();
        String[] slow = longest.slowLine().substring("slow_requests=".length()).split(",");
        assertEquals(LongestRequest.SLOW_KEPT, slow.length, longest.slowLine());
        long previous = 0;
        for (String entry : slow) {
            String[] parts = entry.split(":");
            long sent = Long.parseLong(parts[0]);
            assertTrue(sent >= before && sent <= after && sent >= previous, longest.slowLine());
            assertTrue(Long.parseLong(parts[1]) >= LongestRequest.SLOW_MICROS, longest.slowLine());
            previous = sent;
        }
    }
}
