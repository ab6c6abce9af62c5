/**
 * Tail Broadcast (docs/design.md §7, uBFT paper §4.2): best-effort broadcast of each replica's last 2t
 * messages, with bounded memory. {@link org.ubft.ctbcast.tbcast.Tbcast} is one stream of a replica,
 * broadcaster and receiver at once, running on {@link org.ubft.ctbcast.link.PeerLinks}.
 */
package org.ubft.ctbcast.tbcast;
