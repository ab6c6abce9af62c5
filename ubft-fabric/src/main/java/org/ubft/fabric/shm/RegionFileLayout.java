package org.ubft.fabric.shm;

import org.ubft.common.NodeId;
import org.ubft.fabric.Permissions;

/**
 * Names and layout of the files of the shm fabric. All numbers are in the host's native byte order
 * (the files never leave the host).
 *
 * <pre>
 * region file  {node}.region-{id}     e.g. memnode-0.region-7
 *   0  long  MAGIC         written last by the owner when the file is complete
 *   8  int   VERSION
 *  12  int   REGION_LENGTH
 *  16  long  GENERATION    the owner's incarnation, never 0; set to 0 (RETIRED) when the file is withdrawn
 *  24  int   GRANT_COUNT   0..Permissions.MAX_GRANTS
 *  28  int   (unused)
 *  32  GRANT_COUNT x (int nodeId, int permission code), room for MAX_GRANTS
 *  HEADER_LENGTH (a multiple of 64): the region's bytes
 * lock file    {node}.lock             held with an exclusive FileLock while the node's fabric is open
 * </pre>
 */
final class RegionFileLayout {
    /** "uBFTSHM1" read as a little-endian long. */
    static final long MAGIC = 0x314D_4853_5446_4275L;
    static final int VERSION = 1;

    static final int MAGIC_OFFSET = 0;
    static final int VERSION_OFFSET = 8;
    static final int REGION_LENGTH_OFFSET = 12;
    static final int GENERATION_OFFSET = 16;
    static final int GRANT_COUNT_OFFSET = 24;
    static final int GRANTS_OFFSET = 32;
    static final int GRANT_ENTRY_LENGTH = 8;
    /** Start of the region bytes: cache-line aligned, so region offsets that are 8-aligned are 8-aligned addresses. */
    static final int HEADER_LENGTH = align64(GRANTS_OFFSET + Permissions.MAX_GRANTS * GRANT_ENTRY_LENGTH);
    /** Largest region a file can hold (a mapping is at most 2 GiB). */
    static final int MAX_REGION_LENGTH = Integer.MAX_VALUE - HEADER_LENGTH;

    /** Generation value of a withdrawn file: posters that mapped it must re-map. */
    static final long RETIRED = 0L;

    private static final String REGION_INFIX = ".region-";
    static final String TEMP_SUFFIX = ".tmp";

    private RegionFileLayout() {
    }

    static String regionFileName(int node, int regionId) {
        return NodeId.toString(node) + REGION_INFIX + regionId;
    }

    /** Prefix shared by every region file (and temporary file) of {@code node}. */
    static String regionFilePrefix(int node) {
        return NodeId.toString(node) + REGION_INFIX;
    }

    static String lockFileName(int node) {
        return NodeId.toString(node) + ".lock";
    }

    private static int align64(int n) {
        return (n + 63) & ~63;
    }
}
