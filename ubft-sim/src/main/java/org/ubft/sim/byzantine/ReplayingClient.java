package org.ubft.sim.byzantine;

import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.consensus.client.ClientCore;
import org.ubft.sim.ClientContext;
import org.ubft.sim.Payloads;

/**
 * A client that replays its old request numbers with different payloads, from virtual time {@code from} on: after
 * each new request it sends, to every replica, one of its last {@value #REMEMBERED} earlier numbers (chosen at random)
 * again, carrying a new payload for that request (signed with the client's key or not, at random). A replica must not
 * execute a number twice, nor a second payload for it: it answers with its cached reply, or drops the replay.
 *
 * <p>{@link #swapping}: the number it sent just before, always signed. That one is often still in flight, proposed
 * by the leader but not executed: a replica that let the signed copy replace the request it held took it from under
 * the leader's proposal, and the slot waited for a view change ({@code RequestIntake}'s {@code EQUIVOCATED_REQUEST}).
 */
public final class ReplayingClient extends ByzantineClient {
    static final int REMEMBERED = 32;

    private final boolean latest;
    private final long[] numbers = new long[REMEMBERED];
    private final long[] seqs = new long[REMEMBERED];
    private final NewRequests newRequests = new NewRequests();
    private int remembered;

    public ReplayingClient(long from) {
        this("replaying-client", from, false);
    }

    private ReplayingClient(String name, long from, boolean latest) {
        super(name, from);
        this.latest = latest;
    }

    /** Replays the number sent just before each new one, signed, with another payload. */
    public static ReplayingClient swapping(long from) {
        return new ReplayingClient("swapping-client", from, true);
    }

    @Override
    public ClientCore.Port wrapPort(ClientCore.Port port, ClientContext client) {
        return (replica, b, off, len) -> {
            port.send(replica, b, off, len);
            Payloads.RequestId id = Payloads.id(ClientRequests.payload(b, off));
            if (id == null || !newRequests.sentToAll(replica, b, off, client)) {
                return;
            }
            long number = newRequests.highest();
            if (client.now() >= from && remembered > 0) {
                replay(port, client);
            }
            numbers[remembered % REMEMBERED] = number;
            seqs[remembered % REMEMBERED] = id.seq();
            remembered++;
        };
    }

    private void replay(ClientCore.Port port, ClientContext client) {
        int k = latest ? (remembered - 1) % REMEMBERED : client.random().nextInt(Math.min(remembered, REMEMBERED));
        long number = numbers[k];
        long seq = seqs[k];
        byte[] payload = ClientRequests.variant(client.client(), seq, null, client.random());
        boolean signed = latest || client.random().nextBoolean();
        UnsafeBuffer m = ClientRequests.request(client.client(), number, payload, signed ? client.key() : null);
        acted();
        for (int r = 0; r < client.cluster().n(); r++) {
            client.events().sent(client.now(), client.client(), seq, number, r, payload);
            port.send(r, m, 0, m.capacity());
        }
    }
}
