/**
 * The tail channel (docs/design.md §6, uBFT paper §6.2): a one-way, acknowledgement-free channel from one
 * sender to one receiver over any {@link org.ubft.fabric.Fabric}, guaranteeing FIFO delivery of (at
 * least) the last t messages. The receiver exposes a ring of t slots ({@link
 * org.ubft.ctbcast.channel.TailChannelLayout}) that only the sender may write; the {@link
 * org.ubft.ctbcast.channel.TailChannelSender} writes message k into slot k mod t with one WRITE; the
 * {@link org.ubft.ctbcast.channel.TailChannelReceiver} polls its local copy of the ring.
 */
package org.ubft.ctbcast.channel;
