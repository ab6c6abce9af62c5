package org.ubft.cli.nemesis;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The nemesis's seeded random fault schedule, a pure function of its seed and options: {@link #next()} returns the
 * next fault and the pause before it, and {@link #applied} records it in the schedule's own model of which processes
 * are faulty, so that at most {@code maxFaultyReplicas} replicas (killed or paused) and {@code maxFaultyMemnodes} memory nodes (killed,
 * or restarted too recently, see below) are faulty at once.
 *
 * <p>Each step heals a fault (restart of a killed replica, SIGCONT of a paused one, restart of a killed memory node)
 * or injects one (kill -9 or SIGSTOP of a correct replica, kill -9 of a correct memory node), each with probability
 * one half when both are possible. When nothing is faulty, a whole-cluster restart (kill -9 of every replica, then a
 * restart of all with their data directories) is chosen with probability {@code clusterRestartShare}: it is the one
 * step that takes the cluster past its tolerance, on purpose, and it is healed within the step.
 *
 * <p>Memory nodes keep nothing on disk: a restarted one comes back empty, without the registers it held. It counts as
 * faulty for {@link #AMNESIA_STEPS} more steps, while the replicas' later writes reach it, so that a second memory node
 * is not taken down right after it.
 */
public final class FaultSchedule {
    /** Steps a restarted memory node still counts as faulty (it lost its registers). */
    public static final int AMNESIA_STEPS = 3;

    /** What a step does. */
    public enum Kind {
        KILL_REPLICA("kill -9"), RESTART_REPLICA("restart"), PAUSE_REPLICA("SIGSTOP"), RESUME_REPLICA("SIGCONT"),
        KILL_MEMNODE("kill -9"), RESTART_MEMNODE("restart"), RESTART_CLUSTER("kill -9 + restart of every replica");

        final String action;

        Kind(String action) {
            this.action = action;
        }

        /** True for the steps that end a fault. */
        public boolean heals() {
            return this == RESTART_REPLICA || this == RESUME_REPLICA || this == RESTART_MEMNODE;
        }
    }

    /**
     * One step.
     *
     * @param kind        what it does
     * @param target      the replica or memory node it acts on (-1 for a whole-cluster restart)
     * @param delayMillis how long to wait before it
     */
    public record Fault(Kind kind, int target, long delayMillis) {
        @Override
        public String toString() {
            String who = switch (kind) {
                case KILL_REPLICA, RESTART_REPLICA, PAUSE_REPLICA, RESUME_REPLICA -> "replica-" + target;
                case KILL_MEMNODE, RESTART_MEMNODE -> "memnode-" + target;
                case RESTART_CLUSTER -> "";
            };
            return who.isEmpty() ? kind.action : kind.action + " " + who;
        }
    }

    /**
     * @param replicas            replicas of the cluster (2f+1)
     * @param memnodes            memory nodes of the cluster (2f_m+1)
     * @param maxFaultyReplicas   replicas faulty at once, at most (f by default)
     * @param maxFaultyMemnodes   memory nodes faulty at once, at most (f_m by default)
     * @param minGapMillis        shortest pause between two steps
     * @param maxGapMillis        longest pause between two steps
     * @param clusterRestartShare probability of a whole-cluster restart at a step with nothing faulty (0: never)
     */
    public record Options(int replicas, int memnodes, int maxFaultyReplicas, int maxFaultyMemnodes, long minGapMillis,
                          long maxGapMillis, double clusterRestartShare) {
        public Options {
            if (maxFaultyReplicas < 0 || maxFaultyReplicas > replicas || maxFaultyMemnodes < 0
                || maxFaultyMemnodes > memnodes || minGapMillis < 0 || maxGapMillis < minGapMillis
                || clusterRestartShare < 0 || clusterRestartShare > 1) {
                throw new IllegalArgumentException("bad fault schedule options: " + this);
            }
        }
    }

    private enum State { UP, KILLED, PAUSED }

    private final Options options;
    private final SplittableRandom random;
    private final State[] replicas;
    private final State[] memnodes;
    /** Steps left until a restarted memory node counts as correct again (0: correct or killed). */
    private final int[] amnesia;

    public FaultSchedule(Options options, long seed) {
        this.options = options;
        this.random = new SplittableRandom(seed);
        this.replicas = new State[options.replicas()];
        this.memnodes = new State[options.memnodes()];
        this.amnesia = new int[options.memnodes()];
        java.util.Arrays.fill(replicas, State.UP);
        java.util.Arrays.fill(memnodes, State.UP);
    }

    /** The next step; the caller applies it ({@link #applied}) before it asks for another. */
    public Fault next() {
        long delay = options.minGapMillis() + (options.maxGapMillis() == options.minGapMillis() ? 0
            : random.nextLong(options.maxGapMillis() - options.minGapMillis() + 1));
        for (int j = 0; j < amnesia.length; j++) {
            amnesia[j] = Math.max(0, amnesia[j] - 1);
        }
        List<Fault> heal = new ArrayList<>();
        List<Fault> inject = new ArrayList<>();
        for (int i = 0; i < replicas.length; i++) {
            switch (replicas[i]) {
                case KILLED -> heal.add(new Fault(Kind.RESTART_REPLICA, i, delay));
                case PAUSED -> heal.add(new Fault(Kind.RESUME_REPLICA, i, delay));
                case UP -> {
                    if (faultyReplicas() < options.maxFaultyReplicas()) {
                        inject.add(new Fault(Kind.KILL_REPLICA, i, delay));
                        inject.add(new Fault(Kind.PAUSE_REPLICA, i, delay));
                    }
                }
            }
        }
        for (int j = 0; j < memnodes.length; j++) {
            if (memnodes[j] == State.KILLED) {
                heal.add(new Fault(Kind.RESTART_MEMNODE, j, delay));
            } else if (amnesia[j] == 0 && faultyMemnodes() < options.maxFaultyMemnodes()) {
                inject.add(new Fault(Kind.KILL_MEMNODE, j, delay));
            }
        }
        Fault f;
        if (heal.isEmpty() && random.nextDouble() < options.clusterRestartShare()) {
            f = new Fault(Kind.RESTART_CLUSTER, -1, delay);
        } else if (!heal.isEmpty() && (inject.isEmpty() || random.nextBoolean())) {
            f = heal.get(random.nextInt(heal.size()));
        } else if (!inject.isEmpty()) {
            f = inject.get(random.nextInt(inject.size()));
        } else {
            // nothing may be injected (maxima of 0) and nothing is faulty: a restart of the cluster, or a pause
            f = new Fault(Kind.RESTART_CLUSTER, -1, delay);
        }
        return f;
    }

    /** Records that {@code f} took place: the model's processes change state. */
    public void applied(Fault f) {
        switch (f.kind()) {
            case KILL_REPLICA -> replicas[f.target()] = State.KILLED;
            case PAUSE_REPLICA -> replicas[f.target()] = State.PAUSED;
            case RESTART_REPLICA, RESUME_REPLICA -> replicas[f.target()] = State.UP;
            case KILL_MEMNODE -> memnodes[f.target()] = State.KILLED;
            case RESTART_MEMNODE -> {
                memnodes[f.target()] = State.UP;
                amnesia[f.target()] = AMNESIA_STEPS + 1; // counted down at the start of each of the next steps
            }
            case RESTART_CLUSTER -> {
            }
        }
    }

    /** Replicas killed or paused in the model. */
    public int faultyReplicas() {
        int n = 0;
        for (State s : replicas) {
            n += s == State.UP ? 0 : 1;
        }
        return n;
    }

    /** Memory nodes killed, or restarted within the last {@link #AMNESIA_STEPS} steps, in the model. */
    public int faultyMemnodes() {
        int n = 0;
        for (int j = 0; j < memnodes.length; j++) {
            n += memnodes[j] != State.UP || amnesia[j] > 0 ? 1 : 0;
        }
        return n;
    }

    /** The steps that heal every fault still open in the model (no delay), for the caller to apply. */
    public List<Fault> healAll() {
        List<Fault> out = new ArrayList<>();
        for (int i = 0; i < replicas.length; i++) {
            if (replicas[i] != State.UP) {
                out.add(new Fault(replicas[i] == State.KILLED ? Kind.RESTART_REPLICA : Kind.RESUME_REPLICA, i, 0));
            }
        }
        for (int j = 0; j < memnodes.length; j++) {
            if (memnodes[j] == State.KILLED) {
                out.add(new Fault(Kind.RESTART_MEMNODE, j, 0));
            }
        }
        return out;
    }
}
