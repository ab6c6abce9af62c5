package org.ubft.fabric.shm;

import org.ubft.fabric.Permission;
import org.ubft.fabric.Permissions;

import java.util.Optional;
import java.util.concurrent.TimeUnit;

/** Helpers of the test mains that {@link org.ubft.fabric.ChildProcess} runs in separate JVMs. */
final class ChildMains {
    /** A child outliving its test (parent gone, or this long) exits by itself. */
    private static final long MAX_LIFETIME_NANOS = TimeUnit.MINUTES.toNanos(10);

    private final long parentPid;
    private final long startedAt = System.nanoTime();

    private ChildMains() {
        parentPid = ProcessHandle.current().parent().map(ProcessHandle::pid).orElse(-1L);
    }

    static ChildMains start() {
        return new ChildMains();
    }

    /** True while the test that started this child is still there to use it. */
    boolean parentAlive() {
        Optional<ProcessHandle> parent = ProcessHandle.of(parentPid);
        return parent.isPresent() && parent.get().isAlive() && System.nanoTime() - startedAt < MAX_LIFETIME_NANOS;
    }

    /** Sleeps until the parent is gone (a test kills the child long before that). */
    void sleepWhileParentAlive() throws InterruptedException {
        while (parentAlive()) {
            Thread.sleep(200);
        }
    }

    /** Encodes permissions as {@code node:CODE,node:CODE} for a child's command line. */
    static String encode(Permissions permissions) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < permissions.size(); i++) {
            sb.append(i == 0 ? "" : ",").append(permissions.nodeAt(i)).append(':')
                .append(permissions.permissionAt(i).name());
        }
        return sb.toString();
    }

    static Permissions decode(String text) {
        Permissions p = Permissions.none();
        if (!text.isEmpty()) {
            for (String grant : text.split(",")) {
                String[] kv = grant.split(":");
                p = p.grant(Integer.parseInt(kv[0]), Permission.valueOf(kv[1]));
            }
        }
        return p;
    }
}
