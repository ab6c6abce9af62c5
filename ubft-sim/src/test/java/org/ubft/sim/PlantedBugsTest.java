package org.ubft.sim;

import org.junit.jupiter.api.Test;
import org.ubft.apps.kv.KvReplyCodec;
import org.ubft.apps.kv.KvStatus;
import org.ubft.consensus.app.StateMachine;
import org.ubft.sim.check.AgreementChecker;
import org.ubft.sim.check.BoundedMemoryChecker;
import org.ubft.sim.check.KvLinearizabilityChecker;
import org.ubft.sim.check.LivenessChecker;
import org.ubft.sim.check.NoDuplicateChecker;
import org.ubft.sim.check.ValidityChecker;
import org.ubft.sim.linearizability.KvOp;
import org.ubft.sim.scenario.RunResult;
import org.ubft.sim.scenario.Scenario;
import org.ubft.sim.scenario.Scenarios;
import org.ubft.sim.scenario.SeedSweep;
import org.ubft.sim.scenario.Simulator;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Each checker catches a planted bug, with a seed that replays it: the replicas below claim to be correct
 * ({@link ReplicaBehaviour#correct()}), so the checkers hold them to the guarantees, but their application wrapper
 * breaks one. The same seed gives the same violations again.
 */
class PlantedBugsTest {
    private static final long SEED = 5;

    /** A "correct" replica whose application wrapper is {@code bug}. */
    private static ReplicaBehaviour buggy(UnaryOperator<StateMachine> bug) {
        return new ReplicaBehaviour() {
            @Override
            public StateMachine wrapApp(StateMachine app) {
                return bug.apply(app);
            }
        };
    }

    /** Calls {@code onNth} for the {@code nth} execution (from 1), the app otherwise. */
    private abstract static class AtExecution implements StateMachine {
        final StateMachine app;
        private final int nth;
        private int count;

        AtExecution(StateMachine app, int nth) {
            this.app = app;
            this.nth = nth;
        }

        abstract byte[] onNth(byte[] request);

        @Override
        public byte[] execute(byte[] request) {
            return ++count == nth ? onNth(request) : app.execute(request);
        }

        @Override
        public byte[] snapshot() {
            return app.snapshot();
        }

        @Override
        public void restore(byte[] snapshot) {
            app.restore(snapshot);
        }

        @Override
        public int maxSnapshotBytes() {
            return app.maxSnapshotBytes();
        }
    }

    /** Runs {@code scenario}, checks that exactly {@code expected} checkers fired, and that the seed replays them. */
    private static RunResult caught(Scenario scenario, Set<String> expected) {
        RunResult r = Simulator.run(scenario, SEED);
        assertEquals(expected, r.violations().counts().keySet(), () -> r.violations().kept().toString());
        RunResult again = Simulator.run(scenario, SEED);
        assertEquals(r.violations().kept(), again.violations().kept(), "the seed replays the same violations");
        StringWriter report = new StringWriter();
        SeedSweep sweep = new SeedSweep(new PrintWriter(report, true));
        sweep.sweep(scenario, SEED, 1);
        sweep.summary();
        assertTrue(report.toString().contains("replay: bin/ubft sim --scenario " + scenario.name() + " --seed " + SEED
            + " --trace "), report.toString());
        assertTrue(report.toString().endsWith("seeds=1 violations=" + r.violations().total() + System.lineSeparator()),
            report.toString());
        return r;
    }

    /** A leader that CTBcasts, after its fourth PREPARE, a copy of it that {@code alter} makes of its bytes. */
    private static ReplicaBehaviour strayCopyOfFourthPrepare(java.util.function.UnaryOperator<byte[]> alter) {
        return new ReplicaBehaviour() {
            @Override
            public org.ubft.consensus.replica.ReplicaOutput wrapOutput(org.ubft.consensus.replica.ReplicaOutput output,
                                                                       SlotContext slot) {
                return new org.ubft.sim.byzantine.ForwardingOutput(output) {
                    private int prepares;

                    @Override
                    public long ctbcast(org.agrona.DirectBuffer buffer, int offset, int length) {
                        long k = real.ctbcast(buffer, offset, length);
                        if (buffer.getByte(offset) == org.ubft.consensus.wire.ConsensusWire.PREPARE && ++prepares == 4) {
                            byte[] original = new byte[length];
                            buffer.getBytes(offset, original);
                            byte[] copy = alter.apply(original);
                            real.ctbcast(new org.agrona.concurrent.UnsafeBuffer(copy), 0, copy.length);
                        }
                        return k;
                    }
                };
            }
        };
    }

    @Test
    void aCorrectLeaderWhoseMessageAReplicaRefusesBreaksCorrectMessages() {
        // the leader sends a copy of its fourth PREPARE claiming view 7: the others refuse it (Algorithm 5, line 2),
        // the run stays live and agrees, and only the refusal shows the bug
        ReplicaBehaviour stray = strayCopyOfFourthPrepare(bytes -> {
            new org.agrona.concurrent.UnsafeBuffer(bytes).putLong(1, 7, org.ubft.consensus.wire.ClientWire.ORDER);
            return bytes;
        });
        Scenario s = Scenarios.ALL_CORRECT.withBehaviours(stray, null, null).named("planted-stray-prepare");
        RunResult r = caught(s, Set.of(org.ubft.sim.check.CorrectMessagesChecker.NAME));
        assertTrue(r.violations().kept().get(0).message().contains("INVALID_PREPARE of correct replicas"),
            r.violations().kept().toString());
    }

    @Test
    void aCorrectLeaderWhoseMessageIsMalformedBreaksCorrectMessages() {
        // the leader sends a copy of its fourth PREPARE with a byte after its end: the others drop it as MALFORMED,
        // the run stays live and agrees, and only the drop shows the bug (before, only INVALID_* drops were held)
        ReplicaBehaviour stray = strayCopyOfFourthPrepare(bytes -> java.util.Arrays.copyOf(bytes, bytes.length + 1));
        Scenario s = Scenarios.ALL_CORRECT.withBehaviours(stray, null, null).named("planted-malformed-prepare");
        RunResult r = caught(s, Set.of(org.ubft.sim.check.CorrectMessagesChecker.NAME));
        assertTrue(r.violations().kept().get(0).message().contains("MALFORMED of correct replicas"),
            r.violations().kept().toString());
    }

    @Test
    void aReplicaThatExecutesARequestTwiceBreaksNoDuplicate() {
        ReplicaBehaviour twice = buggy(app -> new AtExecution(app, 5) {
            @Override
            byte[] onNth(byte[] request) {
                byte[] reply = app.execute(request);
                app.execute(request);
                return reply;
            }
        });
        // every replica does it, so that they still agree: only the duplicate is wrong
        Scenario s = Scenarios.ALL_CORRECT.withBehaviours(twice, twice, twice).named("planted-duplicate");
        RunResult r = caught(s, Set.of(NoDuplicateChecker.NAME));
        assertTrue(r.violations().kept().get(0).message().contains("at position 5 and before at position 4"),
            r.violations().kept().toString());
    }

    @Test
    void aReplicaThatExecutesAnotherRequestAtAPositionBreaksAgreement() {
        ReplicaBehaviour other = buggy(app -> new AtExecution(app, 7) {
            @Override
            byte[] onNth(byte[] request) {
                byte[] changed = request.clone();
                changed[changed.length - 1] ^= 1; // a different request than the one decided
                if (changed.length == Payloads.HEADER_BYTES) {
                    changed = Payloads.request(0, 1_000_000, new byte[0]);
                }
                return app.execute(changed);
            }
        });
        Scenario s = Scenarios.ALL_CORRECT.withBehaviours(null, null, other).named("planted-disagreement");
        RunResult r = caught(s, Set.of(AgreementChecker.NAME, ValidityChecker.NAME));
        assertTrue(r.violations().kept().stream().anyMatch(v -> v.checker().equals(AgreementChecker.NAME)
            && v.message().contains("replica-2 executed") && v.message().contains("at position 6")),
            r.violations().kept().toString());
    }

    @Test
    void replicasThatExecuteAFabricatedRequestBreakValidity() {
        ReplicaBehaviour fabricate = buggy(app -> new AtExecution(app, 3) {
            @Override
            byte[] onNth(byte[] request) {
                app.execute(Payloads.request(1, 424_242, new byte[] {1, 2, 3}));
                return app.execute(request);
            }
        });
        Scenario s = Scenarios.ALL_CORRECT.withBehaviours(fabricate, fabricate, fabricate).named("planted-fabrication");
        RunResult r = caught(s, Set.of(ValidityChecker.NAME));
        assertTrue(r.violations().kept().get(0).message().contains("c1#424242"), r.violations().kept().toString());
    }

    /**
     * Every replica answers the 20th GET of a key whose value changed since its first write with that first value:
     * a stale read, the same at every replica, so the client accepts it (f + 1 matching replies), the replicas agree,
     * execute what clients sent, once each, and stay live. Only the clients' history shows it.
     */
    @Test
    void replicasThatAnswerAStaleReadBreakLinearizabilityOnly() {
        ReplicaBehaviour stale = buggy(app -> new AtExecution(app, 0) {
            private final Map<Long, Long> firstValue = new HashMap<>(); // looked up only
            private int changedReads;

            @Override
            byte[] onNth(byte[] request) {
                return app.execute(request);
            }

            @Override
            public byte[] execute(byte[] request) {
                byte[] reply = app.execute(request);
                KvOp op = KvOp.decode(Payloads.body(request));
                KvReplyCodec.Reply r = KvReplyCodec.decode(Payloads.replyBody(reply));
                if (op == null || r.status() != KvStatus.OK) {
                    return reply;
                }
                if (op.kind() != KvOp.Kind.GET) {
                    firstValue.putIfAbsent(op.key(), r.value());
                    return reply;
                }
                Long first = firstValue.get(op.key());
                if (first != null && first != r.value() && ++changedReads == 20) {
                    return Payloads.reply(Payloads.replyPosition(reply), Payloads.replyId(reply),
                        KvReplyCodec.encode(KvStatus.OK, first));
                }
                return reply;
            }
        });
        Scenario s = Scenarios.KV_ALL_CORRECT.withBehaviours(stale, stale, stale).named("planted-stale-read");
        RunResult r = caught(s, Set.of(KvLinearizabilityChecker.NAME));
        String message = r.violations().kept().get(0).message();
        assertTrue(message.startsWith("not linearizable: partition ") && message.contains(" GET "), message);
        assertEquals(0, r.violations().unknownTotal());
        // the same run without the bug is linearizable
        assertTrue(Simulator.run(Scenarios.KV_ALL_CORRECT, SEED).ok());
    }

    @Test
    void moreCrashesThanTheClusterToleratesBreakLiveness() {
        Scenario s = Scenarios.TOO_MANY_CRASHES;
        RunResult r = caught(s, Set.of(LivenessChecker.NAME));
        String message = r.violations().kept().get(0).message();
        assertTrue(message.startsWith("request c"), message);
        assertTrue(message.contains("replica-0 counters: fast_path=") && message.contains("replica-1 down")
            && message.contains("replica-2 down"), message);
    }

    @Test
    void aStructureOverItsBoundBreaksBoundedMemory() {
        Supplier<ReplicaBehaviour> hoarders = () -> new ReplicaBehaviour() {
            private final List<byte[]> kept = new ArrayList<>();

            @Override
            public StateMachine wrapApp(StateMachine app) {
                return new AtExecution(app, 0) {
                    @Override
                    byte[] onNth(byte[] request) {
                        return app.execute(request);
                    }

                    @Override
                    public byte[] execute(byte[] request) {
                        kept.add(request); // grows with every request served
                        return app.execute(request);
                    }
                };
            }

            @Override
            public List<Probe> probes(int slot) {
                return List.of(new Probe("replica-" + slot + ".hoard", kept::size, 64));
            }
        };
        Scenario s = Scenarios.ALL_CORRECT.withBehaviours(() -> new ReplicaBehaviour[] {null, hoarders.get()})
            .named("planted-unbounded");
        RunResult r = caught(s, Set.of(BoundedMemoryChecker.NAME));
        String message = r.violations().kept().get(0).message();
        assertTrue(message.startsWith("replica-1.hoard = ") && message.endsWith(", over its bound 64"),
            r.violations().kept().toString());
    }
}
