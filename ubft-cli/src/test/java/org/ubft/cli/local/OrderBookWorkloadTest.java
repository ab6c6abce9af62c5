package org.ubft.cli.local;

import org.junit.jupiter.api.Test;
import org.ubft.apps.orderbook.OrderBookMachine;
import org.ubft.apps.orderbook.OrderFlow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class OrderBookWorkloadTest {
    @Test
    void repliesOfAnIdenticalBookPassAndAreCounted() {
        OrderBookMachine service = new OrderBookMachine();
        OrderBookWorkload work = new OrderBookWorkload().run(service::execute, 3_000, OrderFlow.Options.defaults(),
            OrderBookMachine.Config.defaults(), 1);
        assertEquals(3_000, work.latency().getTotalCount());
        assertTrue(work.summaryLine().matches("orderbook new_orders=\\d+ fills=[1-9]\\d* rejects=\\d+"
            + " truncated_replies=\\d+ state_digest=[0-9a-f]{16}"), work.summaryLine());
        assertTrue(work.summaryLine().endsWith(java.util.HexFormat.of().formatHex(service.digest(), 0, 8)));
    }

    @Test
    void aDifferentReplyIsNamed() {
        OrderBookMachine service = new OrderBookMachine();
        int[] calls = {0};
        OrderBookWorkload.WrongReply e = assertThrows(OrderBookWorkload.WrongReply.class, () ->
            new OrderBookWorkload().run(request -> {
                byte[] reply = service.execute(request);
                if (++calls[0] == 40) {
                    reply[reply.length - 1] ^= 1;
                }
                return reply;
            }, 100, OrderFlow.Options.defaults(), OrderBookMachine.Config.defaults(), 1));
        assertTrue(e.getMessage().startsWith("request 40 of 100: the reply differs from the local book's: got "),
            e.getMessage());
    }

    @Test
    void aFailedRequestIsNamed() {
        OrderBookWorkload.WrongReply e = assertThrows(OrderBookWorkload.WrongReply.class, () ->
            new OrderBookWorkload().run(request -> {
                throw new java.io.IOException("gone");
            }, 10, OrderFlow.Options.defaults(), OrderBookMachine.Config.defaults(), 1));
        assertEquals("request 1 of 10 failed: java.io.IOException: gone", e.getMessage());
    }
}
