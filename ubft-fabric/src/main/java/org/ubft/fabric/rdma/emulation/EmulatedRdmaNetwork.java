package org.ubft.fabric.rdma.emulation;

import org.ubft.fabric.rdma.RdmaDevice;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * An in-memory RDMA network for tests: the devices of one JVM, reachable by address, and the "NICs" that execute
 * their work requests. It keeps the semantics the rdma fabric relies on and can get wrong:
 * <ul>
 *   <li>one-sided access is checked against the target registration's flags (REMOTE_READ / REMOTE_WRITE), its
 *       bounds, and the remote access the target's queue pair allows; a refused access completes
 *       REMOTE_ACCESS_ERROR with no effect and moves both queue pairs to the error state;</li>
 *   <li>work requests of one queue pair run and complete in post order; the first that fails moves the queue pair
 *       to the error state and flushes the rest (and its RECVs);</li>
 *   <li>atomicity is 8 bytes only: operations move {@code chunkBytes} at a time, and the chunks of different queue
 *       pairs interleave in a seeded random order, so a READ concurrent with a WRITE may return a mix of old and new
 *       aligned 8-byte words (torn reads);</li>
 *   <li>a WRITE's completion does not mean its bytes are visible to other queue pairs: the last chunk of a WRITE
 *       lands only when a later work request of the same queue pair starts (a READ after the WRITE is the fence,
 *       paper §6.1, footnote 4) or {@code visibilityDelay} progress rounds later;</li>
 *   <li>a crashed device answers nothing: operations on it complete RETRY_EXCEEDED; a SEND with no RECV posted at
 *       the peer completes RETRY_EXCEEDED (RNR).</li>
 * </ul>
 * Work runs in {@link #progress()}, which every poll of a device's queue pairs calls. Thread-safe: one lock for the
 * whole network.
 */
public final class EmulatedRdmaNetwork {
    private final Map<InetSocketAddress, EmulatedDevice> devices = new HashMap<>();
    private final List<EmulatedQueuePair> active = new ArrayList<>();
    private final Random random;
    private final int chunkBytes;
    private final int visibilityDelay;
    private long round;
    private boolean held;

    /** A network that moves 64 bytes per step and makes unfenced WRITEs visible 3 rounds later. */
    public EmulatedRdmaNetwork() {
        this(64, 3, 1);
    }

    /**
     * @param chunkBytes      bytes one step of an operation moves (a multiple of 8)
     * @param visibilityDelay progress rounds after which an unfenced WRITE's last chunk lands
     * @param seed            seed of the interleaving of queue pairs' steps
     */
    public EmulatedRdmaNetwork(int chunkBytes, int visibilityDelay, long seed) {
        if (chunkBytes <= 0 || chunkBytes % 8 != 0) {
            throw new IllegalArgumentException("chunkBytes must be a positive multiple of 8, got " + chunkBytes);
        }
        this.chunkBytes = chunkBytes;
        this.visibilityDelay = visibilityDelay;
        this.random = new Random(seed);
    }

    /** A device listening nowhere yet, named by {@code address} (where {@link RdmaDevice#listen} will listen). */
    public synchronized EmulatedDevice open(String name) {
        return new EmulatedDevice(this, name);
    }

    /** Crashes the device listening at {@code address}: it answers nothing any more. */
    public synchronized void crash(InetSocketAddress address) {
        EmulatedDevice d = devices.remove(address);
        if (d != null) {
            d.crash();
        }
    }

    /** While held, no work request runs: operations posted meanwhile run interleaved once {@link #release}d. */
    public synchronized void hold() {
        held = true;
    }

    public synchronized void release() {
        held = false;
    }

    synchronized void listen(InetSocketAddress address, EmulatedDevice device) {
        EmulatedDevice other = devices.get(address);
        if (other != null && other != device) {
            throw new org.ubft.fabric.FabricException("emulated RDMA address " + address + " is in use");
        }
        devices.put(address, device);
    }

    synchronized EmulatedDevice deviceAt(InetSocketAddress address) {
        return devices.get(address);
    }

    synchronized void forget(EmulatedDevice device) {
        devices.values().removeIf(d -> d == device);
    }

    synchronized void activate(EmulatedQueuePair qp) {
        if (!active.contains(qp)) {
            active.add(qp);
        }
    }

    long round() {
        return round;
    }

    int chunkBytes() {
        return chunkBytes;
    }

    /** Runs queued work requests, interleaving queue pairs chunk by chunk, until none is left (unless held). */
    public synchronized void progress() {
        round++;
        for (EmulatedQueuePair qp : active) {
            qp.landDeferredOlderThan(round - visibilityDelay);
        }
        if (held) {
            return;
        }
        List<EmulatedQueuePair> busy = new ArrayList<>();
        while (true) {
            busy.clear();
            for (EmulatedQueuePair qp : active) {
                if (qp.hasWork()) {
                    busy.add(qp);
                }
            }
            if (busy.isEmpty()) {
                break;
            }
            busy.get(random.nextInt(busy.size())).step();
        }
        active.removeIf(EmulatedQueuePair::isGone);
    }
}
