package org.ubft.consensus.client;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.ubft.common.NodeId;
import org.ubft.consensus.wire.ClientWire;
import org.ubft.ctbcast.link.LinkConfig;
import org.ubft.fabric.CompletionRouter;
import org.ubft.fabric.sim.SimNetwork;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * {@link ClientLinks} and {@link ClientCore} on the sim fabric: one client, three fake replicas on their own sim
 * nodes that answer each REQUEST with a REPLY of the payload reversed (f = 1, quorum 2). Some replicas misbehave.
 */
class ClientSimTest {
    static final int N = 3;
    static final int CLIENT = 0;
    static final int REQUESTS = 500;
    static final int IN_FLIGHT = 4;
    static final int MAX_MESSAGE = 1024;
    static final LinkConfig LINKS = ClientLinks.config(8, MAX_MESSAGE, 64);

    enum Behaviour { CORRECT, BYZANTINE, SILENT }

    /** A fake replica: answers REQUESTs on its client links according to its behaviour. */
    static final class FakeReplica {
        final int index;
        final Behaviour behaviour;
        final ClientLinks links;
        final UnsafeBuffer out = new UnsafeBuffer(new byte[MAX_MESSAGE]);
        final UnsafeBuffer body = new UnsafeBuffer(new byte[MAX_MESSAGE]);
        final SplittableRandom random;
        long requests;
        long badRequests;

        FakeReplica(SimNetwork network, int index, Behaviour behaviour) {
            this.index = index;
            this.behaviour = behaviour;
            this.random = new SplittableRandom(index);
            CompletionRouter router = new CompletionRouter(network.open(NodeId.replica(index)), 4);
            this.links = ClientLinks.forReplica(router, network.clock(), index, 1, LINKS, this::onMessage);
        }

        void onMessage(int client, DirectBuffer b, int off, int len) {
            if (ClientWire.requestLength(b, off, len, MAX_MESSAGE) != len || ClientWire.client(b, off) != client) {
                badRequests++;
                return;
            }
            requests++;
            int n = ClientWire.bodyLength(b, off);
            for (int i = 0; i < n; i++) {
                body.putByte(i, b.getByte(off + ClientWire.HEADER_BYTES + n - 1 - i));
            }
            long number = ClientWire.number(b, off);
            if (behaviour == Behaviour.BYZANTINE) {
                if (random.nextBoolean()) { // raw garbage
                    int length = 1 + random.nextInt(64);
                    for (int i = 0; i < length; i++) {
                        out.putByte(i, (byte) random.nextInt());
                    }
                    links.send(client, out, 0, length);
                    return;
                }
                body.putByte(0, (byte) (body.getByte(0) + 1)); // a well-formed reply with wrong bytes
                int other = random.nextInt(3); // and sometimes impersonating another replica
                int length = ClientWire.putReply(out, 0, other, client, number, body, 0, n);
                links.send(client, out, 0, length);
                return;
            }
            int length = ClientWire.putReply(out, 0, index, client, number, body, 0, n);
            links.send(client, out, 0, length);
        }
    }

    static byte[] payload(long number) {
        SplittableRandom r = new SplittableRandom(number);
        byte[] p = new byte[1 + r.nextInt(200)];
        r.nextBytes(p);
        return p;
    }

    static byte[] reversed(byte[] b) {
        byte[] r = new byte[b.length];
        for (int i = 0; i < b.length; i++) {
            r[i] = b[b.length - 1 - i];
        }
        return r;
    }

    /** Runs {@link #REQUESTS} requests through the client; returns the core for its counters. */
    static ClientCore run(Behaviour... behaviours) {
        SimNetwork network = new SimNetwork(42);
        FakeReplica[] replicas = new FakeReplica[N];
        for (int r = 0; r < N; r++) {
            replicas[r] = new FakeReplica(network, r, behaviours[r]);
        }
        CompletionRouter router = new CompletionRouter(network.open(NodeId.client(CLIENT)), 4);
        ClientCore[] core = new ClientCore[1];
        ClientLinks links = ClientLinks.forClient(router, network.clock(), CLIENT, N, LINKS,
            (r, b, off, len) -> core[0].onReply(r, b, off, len));
        byte[][] accepted = new byte[REQUESTS + 1][];
        core[0] = new ClientCore(new ClientCore.Config(CLIENT, N, 2, ClientLinks.maxRequestPayload(MAX_MESSAGE),
            ClientLinks.maxReplyBody(MAX_MESSAGE), IN_FLIGHT, 100_000, 1_000_000), network.clock(), () -> 0,
            links::send, null, // session 0: numbers 1, 2, 3, ...
            (n, b, off, len) -> {
                if (accepted[(int) n] != null) {
                    fail("request " + n + " completed twice");
                }
                accepted[(int) n] = new byte[len];
                b.getBytes(off, accepted[(int) n]);
            });
        long submitted = 0;
        long completed = 0;
        long deadline = network.nanoTime() + 10_000_000_000L;
        while (completed < REQUESTS) {
            while (submitted < REQUESTS && core[0].hasRoom()) {
                byte[] p = payload(submitted + 1);
                assertEquals(submitted + 1, core[0].submit(p));
                submitted++;
            }
            links.doWork();
            core[0].doWork();
            for (FakeReplica r : replicas) {
                if (r.behaviour != Behaviour.SILENT) {
                    r.links.doWork();
                }
            }
            network.runFor(500);
            completed = core[0].counters().requestsCompleted();
            if (network.nanoTime() > deadline) {
                fail("stuck at " + completed + " of " + REQUESTS + ": " + core[0].counters() + " " + links);
            }
        }
        for (int n = 1; n <= REQUESTS; n++) {
            assertArrayEquals(reversed(payload(n)), accepted[n], "reply to request " + n);
        }
        for (FakeReplica r : replicas) {
            assertEquals(0, r.badRequests, "replica " + r.index + " got malformed requests");
            if (r.behaviour != Behaviour.SILENT) {
                assertTrue(r.requests >= REQUESTS, "replica " + r.index + " saw " + r.requests);
            }
        }
        assertEquals(0, links.malformed());
        return core[0];
    }

    @Test
    void allAcceptedDespiteAByzantineReplica() {
        ClientCore core = run(Behaviour.CORRECT, Behaviour.BYZANTINE, Behaviour.CORRECT);
        ClientCounters c = core.counters();
        assertTrue(c.droppedMalformed() > 0, c.toString());
        assertTrue(c.droppedWrongReplica() > 0, c.toString());
        assertEquals(REQUESTS, c.requestsCompleted());
    }

    @Test
    void allAcceptedWithASilentReplica() {
        ClientCore core = run(Behaviour.CORRECT, Behaviour.CORRECT, Behaviour.SILENT);
        assertEquals(REQUESTS, core.counters().requestsCompleted());
        assertEquals(2L * REQUESTS, core.counters().repliesAccepted(), "no reply from the silent replica");
    }

    @Test
    void nothingAcceptedWithoutACorrectQuorum() {
        // Replica 2 silent, replica 1 Byzantine: only replica 0 is correct, so no request may complete; the client
        // keeps retransmitting instead of accepting the Byzantine replica's bytes.
        SimNetwork network = new SimNetwork(7);
        FakeReplica[] replicas = {new FakeReplica(network, 0, Behaviour.CORRECT),
            new FakeReplica(network, 1, Behaviour.BYZANTINE), new FakeReplica(network, 2, Behaviour.SILENT)};
        CompletionRouter router = new CompletionRouter(network.open(NodeId.client(CLIENT)), 4);
        ClientCore[] core = new ClientCore[1];
        ClientLinks links = ClientLinks.forClient(router, network.clock(), CLIENT, N, LINKS,
            (r, b, off, len) -> core[0].onReply(r, b, off, len));
        core[0] = new ClientCore(new ClientCore.Config(CLIENT, N, 2, 512, 512, IN_FLIGHT, 100_000, 1_000_000),
            network.clock(), links::send, null, (n, b, off, len) -> fail("accepted a reply without a correct quorum"));
        for (int i = 0; i < IN_FLIGHT; i++) {
            core[0].submit(payload(i + 1));
        }
        long end = network.nanoTime() + 20_000_000;
        while (network.nanoTime() < end) {
            links.doWork();
            core[0].doWork();
            replicas[0].links.doWork();
            replicas[1].links.doWork();
            network.runFor(500);
        }
        assertEquals(IN_FLIGHT, core[0].inFlight());
        assertTrue(core[0].counters().retransmissions() > IN_FLIGHT, core[0].counters().toString());
    }
}
