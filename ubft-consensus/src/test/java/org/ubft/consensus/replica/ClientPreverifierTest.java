package org.ubft.consensus.replica;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.ubft.common.crypto.CryptoPool;
import org.ubft.common.crypto.CryptoService;
import org.ubft.consensus.runtime.ClientPreverifier;
import org.ubft.consensus.wire.ClientWire;
import org.ubft.consensus.wire.ConsensusWire;
import org.ubft.consensus.wire.RequestNumbers;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue "Byzantine hardening", resources: a client's signed REQUEST is checked off the replica's agent thread
 * ({@link ClientPreverifier}): the replica runs the cheap checks, the signature goes to the clients' checking queue,
 * and the request is taken (held, echoed to the leader) only when its verdict comes back. A client has at most
 * {@link ClientPreverifier#SLOTS_PER_CLIENT} checks waiting; a flood beyond that is refused and counted, and other
 * clients' checks go on.
 */
class ClientPreverifierTest {
    /** A follower whose leader (replica 0) is down, so a held request stays pending; echoes to the leader counted. */
    private static final class Follower {
        final ModelCluster c = new ModelCluster(ReplicaConfig.defaults(3, 2), 1);
        final Replica r = c.replicas[1];
        final CryptoService service = CryptoPool.synchronous(null, c.keys, ClientPreverifier.capacityFor(2),
            ClientPreverifier.statementBytes(c.config.maxRequestBytes()));
        final ClientPreverifier checks = new ClientPreverifier(r, 2, service, c.config.maxRequestBytes());
        int echoes;

        Follower() {
            c.crashed[0] = true;
            c.filter = (kind, from, to, b, o, l) -> {
                if (kind == ModelCluster.Kind.DIRECT && from == 1 && b.getByte(o) == ConsensusWire.ECHO) {
                    echoes++;
                }
                return true;
            };
            TestCrypto.CLIENT_VERIFICATIONS.set(0);
        }

        void send(int client, byte[] request) {
            checks.onRequest(client, new UnsafeBuffer(request), 0, request.length);
        }

        long dropped(ReplicaCounters.Drop reason) {
            return r.counters().dropped(reason);
        }
    }

    @Test
    void aSignedRequestIsTakenOnlyWhenItsVerdictComesBackAndNeverCheckedOnTheAgentThread() {
        Follower f = new Follower();
        f.send(0, request(0, 1, "hello", false));
        assertEquals(1, f.checks.waiting(), "the check waits for the clients' queue");
        assertEquals(0, f.echoes, "not held before its verdict");
        f.send(0, request(0, 1, "hello", false)); // a retransmission while the check waits
        assertEquals(1, f.checks.copiesDropped());
        f.checks.doWork();
        assertEquals(0, f.checks.waiting());
        assertEquals(1, f.echoes, "held (and echoed to the leader) with its verdict");
        assertEquals(1, f.checks.submitted());
        assertEquals(0, TestCrypto.CLIENT_VERIFICATIONS.get(), "no client signature checked on the replica's thread");
        f.send(0, request(0, 1, "hello", false)); // held signed now: nothing to check
        assertEquals(0, f.checks.waiting());
        assertEquals(1, f.checks.submitted());
    }

    @Test
    void aForgedSignatureIsDroppedWhenItsVerdictComesBack() {
        Follower f = new Follower();
        f.send(0, request(0, 1, "hello", true));
        f.checks.doWork();
        assertEquals(1, f.dropped(ReplicaCounters.Drop.BAD_SIGNATURE));
        assertEquals(0, f.echoes, "a forged request is never held");
        f.send(0, request(0, 1, "hello", false)); // the real one is checked afresh and taken
        f.checks.doWork();
        assertEquals(1, f.echoes);
        assertEquals(0, TestCrypto.CLIENT_VERIFICATIONS.get());
    }

    /**
     * Client 0 sends forged requests numbered in ever later sessions (each within the window a replica keeps, so each
     * passes the cheap checks): once its slots are full the rest are refused (OVER_BUDGET or refused by its budget),
     * none checked on the agent thread, while client 1's request is checked and taken.
     */
    @Test
    void aClientsFloodFillsOnlyItsOwnSlots() {
        Follower f = new Follower();
        int flood = ClientPreverifier.SLOTS_PER_CLIENT + 8;
        for (int i = 0; i < flood; i++) {
            f.send(0, request(0, RequestNumbers.number(2 + i, 1), "junk", true));
        }
        assertTrue(f.checks.waiting() <= ClientPreverifier.SLOTS_PER_CLIENT, "waiting: " + f.checks.waiting());
        long refused = f.dropped(ReplicaCounters.Drop.OVER_BUDGET);
        assertEquals(flood, f.checks.waiting() + refused, "each request beyond the slots (or the budget) is refused");
        assertTrue(refused >= 8, "refused: " + refused);
        f.send(1, request(1, 1, "fair", false));
        f.checks.doWork();
        assertEquals(1, f.echoes, "the other client's request is taken");
        assertEquals(0, f.checks.waiting());
        assertEquals(flood - refused, f.dropped(ReplicaCounters.Drop.BAD_SIGNATURE));
        assertEquals(0, TestCrypto.CLIENT_VERIFICATIONS.get(), "no client signature checked on the replica's thread");
    }

    /**
     * Every client has slots of its own: with more clients than {@link ClientPreverifier#MAX_SLOTS} /
     * {@link ClientPreverifier#SLOTS_PER_CLIENT}, each has fewer, and however many Byzantine clients flood together,
     * a further client's signed request is checked at once (it never waits for their slots to drain).
     */
    @Test
    void floodingClientsTogetherNeverTakeAnotherClientsSlots() {
        int clients = ClientPreverifier.MAX_SLOTS / ClientPreverifier.SLOTS_PER_CLIENT + 1;
        int per = ClientPreverifier.slotsPerClient(clients);
        assertTrue(per < ClientPreverifier.SLOTS_PER_CLIENT && per >= 1, "per client: " + per);
        assertTrue(ClientPreverifier.capacityFor(clients) <= ClientPreverifier.MAX_SLOTS);
        ModelCluster c = new ModelCluster(ReplicaConfig.defaults(3, clients), 1);
        c.crashed[0] = true;
        CryptoService service = CryptoPool.synchronous(null, c.keys, ClientPreverifier.capacityFor(clients),
            ClientPreverifier.statementBytes(c.config.maxRequestBytes()));
        ClientPreverifier checks = new ClientPreverifier(c.replicas[1], clients, service, c.config.maxRequestBytes());
        for (int client = 0; client < clients - 1; client++) {
            for (int i = 0; i < ClientPreverifier.SLOTS_PER_CLIENT; i++) {
                byte[] m = request(client, RequestNumbers.number(2 + i, 1), "junk", true);
                checks.onRequest(client, new UnsafeBuffer(m), 0, m.length);
            }
        }
        assertEquals((clients - 1) * per, checks.waiting(), "each flooding client holds only its own slots");
        long refused = checks.notChecked();
        assertEquals((long) (clients - 1) * (ClientPreverifier.SLOTS_PER_CLIENT - per), refused);
        byte[] late = request(clients - 1, 1, "late", false);
        checks.onRequest(clients - 1, new UnsafeBuffer(late), 0, late.length);
        assertEquals(refused, checks.notChecked(), "the late client's request is not refused: it has its own slot");
        assertEquals((clients - 1) * per + 1, checks.waiting());
        for (int i = 0; i < 8 && checks.waiting() > 0; i++) {
            checks.doWork();
        }
        assertEquals(0, checks.waiting());
        assertEquals((clients - 1) * per, c.replicas[1].counters().dropped(ReplicaCounters.Drop.BAD_SIGNATURE),
            "the floods' forgeries checked and dropped; the late client's request checked good");
    }

    /** Beyond {@link ClientPreverifier#MAX_SLOTS} clients, each still has one slot of its own. */
    @Test
    void everyClientHasAtLeastOneSlot() {
        assertEquals(ClientPreverifier.SLOTS_PER_CLIENT, ClientPreverifier.slotsPerClient(1));
        assertEquals(ClientPreverifier.SLOTS_PER_CLIENT, ClientPreverifier.slotsPerClient(
            ClientPreverifier.MAX_SLOTS / ClientPreverifier.SLOTS_PER_CLIENT));
        assertEquals(1, ClientPreverifier.slotsPerClient(ClientPreverifier.MAX_SLOTS + 44));
        assertEquals(ClientPreverifier.MAX_SLOTS + 44, ClientPreverifier.capacityFor(ClientPreverifier.MAX_SLOTS + 44));
    }

    /** With a worker pool: the check runs on the pool's thread, and the request comes back to the replica. */
    @Test
    void theCheckRunsOnThePoolsThread() throws InterruptedException {
        ModelCluster c = new ModelCluster(ReplicaConfig.defaults(3, 2), 1);
        c.crashed[0] = true;
        try (CryptoPool pool = new CryptoPool(1)) {
            ClientPreverifier checks = new ClientPreverifier(c.replicas[1], 2,
                pool.newOwner(null, c.keys, ClientPreverifier.capacityFor(2),
                    ClientPreverifier.statementBytes(c.config.maxRequestBytes())), c.config.maxRequestBytes());
            pool.start();
            TestCrypto.CLIENT_VERIFICATIONS.set(0);
            byte[] forged = request(0, 1, "hello", true);
            checks.onRequest(0, new UnsafeBuffer(forged), 0, forged.length);
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (checks.waiting() > 0 && System.nanoTime() < deadline) {
                checks.doWork();
                Thread.sleep(1);
            }
            assertEquals(0, checks.waiting());
            assertEquals(1, c.replicas[1].counters().dropped(ReplicaCounters.Drop.BAD_SIGNATURE));
            assertEquals(0, TestCrypto.CLIENT_VERIFICATIONS.get());
        }
    }

    /** An unsigned request needs no check: straight to the replica. */
    @Test
    void anUnsignedRequestGoesStraightToTheReplica() {
        Follower f = new Follower();
        byte[] payload = "plain".getBytes(StandardCharsets.US_ASCII);
        UnsafeBuffer b = new UnsafeBuffer(new byte[ClientWire.HEADER_BYTES + payload.length]);
        ClientWire.putRequest(b, 0, 0, 1, new UnsafeBuffer(payload), 0, payload.length);
        f.send(0, b.byteArray());
        assertEquals(0, f.checks.waiting());
        assertEquals(1, f.echoes);
    }

    static byte[] request(int client, long number, String body, boolean forge) {
        byte[] payload = body.getBytes(StandardCharsets.US_ASCII);
        UnsafeBuffer b = new UnsafeBuffer(new byte[ClientWire.HEADER_BYTES + payload.length + ClientWire.SIGNATURE_BYTES]);
        int len = ClientWire.putRequest(b, 0, client, number, new UnsafeBuffer(payload), 0, payload.length);
        b.putByte(ClientWire.FLAGS_OFFSET, (byte) ClientWire.FLAG_SIGNED);
        TestCrypto.clientKey(client).sign(b.byteArray(), ClientWire.IDENTITY_OFFSET,
            ClientWire.identityLength(payload.length), b.byteArray(), len);
        if (forge) {
            b.putByte(len + 3, (byte) (b.getByte(len + 3) ^ 1));
        }
        return b.byteArray();
    }
}
