/**
 * CPU in virtual time: what each replica's signatures and executions cost ({@link org.ubft.sim.cpu.CpuCosts}), counted
 * through wrappers around the crypto the simulator hands out ({@link org.ubft.sim.cpu.CountingConsensusCrypto},
 * {@link org.ubft.sim.cpu.CountingCryptoService}) into one {@link org.ubft.sim.cpu.ReplicaCpu} per replica slot, which
 * the cluster turns into busy time: a replica that just verified ten signatures does not run its next duty cycle for
 * ten verifications' worth of virtual time. Floods and slow crypto so show up as latency and liveness loss, and the
 * resource checker ({@link org.ubft.sim.check.ResourceChecker}) reads the same counts.
 */
package org.ubft.sim.cpu;
