/**
 * The deterministic cluster simulator (issue 5, docs/design.md §11): whole clusters of real replica, memory-node and
 * client code on the {@code sim} fabric, in one thread on virtual time, every choice drawn from one seed; Byzantine
 * behaviours; invariant checkers (agreement, validity, no duplicate execution, linearizability, bounded memory,
 * liveness after GST).
 */
package org.ubft.sim;
