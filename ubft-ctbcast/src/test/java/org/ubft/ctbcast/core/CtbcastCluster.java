package org.ubft.ctbcast.core;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.common.NodeId;
import org.ubft.fabric.CompletionRouter;
import org.ubft.fabric.sim.SimFabric;
import org.ubft.fabric.sim.SimNetwork;
import org.ubft.memnode.register.RegisterClientConfig;
import org.ubft.memnode.register.RegisterRegions;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayDeque;
import java.util.function.BooleanSupplier;

/**
 * Test rig: 3 replicas running {@link CtbcastReplica} cores and 3 memory nodes (f_m = 1) on one seeded
 * {@link SimNetwork}, real replicated registers ({@link ReplicatedRegisterPort}), inline Ed25519, and the
 * {@link TestTbcast} stand-in between the cores. A replica given a {@link Behaviour} is Byzantine: its core is
 * correct but the behaviour rewrites what it sends and writes.
 */
final class CtbcastCluster {
    static final int N = 3;
    static final int MEMNODES = 3;
    static final long COOLDOWN_NANOS = 20_000;
    static final long BACKOFF_NANOS = 5_000;

    final SimNetwork network;
    final CtbcastConfig config;
    final TestTbcast tbcast;
    final DeliveryLog log;
    final Node[] nodes = new Node[N];
    final SimFabric[] memnodes = new SimFabric[MEMNODES];

    static final class Node {
        int index;
        SimFabric fabric;
        CompletionRouter router;
        ReplicatedRegisterPort registers;
        InlineEd25519Signatures signatures;
        CtbcastReplica core;
        Behaviour behaviour;
        ByzantineRegisters byzantineRegisters;
    }

    CtbcastCluster(long seed, CtbcastConfig config, Behaviour... behaviours) {
        this.network = new SimNetwork(seed).operationTimeout(100_000);
        this.config = config;
        this.tbcast = new TestTbcast(network, N, config.t());
        this.log = new DeliveryLog(N, config.t());
        int[] memnodeIds = new int[MEMNODES];
        int[] replicaIds = new int[N];
        for (int j = 0; j < MEMNODES; j++) {
            memnodeIds[j] = NodeId.memnode(j);
        }
        for (int i = 0; i < N; i++) {
            replicaIds[i] = NodeId.replica(i);
        }
        for (int j = 0; j < MEMNODES; j++) {
            memnodes[j] = network.open(memnodeIds[j]);
            RegisterRegions.registerAll(memnodes[j], ReplicatedRegisterPort.layout(config), replicaIds);
        }
        RegisterClientConfig registerConfig = new RegisterClientConfig(memnodeIds, COOLDOWN_NANOS, BACKOFF_NANOS,
            Math.min(4 * N * config.t(), 1 << 16));
        byte[][] privateKeys = new byte[N][];
        byte[][] publicKeys = new byte[N][];
        for (int i = 0; i < N; i++) {
            privateKeys[i] = privateKey(i);
            publicKeys[i] = InlineEd25519Signatures.publicKey(privateKeys[i]);
        }
        for (int i = 0; i < N; i++) {
            Node node = new Node();
            node.index = i;
            node.behaviour = behaviours.length > i ? behaviours[i] : null;
            node.fabric = network.open(replicaIds[i]);
            node.router = new CompletionRouter(node.fabric, 4);
            node.registers = new ReplicatedRegisterPort(node.router, network.clock(), config, i, registerConfig,
                ReplicatedRegisterPort.WRITER_TAG, ReplicatedRegisterPort.READER_TAG);
            node.signatures = new InlineEd25519Signatures(privateKeys[i], publicKeys, 4 * N * config.t());
            Adversary adversary = new Adversary(i, config, privateKeys[i], tbcast, network.random());
            RegisterPort registers = node.registers;
            if (node.behaviour != null) {
                node.byzantineRegisters = new ByzantineRegisters(node.registers, node.behaviour, adversary);
                adversary.registers(node.byzantineRegisters);
                registers = node.byzantineRegisters;
            }
            node.core = new CtbcastReplica(config, i, network.clock(), tbcast.port(i), node.signatures, registers,
                log.handler(i));
            node.registers.bind(node.core);
            if (node.byzantineRegisters != null) {
                node.byzantineRegisters.bind(node.core);
            }
            node.signatures.bind(node.core);
            tbcast.attach(i, node.core, node.behaviour, adversary);
            nodes[i] = node;
        }
    }

    static CtbcastConfig config(int t, CtbcastConfig.SignedMode mode) {
        return new CtbcastConfig(N, t, 200, 48, mode, 40_000, 0);
    }

    static byte[] privateKey(int replica) {
        try {
            return MessageDigest.getInstance("SHA-256")
                .digest(("ctbcast-test-key-" + replica).getBytes(StandardCharsets.US_ASCII));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    boolean[] correct() {
        boolean[] c = new boolean[N];
        for (int i = 0; i < N; i++) {
            c[i] = nodes[i].behaviour == null;
        }
        return c;
    }

    long broadcast(int replica, byte[] m) {
        long k = nodes[replica].core.broadcast(new UnsafeBuffer(m), 0, m.length);
        log.broadcast(replica, k, m);
        return k;
    }

    /**
     * Schedules {@code count} broadcasts by {@code replica} of random messages (0 to maxMessageBytes long), one
     * every {@code minGap}..{@code maxGap} nanoseconds of virtual time from now; returns when the last goes out.
     */
    long workload(int replica, int count, long minGap, long maxGap) {
        long at = 0;
        for (int i = 0; i < count; i++) {
            at += minGap + network.random().nextLong(maxGap - minGap + 1);
            int length = network.random().nextInt(config.maxMessageBytes() + 1);
            byte[] m = new byte[length];
            for (int j = 0; j < length; j++) {
                m[j] = (byte) network.random().nextInt(256);
            }
            network.schedule(at, () -> broadcast(replica, m));
        }
        return at;
    }

    void crashMemnode(int j) {
        network.crash(NodeId.memnode(j));
    }

    /** One round: completions, the cores' and ports' work, then one event or 1 µs of virtual time. */
    void pump() {
        for (Node node : nodes) {
            while (node.router.poll(256) > 0) {
                // drain
            }
            node.registers.doWork();
            if (node.byzantineRegisters != null) {
                node.byzantineRegisters.doWork();
            }
            node.signatures.doWork();
            node.core.doWork();
        }
        long events = network.eventsRun();
        network.runUntil(() -> network.eventsRun() > events, 1_000);
    }

    void runFor(long nanos) {
        long deadline = network.nanoTime() + nanos;
        while (network.nanoTime() < deadline) {
            pump();
        }
    }

    boolean runUntil(BooleanSupplier condition, long maxNanos) {
        long deadline = network.nanoTime() + maxNanos;
        while (!condition.getAsBoolean()) {
            if (network.nanoTime() > deadline) {
                return false;
            }
            pump();
        }
        return true;
    }

    CtbcastCounters counters(int replica) {
        return nodes[replica].core.counters();
    }

    String describe() {
        StringBuilder sb = new StringBuilder();
        for (Node node : nodes) {
            sb.append("replica ").append(node.index)
                .append(node.behaviour == null ? "" : " (" + node.behaviour.name() + ")")
                .append(": ").append(node.core.counters()).append('\n');
        }
        return sb.append(tbcast).toString();
    }

    /**
     * A Byzantine replica's register port: its behaviour decides what is written, and may write on its own
     * ({@link Adversary#writeRegister}); the core's writes that would not increase a register's timestamp any
     * more are dropped and reported done.
     */
    static final class ByzantineRegisters implements RegisterPort {
        private final ReplicatedRegisterPort real;
        private final Behaviour behaviour;
        private final Adversary adversary;
        private final long[] lastTimestamp;
        private final ArrayDeque<long[]> fakeCompletions = new ArrayDeque<>();
        private RegisterListener listener;

        ByzantineRegisters(ReplicatedRegisterPort real, Behaviour behaviour, Adversary adversary) {
            this.real = real;
            this.behaviour = behaviour;
            this.adversary = adversary;
            this.lastTimestamp = new long[real.layout().registerCount()];
            java.util.Arrays.fill(lastTimestamp, -1);
        }

        void bind(RegisterListener listener) {
            this.listener = listener;
        }

        @Override
        public boolean write(long token, int broadcaster, int slot, long k, DirectBuffer value, int offset) {
            byte[] v = new byte[RegisterValue.BYTES];
            value.getBytes(offset, v, 0, v.length);
            byte[] written = behaviour.registerWrite(adversary, broadcaster, slot, k, v);
            int register = real.layout().registerIndex(broadcaster, slot);
            if (written == null || k <= lastTimestamp[register]) {
                fakeCompletions.add(new long[] {token, k});
                return true;
            }
            if (!real.write(token, broadcaster, slot, k, new UnsafeBuffer(written), 0)) {
                return false;
            }
            lastTimestamp[register] = k;
            return true;
        }

        /** A write of the behaviour's own; false if the register already has timestamp k or later. */
        boolean forceWrite(int broadcaster, long k, byte[] value) {
            int slot = (int) (k % real.layout().registersPerArray());
            int register = real.layout().registerIndex(broadcaster, slot);
            if (k <= lastTimestamp[register] || !real.write(0L, broadcaster, slot, k, new UnsafeBuffer(value), 0)) {
                return false;
            }
            lastTimestamp[register] = k;
            return true;
        }

        @Override
        public boolean read(long token, int owner, int broadcaster, int slot) {
            return real.read(token, owner, broadcaster, slot);
        }

        void doWork() {
            while (!fakeCompletions.isEmpty()) {
                long[] c = fakeCompletions.poll();
                listener.onRegisterWritten(c[0], c[1], true);
            }
        }
    }
}
