package org.ubft.sim.byzantine;

import org.ubft.consensus.client.ClientCore;
import org.ubft.sim.ClientBehaviour;
import org.ubft.sim.ClientContext;

/**
 * A Byzantine client whose strategy the client's seeded random stream picks when the run wires it: a hole in its
 * request numbers ({@link GapClient}), replays of old numbers with new payloads ({@link ReplayingClient}), a different
 * request under one number per replica ({@link EquivocatingClient}), signed requests with forged signatures
 * ({@link ForgingClient}), or requests to the leader of view 0 only ({@link LeaderOnlyClient}), each from virtual time {@code from} on. For the adversary-mixed scenarios, which combine
 * it with a Byzantine replica.
 */
public final class RandomClient implements ClientBehaviour {
    private final long from;
    private ByzantineClient chosen;

    public RandomClient(long from) {
        this.from = from;
    }

    @Override
    public boolean correct() {
        return false;
    }

    @Override
    public ClientCore.Port wrapPort(ClientCore.Port port, ClientContext client) {
        chosen = switch (client.random().nextInt(5)) {
            case 0 -> new GapClient(from);
            case 1 -> new ReplayingClient(from);
            case 2 -> new EquivocatingClient(from);
            case 3 -> new ForgingClient(from);
            default -> new LeaderOnlyClient(0, from);
        };
        return chosen.wrapPort(port, client);
    }

    /** The strategy picked ({@code null} before the run wired the client). */
    public ByzantineClient chosen() {
        return chosen;
    }

    @Override
    public String toString() {
        return "random-client(" + (chosen == null ? "unchosen" : chosen) + ")";
    }
}
