package org.ubft.cli;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ubft.fabric.ChildProcess;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * CTBcast across real processes: three {@code ubft memnode} processes and three replica processes
 * ({@link CtbcastNodeMain}, each a {@link org.ubft.ctbcast.node.CtbcastNode}); replica 0 broadcasts
 * {@link #COUNT} messages and every replica, the broadcaster included, must deliver each of them exactly once, with the
 * broadcaster's bytes: the digest it prints (over the deliveries in k order) must equal the one computed here
 * from the known contents.
 */
class CtbcastProcessTest {
    private static final int COUNT = 300;
    private static final Pattern DONE = Pattern.compile("DONE delivered=(\\d+) digest=([0-9a-f]{64})");
    /** Hang guard only. */
    private static final long HANG_GUARD_NANOS = 90_000_000_000L;
    private final List<ChildProcess> processes = new ArrayList<>();

    @AfterEach
    void stopAll() {
        processes.forEach(ChildProcess::close);
    }

    private ChildProcess start(String marker, Class<?> main, String... args) {
        ChildProcess p = ChildProcess.startUntil(marker, main, args);
        processes.add(p);
        return p;
    }

    @ParameterizedTest
    @ValueSource(strings = {"shm", "tcp"})
    void everyReplicaDeliversEveryMessage(String fabric) throws InterruptedException {
        Path file = TestClusters.write(fabric, 100);
        for (int j = 0; j < 3; j++) {
            start(" ready: ", Ubft.class, "memnode", "--config", file.toString(), "--id", Integer.toString(j));
        }
        ChildProcess[] replicas = new ChildProcess[3];
        for (int i = 2; i >= 0; i--) { // the broadcaster last: its peers are up when it starts
            replicas[i] = start("READY", CtbcastNodeMain.class, file.toString(), Integer.toString(i),
                Integer.toString(COUNT));
        }
        String expected = CtbcastNodeMain.expectedDigest(COUNT);
        long deadline = System.nanoTime() + HANG_GUARD_NANOS;
        for (int i = 0; i < 3; i++) {
            Matcher m;
            while (!(m = DONE.matcher(replicas[i].output())).find()) {
                if (!replicas[i].isAlive() || System.nanoTime() > deadline) {
                    fail("replica " + i + " did not finish; its output:\n" + replicas[i].output()
                        + "\nreplica 0's output:\n" + replicas[0].output());
                }
                Thread.sleep(50);
            }
            assertEquals(COUNT, Integer.parseInt(m.group(1)), replicas[i].output());
            assertEquals(expected, m.group(2), "replica " + i + " delivered other bytes:\n"
                + replicas[i].output());
        }
    }
}
