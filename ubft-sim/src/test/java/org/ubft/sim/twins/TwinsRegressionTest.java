package org.ubft.sim.twins;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.ubft.sim.RegressionRuns;

/**
 * Schedules of the Twins enumeration that lost liveness, kept as regression runs (each fails again when its fix is
 * reverted). Replica 0's twins equivocate in view 0, so its CTBcast stream is dead at both correct replicas after GST;
 * replica 2 decided slots with twin B that replica 1 did not. The NEW_VIEWs re-propose those slots: replica 1 certified
 * and committed them, but replica 2, which had decided them, never committed them again, so f+1 COMMITs of one view
 * never formed at replica 1 (a CERTIFY lost to a TBcast tail overrun left it without replica 2's share, and the view
 * changed twice before it got through). Fixed: a replica commits a slot re-proposed after its decision when a peer's
 * COMMIT shows the certificate ({@code SlowPath.needsOwnCommit}). Since a replica that endorses a slot after a peer's
 * CERTIFY came certifies it at once ({@code LivenessRegressionTest}), either fix serves these schedules: 1881 and 1917
 * (seed 2) fail with both reverted.
 *
 * <p>{@code twins-e-0897} (seed 2) and {@code twins-random} 203 and 1319: after GST one correct replica had executed
 * everything it held (so no timer of its own complained) while the other and the surviving twin complained and moved
 * to a higher view; it heard their complaint and their SEAL_VIEW one at a time, each below f+1 when it came, and a
 * replica that suspects on its own count sent no COMPLAINT. Fixed: a COMPLAINT is sent even when it completes the count
 * here (twins-random 203 and 1319 fail without it), and a SEAL_VIEW that completes f+1 complaints about the view
 * suspects as a COMPLAINT does (twins-e-0897 fails with both reverted; either serves it).
 */
class TwinsRegressionTest {
    @ParameterizedTest(name = "{0} seed {1}")
    @CsvSource({
        "twins-e-0993, 1",
        "twins-e-0993, 2",
        "twins-e-1881, 2",
        "twins-e-1917, 2",
        "twins-e-0897, 2",
        "twins-random, 203",
        "twins-random, 1319",
    })
    void aScheduleThatOnceLostLivenessIsServed(String name, long seed) {
        RegressionRuns.assertServed(name, seed);
    }
}
