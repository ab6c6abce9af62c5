/**
 * The fabric SPI: remote memory regions with per-peer permissions and one-sided operations on them
 * (docs/design.md §4). Implementations: {@code sim} (deterministic, virtual time, fault injection),
 * {@code shm} (memory-mapped files shared by processes of one host) and {@code tcp} (an agent serving
 * READ and WRITE frames for the owner's regions, like a NIC).
 */
package org.ubft.fabric;
