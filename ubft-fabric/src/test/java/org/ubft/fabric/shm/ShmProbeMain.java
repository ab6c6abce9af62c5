package org.ubft.fabric.shm;

import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.fabric.Status;

import java.nio.file.Path;

/**
 * Child process: READs the 8-byte word at an offset of a peer's region once, prints
 * {@code READY status=<status> value=<word>} and exits.
 * Arguments: directory, node id, owner node id, region id, offset.
 */
public final class ShmProbeMain {
    private ShmProbeMain() {
    }

    public static void main(String[] args) {
        UnsafeBuffer dst = new UnsafeBuffer(new byte[8]);
        Status[] status = new Status[1];
        try (ShmFabric fabric = new ShmFabric(ShmOptions.of(Path.of(args[0]), Integer.parseInt(args[1])))) {
            fabric.read(1, Integer.parseInt(args[2]), Integer.parseInt(args[3]), Integer.parseInt(args[4]), dst, 0, 8);
            fabric.poll((id, s) -> status[0] = s, 1);
        }
        System.out.println("READY status=" + status[0] + " value=" + dst.getLong(0));
        System.out.flush();
    }
}
