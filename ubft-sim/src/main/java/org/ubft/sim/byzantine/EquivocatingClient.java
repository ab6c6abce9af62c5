package org.ubft.sim.byzantine;

import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.consensus.client.ClientCore;
import org.ubft.consensus.wire.ClientWire;
import org.ubft.sim.ClientContext;
import org.ubft.sim.Payloads;

import java.util.SplittableRandom;

/**
 * A client that sends different requests under the same request number to different replicas, from virtual time
 * {@code from} on: replica 0 gets the request as submitted, every other replica {@code r} its own variant (same
 * workload id, other fill bytes; the same variant on each retransmission, re-signed with the client's key when the
 * core signs). The replicas must still execute one request per number, the same one everywhere.
 */
public final class EquivocatingClient extends ByzantineClient {
    public EquivocatingClient(long from) {
        super("equivocating-client", from);
    }

    @Override
    public ClientCore.Port wrapPort(ClientCore.Port port, ClientContext client) {
        long base = client.random().nextLong();
        return (replica, b, off, len) -> {
            byte[] original = ClientRequests.payload(b, off);
            Payloads.RequestId id = Payloads.id(original);
            if (replica == 0 || client.now() < from || id == null) {
                port.send(replica, b, off, len);
                return;
            }
            long number = ClientWire.number(b, off);
            // the same variant for (number, replica) every time: derived, not drawn, from the client's seeded stream
            SplittableRandom r = new SplittableRandom(base ^ (number * 0x9E3779B97F4A7C15L) ^ (replica * 0xBF58476D1CE4E5B9L));
            byte[] variant = ClientRequests.variant(client.client(), id.seq(), original, r);
            UnsafeBuffer m = ClientRequests.request(client.client(), number, variant,
                ClientWire.signed(b, off) ? client.key() : null);
            client.events().sent(client.now(), client.client(), id.seq(), number, replica, variant);
            acted();
            port.send(replica, m, 0, m.capacity());
        };
    }
}
