package org.ubft.sim.check;

import java.util.function.IntPredicate;

/**
 * No correct replica is ever proved faulty: a signature fails its check at a replica only when the replica whose
 * message carried it is Byzantine (it signed it, or relayed a share it should have verified), and a correct replica
 * then cuts that sender's verification budget ({@code VerificationBudget.provedFaulty}). A correct replica proved
 * faulty by another would be a protocol bug (a statement built from the receiver's state rather than the message's
 * bytes, an unverified share relayed), and would cost it the burst its view changes need. Judged at the end of the run
 * at every running correct replica.
 */
public final class ProvedFaultyChecker implements Checker {
    public static final String NAME = "proved-faulty";
    private final Violations violations;
    private final int n;
    private final IntPredicate judges;
    private final Proofs proofs;
    private final IntPredicate mayBeProved;

    /** What replica i holds at the end of the run. */
    public interface Proofs {
        /** Whether replica i proved replica j faulty ({@code Replica.provedFaulty}). */
        boolean proved(int i, int j);
    }

    /**
     * @param judges      whether replica i is correct and running at the end (its judgement is held to this)
     * @param proofs      what each replica proved
     * @param mayBeProved whether replica j may be proved faulty (Byzantine, or a twin)
     */
    public ProvedFaultyChecker(Violations violations, int n, IntPredicate judges, Proofs proofs,
                               IntPredicate mayBeProved) {
        this.violations = violations;
        this.n = n;
        this.judges = judges;
        this.proofs = proofs;
        this.mayBeProved = mayBeProved;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void finish(long time) {
        for (int i = 0; i < n; i++) {
            if (!judges.test(i)) {
                continue;
            }
            for (int j = 0; j < n; j++) {
                if (proofs.proved(i, j) && !mayBeProved.test(j)) {
                    violations.report(NAME, time, "replica-" + i + " proved correct replica-" + j + " faulty (a"
                        + " signature of its message failed its check)");
                }
            }
        }
    }
}
