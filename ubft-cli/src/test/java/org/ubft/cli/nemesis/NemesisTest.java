package org.ubft.cli.nemesis;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ubft.cli.Ubft;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ubft nemesis} end to end over real processes (tcp), short: the key-value store under a seeded fault
 * schedule passes every check; and the nemesis catches what it must: a user's StateMachine that loses its state in a
 * snapshot (wrong replies after a whole-cluster restart) and one that is not deterministic (no quorum: a stall).
 */
class NemesisTest {
    @TempDir
    static Path dir;
    private static Path jar;

    @BeforeAll
    static void compile() {
        jar = org.ubft.cli.UserJarsAccess.counterJar(dir.resolve("jar"));
    }

    private record Run(int code, String out) {
        @Override
        public String toString() {
            return "exit " + code + "\n" + out;
        }
    }

    private static Run nemesis(String... args) {
        StringWriter out = new StringWriter();
        var cmd = Ubft.newCommandLine();
        cmd.setOut(new PrintWriter(out, true));
        cmd.setErr(new PrintWriter(out, true));
        int code = cmd.execute(args);
        return new Run(code, out.toString());
    }

    private static long number(String text, String name) {
        Matcher m = Pattern.compile(name + "=(\\d+)").matcher(text);
        assertTrue(m.find(), name + " missing in\n" + text);
        return Long.parseLong(m.group(1));
    }

    @Test
    void badOptionsAreRefusedWithTheReason() {
        Run clients = nemesis("nemesis", "--app", "orderbook", "--clients", "2");
        assertEquals(2, clients.code(), clients.toString());
        assertTrue(clients.out().contains("--app orderbook takes 1 client"), clients.toString());
        Run app = nemesis("nemesis", "--app", "redis");
        assertEquals(2, app.code(), app.toString());
        assertTrue(app.out().contains("--app must be flip, orderbook, kv, or the fully qualified name"), app.toString());
        Run none = nemesis("nemesis", "--max-faulty-replicas", "0", "--max-faulty-memnodes", "0",
            "--cluster-restart-share", "0");
        assertEquals(2, none.code(), none.toString());
        assertTrue(none.out().contains("there is no fault to inject"), none.toString());
        assertTrue(none.out().contains("say --no-faults"), none.toString());
        Run both = nemesis("nemesis", "--no-faults", "--max-faulty-replicas", "1");
        assertEquals(2, both.code(), both.toString());
        assertTrue(both.out().contains("--no-faults injects no fault: drop --max-faulty-replicas"), both.toString());
        Run tooMany = nemesis("nemesis", "--max-faulty-replicas", "4", "--duration-s", "1");
        assertEquals(2, tooMany.code(), tooMany.toString());
        assertTrue(tooMany.out().contains("the cluster has 3 replicas"), tooMany.toString());
    }

    @Test
    void theKeyValueStoreUnderFaultsPassesEveryCheck() {
        Run run = nemesis("nemesis", "--app", "kv", "--seed", "3", "--duration-s", "20", "--min-gap-ms", "300",
            "--max-gap-ms", "1500", "--cluster-restart-share", "0.3", "--work-dir", dir.resolve("kv").toString());
        assertEquals(0, run.code(), run.toString());
        assertTrue(run.out().contains("linearizability=linearizable"), run.toString());
        assertTrue(run.out().contains("lost_acknowledged_writes=0"), run.toString());
        // a loaded host (restarts wait for ready lines) gets fewer steps and commands; some of each must happen
        assertTrue(number(run.out(), "faults") >= 3, run.toString());
        assertTrue(number(run.out(), "history_ops") > 50, run.toString());
        assertTrue(run.out().contains("result=OK"), run.toString());
    }

    @Test
    void aHealthyClusterUnderLoadChangesNoViewAndAFaultFreeRunSaysSo() {
        Run run = nemesis("nemesis", "--app", "flip", "--clients", "8", "--no-faults", "--duration-s", "8",
            "--work-dir", dir.resolve("healthy").toString());
        assertEquals(0, run.code(), run.toString());
        assertTrue(run.out().contains("faults=0 (--no-faults)"), run.toString());
        assertTrue(run.out().contains("replica-0:") && run.out().contains(" view 0 replica-1:"), run.toString());
        assertTrue(run.out().contains("result=OK no violation, nothing acknowledged lost, no stall, no view change"),
            run.toString());
        assertTrue(number(run.out(), "replies") > 100, run.toString());
    }

    @Test
    void aFaultFreeRunWhoseLeaderIsSuspectedFailsNamingTheSpuriousViewChange() throws Exception {
        // a request timeout far below a request's latency here: the followers suspect a healthy leader
        Path file = NemesisClusterFile.write(dir.resolve("hasty"), 5);
        java.nio.file.Files.writeString(file, java.nio.file.Files.readString(file)
            .replace("consensus.request.timeout.ms = 1500", "consensus.request.timeout.ms = 1"));
        Run run = nemesis("nemesis", "--app", "flip", "--clients", "4", "--no-faults", "--duration-s", "8",
            "--stall-bound-s", "60", "-c", file.toString(), "--work-dir", dir.resolve("hasty-run").toString());
        assertEquals(1, run.code(), run.toString());
        // at once, with the replica's line: when, and why it complained
        assertTrue(run.out().contains("failure: SPURIOUS VIEW CHANGE at t="), run.toString());
        assertTrue(run.out().contains("complaints so far by reason {REQUEST_TIMEOUT="), run.toString());
        assertTrue(!run.out().contains("did not get"), "the run ended at the view change, not after a post-heal wait: "
            + run);
    }

    @Test
    void aStateMachineThatLosesItsStateInASnapshotGivesWrongRepliesAfterAWholeClusterRestart() {
        Run run = nemesis("nemesis", "--app", org.ubft.cli.UserJarsAccess.FORGETFUL, "--classpath", jar.toString(),
            "--payload", "8", "--seed", "1", "--duration-s", "15", "--max-faulty-replicas", "0",
            "--max-faulty-memnodes", "0", "--cluster-restart-share", "1", "--min-gap-ms", "2000", "--max-gap-ms",
            "2000", "--work-dir", dir.resolve("forgetful").toString());
        assertEquals(1, run.code(), run.toString());
        assertTrue(run.out().contains("violation: client-0: WRONG REPLY"), run.toString());
        assertTrue(run.out().contains("restart_cluster="), run.toString());
    }

    @Test
    void aStateMachineWhoseRepliesDifferByReplicaStallsTheClientAndTheNemesisSaysSo() {
        Run run = nemesis("nemesis", "--app", org.ubft.cli.UserJarsAccess.RANDOM, "--classpath", jar.toString(),
            "--payload", "8", "--seed", "1", "--duration-s", "30", "--stall-bound-s", "3",
            "--work-dir", dir.resolve("random").toString());
        assertEquals(1, run.code(), run.toString());
        assertTrue(run.out().contains("failure: STALL: client-0 got no reply for"), run.toString());
    }
}
