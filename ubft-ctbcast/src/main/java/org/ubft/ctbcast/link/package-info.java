/**
 * The replica-to-replica transport: {@link org.ubft.ctbcast.link.PeerLinks} gives a replica one tail
 * channel to and from every peer and a loopback to itself, and multiplexes protocol streams
 * ({@link org.ubft.ctbcast.link.LinkStream}) on them with a small {@link org.ubft.ctbcast.link.Envelope}
 * that also carries piggy-backed acknowledgements (paper §6.2).
 */
package org.ubft.ctbcast.link;
