package org.ubft.sim.byzantine;

import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.consensus.client.ClientCore;
import org.ubft.consensus.wire.ClientWire;
import org.ubft.consensus.wire.RequestNumbers;
import org.ubft.sim.ClientContext;
import org.ubft.sim.Payloads;

/**
 * A client that floods the replicas with signed requests whose signatures are forged, from virtual time {@code from}
 * on: after each new request it sends, it sends {@value #BURST} more to every replica, each numbered in a later session
 * than any it used (sequence 1, so each passes a replica's cheap checks: a later session's first requests are in the
 * window a replica keeps) and each {@value #COPIES} times. A replica must check each signature once, off its agent
 * thread and within the client's budget and waiting room, never take a forged request, and keep serving the correct
 * clients (resource checker: signature checks per executed request).
 */
public final class ForgingClient extends ByzantineClient {
    static final int BURST = 8;
    static final int COPIES = 2;

    private final NewRequests newRequests = new NewRequests();
    private long nextSession;

    public ForgingClient(long from) {
        super("forging-client", from);
    }

    @Override
    public ClientCore.Port wrapPort(ClientCore.Port port, ClientContext client) {
        return (replica, b, off, len) -> {
            port.send(replica, b, off, len);
            if (!newRequests.sentToAll(replica, b, off, client)) {
                return;
            }
            nextSession = Math.max(nextSession, RequestNumbers.session(newRequests.highest()) + 1);
            if (client.now() >= from && Payloads.id(ClientRequests.payload(b, off)) != null) {
                flood(port, client);
            }
        };
    }

    private void flood(ClientCore.Port port, ClientContext client) {
        for (int j = 0; j < BURST && nextSession <= RequestNumbers.MAX_SESSION; j++) {
            long number = RequestNumbers.number(nextSession++, 1);
            byte[] payload = ClientRequests.variant(client.client(), 1, null, client.random());
            UnsafeBuffer m = ClientRequests.request(client.client(), number, payload, client.key());
            int sigAt = m.capacity() - ClientWire.SIGNATURE_BYTES + client.random().nextInt(ClientWire.SIGNATURE_BYTES);
            m.putByte(sigAt, (byte) (m.getByte(sigAt) ^ (1 + client.random().nextInt(255))));
            acted();
            for (int copy = 0; copy < COPIES; copy++) {
                for (int r = 0; r < client.cluster().n(); r++) {
                    port.send(r, m, 0, m.capacity());
                }
            }
        }
    }
}
