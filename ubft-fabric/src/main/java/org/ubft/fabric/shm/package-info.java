/**
 * The {@code shm} fabric: regions are memory-mapped files in a directory shared by the processes of one host
 * (by default {@code /dev/shm/ubft-<cluster>}), and a poster performs one-sided READs and WRITEs itself by
 * copying from or into its mapping of the owner's file, with 8-byte-word atomicity and fences for ordering.
 * A node is alive while it holds the file lock of its lock file.
 *
 * <p><b>Trust boundary: the OS user.</b> Permissions are enforced by the fabric API in the poster's own
 * process, from the table the owner wrote into the file header. Anyone with the OS user's access to the
 * directory can bypass them, read and write any region, or corrupt the files. Use shm only for processes of
 * one host run by one user; entry point {@link org.ubft.fabric.shm.ShmFabric}.
 */
package org.ubft.fabric.shm;
