package org.ubft.fabric.shm;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.SystemNanoClock;
import org.ubft.common.NodeId;
import org.ubft.fabric.CompletionHandler;
import org.ubft.fabric.CompletionRing;
import org.ubft.fabric.Fabric;
import org.ubft.fabric.FabricException;
import org.ubft.fabric.LocalRegion;
import org.ubft.fabric.OperationGuard;
import org.ubft.fabric.Permission;
import org.ubft.fabric.Permissions;
import org.ubft.fabric.Status;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The fabric over shared memory of one host: every region is a memory-mapped file in a directory that all
 * nodes of the cluster use, and a poster performs each READ and WRITE itself, at post time, by copying from
 * or into its own mapping of the owner's file. It implements the {@link Fabric} contract; completions are
 * queued locally, in posting order, and handed out by {@link #poll}.
 *
 * <h2>Files</h2>
 * Region {@code r} of node {@code n} is the file {@code <n>.region-<r>} (e.g. {@code memnode-0.region-7}): a
 * header (format, length, the owner's generation, the permission table) then the region's bytes (layout in
 * {@link RegionFileLayout}). Registration writes a complete zeroed file under a temporary name and renames
 * it into place. While its fabric is open, a node holds an exclusive lock on {@code <n>.lock}; opening a
 * fabric withdraws whatever files a crashed earlier incarnation of the node left, and {@link #close()}
 * deletes the node's files.
 *
 * <h2>Outcomes</h2>
 * A post completes {@link Status#UNREACHABLE} if the owner's lock is not held (crashed, closed, never
 * started), {@link Status#ACCESS_DENIED} if the owner is alive but the region file is missing or unusable,
 * the range is out of bounds or the owner's table does not grant the poster the access, and otherwise
 * {@link Status#SUCCESS} with the copy done. Liveness is probed at most once per
 * {@link ShmOptions#livenessCheckNanos()} per peer, so an operation posted within that interval after an
 * owner's crash may still succeed on the dead owner's memory, as if it had happened just before the crash.
 * When an owner withdraws or replaces a file it zeroes the file's generation; posters see that on their next
 * operation and re-map.
 *
 * <h2>Trust boundary</h2>
 * Permissions are checked by this API, in the poster's process, against the table the owner wrote. Any
 * process with the OS user's access to the directory can read and write every region regardless, and could
 * also truncate a file under a mapping (which kills the mapping processes with SIGBUS). This fabric is for
 * the processes of one host run by one user; the protocol's Byzantine tolerance does not extend to a
 * faulty process that is outside the API. Use {@code tcp} or {@code rdma} where peers must not be trusted
 * with the host.
 *
 * <h2>Memory</h2>
 * Bounded: the completion ring holds {@link ShmOptions#maxOutstanding()} entries, a poster keeps at most
 * 1024 mappings of peers' files and the liveness of at most 4096 peers (dropping old entries past that);
 * posting allocates nothing once a peer's file is mapped.
 *
 * <p>One thread uses an instance, as the contract says. Several instances (nodes) may live in one JVM.
 */
public final class ShmFabric implements Fabric {
    private final Path directory;
    private final int localNode;
    private final long generation;
    private final OperationGuard guard;
    private final CompletionRing completions;
    private final OwnerLock lock;
    private final Int2ObjectHashMap<ShmLocalRegion> regions = new Int2ObjectHashMap<>();
    private final PeerRegionCache peers;
    private final LivenessCache liveness;
    /** Lock files of the nodes the liveness probe asked about (bounded by {@link LivenessCache#MAX_PEERS}). */
    private final Int2ObjectHashMap<Path> lockFiles = new Int2ObjectHashMap<>();
    /** Why the last {@link #target} call returned null. */
    private Status denial;

    /**
     * Opens node {@code options.localNode()} on the directory (creating it if missing): takes the node's lock
     * and withdraws files left by an earlier incarnation.
     *
     * @throws FabricException if the directory cannot be used or the node is already open (in this JVM or
     *                         another process)
     */
    public ShmFabric(ShmOptions options) {
        this.localNode = options.localNode();
        try {
            this.directory = Files.createDirectories(options.directory()).toRealPath();
        } catch (IOException e) {
            throw new FabricException("cannot use directory " + options.directory() + ": " + e, e);
        }
        this.lock = OwnerLock.acquire(directory, localNode);
        try {
            RegionFiles.sweep(directory, localNode);
        } catch (IOException | RuntimeException e) {
            lock.close();
            throw new FabricException("cannot remove stale files of " + NodeId.toString(localNode) + " in "
                + directory + ": " + e, e);
        }
        this.generation = newGeneration();
        this.guard = new OperationGuard(options.maxOutstanding());
        this.completions = new CompletionRing(options.maxOutstanding());
        this.peers = new PeerRegionCache(directory, localNode);
        this.liveness = new LivenessCache(options.livenessCheckNanos(), new SystemNanoClock(),
            node -> NodeLocks.isHeld(lockFile(node)),
            peers::evictOwner);
    }

    /** Node {@code node}'s lock file, resolved once (the liveness probe asks every few milliseconds). */
    private Path lockFile(int node) {
        Path path = lockFiles.get(node);
        if (path == null) {
            if (lockFiles.size() >= LivenessCache.MAX_PEERS) {
                lockFiles.clear(); // as the liveness cache forgets
            }
            path = directory.resolve(RegionFileLayout.lockFileName(node));
            lockFiles.put(node, path);
        }
        return path;
    }

    @Override
    public int localNode() {
        return localNode;
    }

    /** The directory of the cluster's files (its real path). */
    public Path directory() {
        return directory;
    }

    /** This incarnation's generation, written into every region file it creates; never 0. */
    public long generation() {
        return generation;
    }

    /** Files found under a peer's region file name that were not usable region files (peer data, dropped). */
    public long unusableRegionFiles() {
        return peers.unusableFiles();
    }

    @Override
    public LocalRegion register(int regionId, int length, Permissions permissions) {
        if (guard.isClosed()) {
            throw new FabricException("fabric is closed");
        }
        if (length <= 0 || length > RegionFileLayout.MAX_REGION_LENGTH) {
            throw new FabricException("region length must be in 1.." + RegionFileLayout.MAX_REGION_LENGTH
                + ", got " + length);
        }
        if (regions.containsKey(regionId)) {
            throw new FabricException("region " + regionId + " of " + NodeId.toString(localNode) + " exists");
        }
        Path file = directory.resolve(RegionFileLayout.regionFileName(localNode, regionId));
        try {
            ShmLocalRegion region = ShmLocalRegion.create(file, regionId, length, permissions, generation);
            regions.put(regionId, region);
            return region;
        } catch (IOException e) {
            throw new FabricException("cannot create " + file + ": " + e, e);
        }
    }

    @Override
    public LocalRegion localRegion(int regionId) {
        return regions.get(regionId);
    }

    @Override
    public void read(long workRequestId, int owner, int regionId, int offset,
                     MutableDirectBuffer dst, int dstIndex, int length) {
        guard.admit(offset, length, dst.capacity(), dstIndex);
        AtomicBuffer target = target(owner, regionId, offset, length, false);
        if (target != null) {
            WordCopy.read(target, offset, dst, dstIndex, length);
        }
        completions.add(workRequestId, target != null ? Status.SUCCESS : denial);
    }

    @Override
    public void write(long workRequestId, int owner, int regionId, int offset,
                      DirectBuffer src, int srcIndex, int length) {
        guard.admit(offset, length, src.capacity(), srcIndex);
        AtomicBuffer target = target(owner, regionId, offset, length, true);
        if (target != null) {
            WordCopy.write(src, srcIndex, target, offset, length);
        }
        completions.add(workRequestId, target != null ? Status.SUCCESS : denial);
    }

    /**
     * The region bytes an operation may touch, or null with the reason in {@link #denial}.
     */
    private AtomicBuffer target(int owner, int regionId, int offset, int length, boolean write) {
        if (owner == localNode) {
            ShmLocalRegion own = regions.get(regionId);
            return own != null && OperationGuard.inBounds(offset, length, own.length())
                ? own.buffer() : deny(Status.ACCESS_DENIED);
        }
        if (!liveness.isAlive(owner)) {
            return deny(Status.UNREACHABLE);
        }
        PeerRegion region = peers.get(owner, regionId);
        if (region == null) {
            // no live file: the owner withdrew it or never registered it, or it just died and its files went
            // with it; only a fresh probe tells which
            return deny(liveness.recheck(owner) ? Status.ACCESS_DENIED : Status.UNREACHABLE);
        }
        Permission granted = region.permission();
        if (!(write ? granted.canWrite() : granted.canRead())
            || !OperationGuard.inBounds(offset, length, region.length())) {
            return deny(Status.ACCESS_DENIED);
        }
        return region.buffer();
    }

    private AtomicBuffer deny(Status status) {
        denial = status;
        return null;
    }

    @Override
    public int poll(CompletionHandler handler, int limit) {
        int n = 0;
        while (n < limit && completions.size() > 0) {
            guard.completed();
            completions.pollOne(handler);
            n++;
        }
        return n;
    }

    @Override
    public int outstanding() {
        return guard.outstanding();
    }

    @Override
    public int maxOutstanding() {
        return guard.maxOutstanding();
    }

    /** Withdraws and deletes this node's region files, unmaps peers' files and releases the node's lock. */
    @Override
    public void close() {
        if (guard.isClosed()) {
            return;
        }
        guard.close();
        completions.clear();
        peers.close();
        List<Exception> failures = new ArrayList<>();
        regions.values().forEach(region -> {
            try {
                region.withdraw();
            } catch (IOException | RuntimeException e) {
                failures.add(e);
            }
        });
        regions.clear();
        try {
            lock.close();
        } catch (RuntimeException e) {
            failures.add(e);
        }
        if (!failures.isEmpty()) {
            FabricException e = new FabricException("closing " + NodeId.toString(localNode) + " left files in "
                + directory);
            failures.forEach(e::addSuppressed);
            throw e;
        }
    }

    private static long newGeneration() {
        long g;
        do {
            g = ThreadLocalRandom.current().nextLong();
        } while (g == RegionFileLayout.RETIRED);
        return g;
    }
}
