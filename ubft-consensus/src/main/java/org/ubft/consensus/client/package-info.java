/**
 * The client side of docs/design.md §9: {@link org.ubft.consensus.client.ClientLinks} (client-replica transport over
 * tail channels), {@link org.ubft.consensus.client.ClientCore} (the sans-IO client protocol: numbering, sending to
 * every replica, signed retransmissions, f + 1 matching replies) and {@link org.ubft.consensus.client.UbftClient}
 * (the threaded user API: {@code invoke}, {@code invokeAsync}).
 */
package org.ubft.consensus.client;
