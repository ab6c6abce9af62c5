package org.ubft.fabric.shm;

import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.fabric.Status;

import java.nio.file.Path;

/**
 * Child process: WRITEs whole-region patterns to a peer's region in a loop, round r filling every 8-byte word
 * with {@link #word(int)}, until killed. Prints {@code READY status=<first write's status>} after the first
 * write. Arguments: directory, node id, owner node id, region id, region length.
 */
public final class ShmWordWriterMain {
    /** Rounds cycle through 1..MAX_ROUND so that a word's low 16 bits say which round wrote it. */
    static final int MAX_ROUND = 0xFFFF;

    private ShmWordWriterMain() {
    }

    /** The word of round {@code round}: the round number in each of its four 16-bit lanes. */
    static long word(int round) {
        return round * 0x0001_0001_0001_0001L;
    }

    public static void main(String[] args) throws Exception {
        ChildMains child = ChildMains.start();
        int owner = Integer.parseInt(args[2]);
        int regionId = Integer.parseInt(args[3]);
        int length = Integer.parseInt(args[4]);
        Status[] last = new Status[1];
        try (ShmFabric fabric = new ShmFabric(ShmOptions.of(Path.of(args[0]), Integer.parseInt(args[1])))) {
            UnsafeBuffer src = new UnsafeBuffer(new byte[length]);
            int round = 1;
            for (long n = 0; ; n++) {
                for (int i = 0; i + 8 <= length; i += 8) {
                    src.putLong(i, word(round));
                }
                fabric.write(n, owner, regionId, 0, src, 0, length);
                fabric.poll((id, status) -> last[0] = status, 1);
                if (n == 0) {
                    System.out.println("READY status=" + last[0]);
                    System.out.flush();
                }
                if (last[0] != Status.SUCCESS || ((n & 1023) == 0 && !child.parentAlive())) {
                    System.out.println("STOPPED status=" + last[0]);
                    return;
                }
                round = round % MAX_ROUND + 1;
            }
        }
    }
}
