/**
 * Consistent Tail Broadcast (uBFT paper §4, Algorithm 1; docs/design.md §7): a sans-IO core per replica,
 * {@link org.ubft.ctbcast.core.CtbcastReplica}, holding a {@link org.ubft.ctbcast.core.CtbcastReceiver} per
 * broadcaster and the {@link org.ubft.ctbcast.core.CtbcastBroadcaster} of its own stream, talking to the rest
 * through narrow ports: {@link org.ubft.ctbcast.core.TbcastPort} (out) and
 * {@link org.ubft.ctbcast.core.CtbcastReplica#onTbcastDeliver} (in); {@link org.ubft.ctbcast.core.SignaturePort}
 * with results as {@link org.ubft.ctbcast.core.SignatureListener} events;
 * {@link org.ubft.ctbcast.core.RegisterPort} with results as {@link org.ubft.ctbcast.core.RegisterListener}
 * events ({@link org.ubft.ctbcast.core.ReplicatedRegisterPort} implements it over the memnode registers);
 * the {@link org.ubft.ctbcast.core.DeliverHandler} upcall; timers from an injected clock in {@code doWork()}.
 *
 * <p>Wire format: {@link org.ubft.ctbcast.core.CtbcastMessage}; what is signed:
 * {@link org.ubft.ctbcast.core.SignedStatement}; register values: {@link org.ubft.ctbcast.core.RegisterValue}.
 * Where the core departs from the printed algorithm, and when the broadcaster sends SIGNED, is documented in
 * {@link org.ubft.ctbcast.core.CtbcastReceiver} and {@link org.ubft.ctbcast.core.CtbcastBroadcaster}.
 */
package org.ubft.ctbcast.core;
