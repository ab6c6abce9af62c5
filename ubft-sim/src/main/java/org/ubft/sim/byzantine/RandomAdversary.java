package org.ubft.sim.byzantine;

import org.ubft.consensus.app.StateMachine;
import org.ubft.consensus.replica.ReplicaOutput;
import org.ubft.consensus.runtime.ReplicaNode;
import org.ubft.sim.Probe;
import org.ubft.sim.ReplicaBehaviour;
import org.ubft.sim.SimCluster;
import org.ubft.sim.SlotContext;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * One Byzantine replica whose slot and strategy a run's seed picks: the building blocks of
 * {@code org.ubft.sim.byzantine} drawn at random ({@link #choose}), so that a sweep of seeds combines them with the
 * scenario's other faults. The cluster is built with a {@link Slot} in every replica slot; each stays correct (the
 * real replica, untouched) until the planner, before any traffic, picks one slot and its strategy; that slot then runs
 * the strategy, from its current incarnation on (its actions and links are rewired at once).
 */
public final class RandomAdversary {
    /** The strategies drawn from. */
    public enum Kind {
        SILENT, FORGER, MUTATOR, FLOOD, STOP_AFTER_WILL_COMMIT, EQUIVOCATE_FAST, EQUIVOCATE_SLOW, EQUIVOCATE_CROSS,
        CONFLICTING_PREPARES, DUPLICATE_PROPOSAL, SILENT_AT_VIEW_CHANGE, AMNESIAC_FORGETS, AMNESIAC_FORKS,
        /** This and the next ones drawn only by {@link #chooseAny} (adversary-mixed): adversary-random keeps its draws. */
        ALWAYS_COMPLAIN, FORGED_THEN_GENUINE, FORGED_REQUEST_LEADER, SIGN_EVERYTHING, SIGN_EVERYTHING_NO_LOCKS,
        /**
         * Refuses some replicas' connections while silent, flooding, forging or mutating ({@link RefusesConnections});
         * drawn only by {@link #chooseRefusing} (adversary-refusing), so that the other scenarios keep their draws.
         */
        REFUSES_CONNECTIONS
    }

    /** How many of the first {@link Kind}s {@link #choose} draws from: those before {@link Kind#ALWAYS_COMPLAIN}. */
    private static final int CLASSIC_KINDS = Kind.ALWAYS_COMPLAIN.ordinal();

    private final Slot[] slots;
    private int chosenSlot = -1;
    private Kind kind;
    private ByzantineBehaviour chosen;

    /** An adversary for a cluster of {@code n} replicas: put {@link #slots()} in the cluster's behaviours. */
    public RandomAdversary(int n) {
        slots = new Slot[n];
        for (int i = 0; i < n; i++) {
            slots[i] = new Slot(i, this);
        }
    }

    public ReplicaBehaviour[] slots() {
        return slots.clone();
    }

    /**
     * Picks the Byzantine slot and its strategy, acting from virtual time {@code from}; call before any traffic. The
     * leader-only strategies (equivocation, conflicting or duplicate proposals) take slot 0, the leader of view 0.
     *
     * @return what was picked, for the scenario's faults (an amnesiac slot must be crashed and restarted)
     */
    public Kind choose(SplittableRandom random, long from) {
        return choose(random, from, CLASSIC_KINDS);
    }

    /** As {@link #choose}, drawing from every {@link Kind} but {@link Kind#REFUSES_CONNECTIONS}. */
    public Kind chooseAny(SplittableRandom random, long from) {
        return choose(random, from, Kind.REFUSES_CONNECTIONS.ordinal());
    }

    /** As {@link #choose}, always {@link Kind#REFUSES_CONNECTIONS} (its slot, refused peers and inner strategy drawn). */
    public Kind chooseRefusing(SplittableRandom random, long from) {
        return choose(random, from, Kind.REFUSES_CONNECTIONS);
    }

    private Kind choose(SplittableRandom random, long from, int kinds) {
        return choose(random, from, Kind.values()[random.nextInt(kinds)]);
    }

    private Kind choose(SplittableRandom random, long from, Kind k) {
        int slot = switch (k) {
            case EQUIVOCATE_FAST, EQUIVOCATE_SLOW, EQUIVOCATE_CROSS, CONFLICTING_PREPARES, DUPLICATE_PROPOSAL,
                AMNESIAC_FORKS, FORGED_REQUEST_LEADER -> 0;
            case SILENT_AT_VIEW_CHANGE -> 1; // the leader of view 1, silent as view 0 ends
            default -> random.nextInt(slots.length);
        };
        ByzantineBehaviour b = switch (k) {
            case SILENT -> new Silent(from);
            case FORGER -> new Forger(from, 50_000 + random.nextLong(200_000));
            case MUTATOR -> new FieldMutator(from, 2 + random.nextInt(15));
            // at full rate, one forged CERTIFY a burst; or every millisecond a burst of up to 32 slots, forged or under
            // valid signatures of its own over garbage digests (byz-signature-burst, byz-signed-garbage-burst)
            case FLOOD -> random.nextBoolean() ? new SignatureFlood(from, 10_000, true)
                : new SignatureFlood(from, 1_000_000, true, 1 + random.nextInt(32), random.nextBoolean());
            case STOP_AFTER_WILL_COMMIT -> new StopAfterWillCommit(from);
            case EQUIVOCATE_FAST -> new EquivocatingLeader(EquivocatingLeader.Mode.FAST, from);
            case EQUIVOCATE_SLOW -> new EquivocatingLeader(EquivocatingLeader.Mode.SLOW, from);
            case EQUIVOCATE_CROSS -> new EquivocatingLeader(EquivocatingLeader.Mode.CROSS, from);
            case CONFLICTING_PREPARES -> new ConflictingPrepares(from);
            case DUPLICATE_PROPOSAL -> new DuplicateProposal(from);
            case SILENT_AT_VIEW_CHANGE -> new SilentAtMoment("silent-at-view-change",
                Moment.correctReplicaChangesView(), from, Long.MAX_VALUE);
            case AMNESIAC_FORGETS -> new Amnesiac(random.nextBoolean() ? SimCluster.Disk.WIPED
                : SimCluster.Disk.ROLLED_BACK, Amnesiac.Mode.FORGETS);
            case AMNESIAC_FORKS -> new Amnesiac(SimCluster.Disk.WIPED, Amnesiac.Mode.FORKS);
            case ALWAYS_COMPLAIN -> new AlwaysComplain(from, 500_000 + random.nextLong(2_000_000));
            case FORGED_THEN_GENUINE -> new ForgedThenGenuine(from);
            case FORGED_REQUEST_LEADER -> new ForgedRequestLeader(from);
            case SIGN_EVERYTHING -> new SignEverything(from, false);
            case SIGN_EVERYTHING_NO_LOCKS -> new SignEverything(from, true);
            case REFUSES_CONNECTIONS -> refusing(random, from, slot);
        };
        chosenSlot = slot;
        kind = k;
        chosen = b;
        slots[slot].activate(b);
        return k;
    }

    /** Replica {@code slot} refuses a random non-empty set of the others' connections, acting as one of four strategies. */
    private ByzantineBehaviour refusing(SplittableRandom random, long from, int slot) {
        long others = ((1L << slots.length) - 1) & ~(1L << slot);
        long refused;
        do {
            refused = random.nextLong() & others;
        } while (refused == 0);
        ByzantineBehaviour inner = switch (random.nextInt(4)) {
            case 0 -> new Silent(from);
            case 1 -> new SignatureFlood(from, 10_000, true);
            case 2 -> new Forger(from, 50_000 + random.nextLong(200_000));
            default -> new FieldMutator(from, 2 + random.nextInt(15));
        };
        return new RefusesConnections(inner, from, refused, random.nextBoolean());
    }

    /** The Byzantine slot (-1 before {@link #choose}). */
    public int chosenSlot() {
        return chosenSlot;
    }

    public Kind kind() {
        return kind;
    }

    /** The strategy running in the chosen slot. */
    public ByzantineBehaviour chosen() {
        return chosen;
    }

    @Override
    public String toString() {
        return chosen == null ? "random-adversary(unchosen)" : "random-adversary(replica-" + chosenSlot + ": " + chosen + ")";
    }

    /** One replica slot: correct, or the chosen strategy once picked (for the current incarnation and later ones). */
    public static final class Slot implements ReplicaBehaviour {
        private final int index;
        private final RandomAdversary owner;
        private ByzantineBehaviour strategy;
        private SwitchableOutput current;
        private ReplicaNode node;
        private SlotContext context;

        Slot(int index, RandomAdversary owner) {
            this.index = index;
            this.owner = owner;
        }

        /** The run's adversary, shared by every slot. */
        public RandomAdversary adversary() {
            return owner;
        }

        private void activate(ByzantineBehaviour b) {
            strategy = b;
            if (current != null) {
                current.retarget(b.wrapOutput(current.original, context));
                b.attach(node, context);
            }
        }

        @Override
        public boolean correct() {
            return strategy == null;
        }

        @Override
        public StateMachine wrapApp(StateMachine app) {
            return app; // (no strategy drawn here wraps the application)
        }

        @Override
        public ReplicaOutput wrapOutput(ReplicaOutput output, SlotContext slot) {
            context = slot;
            current = new SwitchableOutput(output);
            if (strategy != null) {
                current.retarget(strategy.wrapOutput(output, slot));
            }
            return current;
        }

        @Override
        public void attach(ReplicaNode n, SlotContext slot) {
            node = n;
            context = slot;
            if (strategy != null) {
                strategy.attach(n, slot);
            }
        }

        @Override
        public List<Probe> probes(int slot) {
            return strategy == null ? List.of() : new ArrayList<>(strategy.probes(slot));
        }

        @Override
        public String toString() {
            return strategy == null ? "correct" : strategy.toString();
        }

        /** The replica's actions, forwarded to the real ones or, once a strategy is picked, to its wrapper. */
        private static final class SwitchableOutput extends ForwardingOutput {
            /** The replica's own actions (what a strategy wraps). */
            private final ReplicaOutput original;

            SwitchableOutput(ReplicaOutput real) {
                super(real);
                this.original = real;
            }

            void retarget(ReplicaOutput target) {
                real = target;
            }
        }
    }
}
