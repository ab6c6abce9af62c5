package org.ubft.fabric.shm;

import java.nio.file.Path;

/**
 * Child process: opens a {@link ShmFabric} as a node, registers one region with the given permissions, prints
 * {@code READY generation=<g>} and sleeps until killed.
 * Arguments: directory, node id, region id, region length, permissions ({@link ChildMains#encode}).
 */
public final class ShmRegionServerMain {
    private ShmRegionServerMain() {
    }

    public static void main(String[] args) throws Exception {
        ChildMains child = ChildMains.start();
        ShmFabric fabric = new ShmFabric(ShmOptions.of(Path.of(args[0]), Integer.parseInt(args[1])));
        fabric.register(Integer.parseInt(args[2]), Integer.parseInt(args[3]), ChildMains.decode(args[4]));
        System.out.println("READY generation=" + fabric.generation());
        System.out.flush();
        child.sleepWhileParentAlive();
        fabric.close();
    }
}
