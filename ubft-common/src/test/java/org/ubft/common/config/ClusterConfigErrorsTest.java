package org.ubft.common.config;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Every kind of cluster-file error, and the exact message the user sees for it. */
class ClusterConfigErrorsTest {
    @TempDir
    Path dir;

    private Path file;

    @BeforeEach
    void nameTheFile() {
        file = dir.resolve("conf/bad.properties");
    }

    /** Loads {@code text} from {@link #file} and returns the message of the ConfigException it must cause. */
    private String error(String text) {
        ClusterFiles.write(dir, "conf/bad.properties", text);
        ConfigException e = assertThrows(ConfigException.class, () -> ClusterConfig.load(file));
        assertEquals(file.toString(), e.source());
        return e.getMessage();
    }

    private String prefix() {
        return file + ": ";
    }

    @Test
    void notAnInteger() {
        String m = error(ClusterFiles.MINIMAL + "ctbcast.tail = abc\n");
        assertEquals(prefix() + "key 'ctbcast.tail' = 'abc': expected an integer from 2 to 4096", m);
    }

    @ParameterizedTest
    @CsvSource({
        "f, 0, 'an integer from 1 to 100'",
        "fm, -1, 'an integer from 1 to 100'",
        "ctbcast.tail, 1, 'an integer from 2 to 4096'",
        "ctbcast.tail, 4097, 'an integer from 2 to 4096'",
        "consensus.window, 65537, 'an integer from 1 to 65536'",
        "register.value.bytes, 7, 'an integer from 8 to 4096'",
        "register.delta.us, 0, 'an integer from 1 to 1000000'",
        "channel.max.message.bytes, 63, 'an integer from 64 to 1048576'",
        "fabric.op.timeout.ms, 99999999999, 'an integer from 1 to 60000'",
        "fabric.max.outstanding, 1.5, 'an integer from 1 to 1048576'",
        "fabric.tcp.lazy.confirm.us, -1, 'an integer from 0 to 1000000'",
        "fabric, infiniband, 'one of shm, tcp, rdma'",
        "idle.strategy, spin, 'one of auto, backoff, sleeping, yielding, busy-spin'",
        "cluster.name, My_Cluster, '1 to 64 lower-case letters, digits and ''-'', like my-cluster'",
    })
    void badValueNamesKeyValueAndExpectation(String key, String value, String expected) {
        String text = key.equals("fabric") || key.equals("cluster.name") ? ClusterFiles.minimalWithout(key)
                : ClusterFiles.MINIMAL;
        String m = error(text + key + " = " + value + "\n");
        assertEquals(prefix() + "key '" + key + "' = '" + value + "': expected " + expected, m);
    }

    @Test
    void aLazyConfirmDelayThatAnOperationCouldOutlastIsRefused() {
        assertEquals(prefix() + "key 'fabric.tcp.lazy.confirm.us' = 5000 must be less than half of 'fabric.op.timeout.ms'"
                + " (10 ms), or a confirmed WRITE could time out first; lower it or raise the timeout",
                error(ClusterFiles.MINIMAL + "fabric.op.timeout.ms = 10\nfabric.tcp.lazy.confirm.us = 5000\n"));
    }

    @Test
    void aCheckpointIntervalThatDoesNotDivideTheWindowIsRefused() {
        assertEquals(prefix() + "key 'consensus.checkpoint.interval' = 48 must divide 'consensus.window' (256); use a"
                + " divisor such as 32, or auto",
                error(ClusterFiles.MINIMAL + "consensus.window = 256\nconsensus.checkpoint.interval = 48\n"));
        assertEquals(prefix() + "key 'consensus.checkpoint.interval' = 'often': expected auto or an integer from 1 to"
                + " 65536", error(ClusterFiles.MINIMAL + "consensus.checkpoint.interval = often\n"));
    }

    @Test
    void missingRequiredKeySaysWhatToPut() {
        assertEquals(prefix() + "missing required key 'fabric': add a line 'fabric = shm' (expected one of shm, tcp, rdma)",
                error(ClusterFiles.minimalWithout("fabric")));
        assertEquals(prefix() + "missing required key 'cluster.name': add a line 'cluster.name = my-cluster'"
                        + " (expected 1 to 64 lower-case letters, digits and '-', like my-cluster)",
                error(ClusterFiles.minimalWithout("cluster.name")));
    }

    @Test
    void emptyValueOfAnOptionalKeyPointsToTheDefault() {
        assertEquals(prefix() + "key 'keys.dir' has an empty value: expected a directory path;"
                + " or remove the line to use the default, keys/<cluster.name>", error(ClusterFiles.MINIMAL + "keys.dir =\n"));
    }

    @Test
    void unknownKeyWithSuggestion() {
        assertEquals(prefix() + "unknown key 'ctbcast.tial': did you mean 'ctbcast.tail'?",
                error(ClusterFiles.MINIMAL + "ctbcast.tial = 64\n"));
        assertEquals(prefix() + "unknown key 'replicas.1': did you mean 'replica.1'?",
                error(ClusterFiles.MINIMAL + "replicas.1 = 127.0.0.1:1\n"));
        assertEquals(prefix() + "unknown key 'F': did you mean 'f'?", error(ClusterFiles.MINIMAL + "F = 2\n"));
        assertEquals(prefix() + "unknown key 'idle.stratgy': did you mean 'idle.strategy'?",
                error(ClusterFiles.MINIMAL + "idle.stratgy = backoff\n"));
    }

    @Test
    void unknownKeyWithoutNearMiss() {
        assertEquals(prefix() + "unknown key 'log.level': not a cluster-file key"
                + " (the Configuration section of README.md lists them)", error(ClusterFiles.MINIMAL + "log.level = 3\n"));
    }

    @Test
    void endpointKeyWithoutIndex() {
        assertEquals(prefix() + "key 'memnode.x': expected 'memnode.' followed by an index 0, 1, 2, ..., like memnode.0",
                error(ClusterFiles.MINIMAL + "memnode.x = 127.0.0.1:1\n"));
        assertEquals(prefix() + "key 'replica.01': expected 'replica.' followed by an index 0, 1, 2, ..., like replica.0",
                error(ClusterFiles.MINIMAL + "replica.01 = 127.0.0.1:1\n"));
    }

    @ParameterizedTest
    @CsvSource({"127.0.0.1", "127.0.0.1:", ":17100", "127.0.0.1:0", "127.0.0.1:65536", "127.0.0.1:http",
        "300.0.0.1:17100", "bad_host:17100", "[zz]:17100", "host name:1"})
    void badEndpointSyntax(String endpoint) {
        String m = error(ClusterFiles.minimalWithout("client.0") + "client.0 = " + endpoint + "\n");
        assertEquals(prefix() + "key 'client.0' = '" + endpoint + "': expected " + Endpoint.EXPECTED, m);
    }

    @Test
    void missingReplicaNamesItAndTheCount() {
        assertEquals(prefix() + "missing key 'replica.2': f = 1 needs 3 replicas, replica.0 to replica.2;"
                + " add a line 'replica.2 = host:port'", error(ClusterFiles.minimalWithout("replica.2")));
    }

    @Test
    void extraReplicaIsAnError() {
        assertEquals(prefix() + "key 'replica.3' = '127.0.0.1:17103': f = 1 needs 3 replicas, replica.0 to replica.2;"
                + " remove this key or raise f", error(ClusterFiles.MINIMAL + "replica.3 = 127.0.0.1:17103\n"));
    }

    @Test
    void raisingFWithoutAddingReplicasNamesEachMissingOne() {
        file = ClusterFiles.write(dir, "conf/bad.properties", ClusterFiles.MINIMAL + "f = 2\n");
        ConfigException e = assertThrows(ConfigException.class, () -> ClusterConfig.load(file));
        assertEquals(List.of(
                "missing key 'replica.3': f = 2 needs 5 replicas, replica.0 to replica.4; add a line 'replica.3 = host:port'",
                "missing key 'replica.4': f = 2 needs 5 replicas, replica.0 to replica.4; add a line 'replica.4 = host:port'"),
                e.problems());
        assertEquals(prefix() + e.problems().get(0) + " (and 1 more problem)", e.getMessage());
    }

    @Test
    void wrongMemnodeCounts() {
        assertEquals(prefix() + "missing key 'memnode.0': fm = 1 needs 3 memory nodes, memnode.0 to memnode.2;"
                + " add a line 'memnode.0 = host:port'", error(ClusterFiles.minimalWithout("memnode.0")));
        assertEquals(prefix() + "key 'memnode.5' = '127.0.0.1:17115': fm = 1 needs 3 memory nodes, memnode.0 to"
                + " memnode.2; remove this key or raise fm", error(ClusterFiles.MINIMAL + "memnode.5 = 127.0.0.1:17115\n"));
    }

    @Test
    void clientsMustExistAndRunFromZero() {
        assertEquals(prefix() + "missing key 'client.0': a cluster needs at least one client; add a line"
                + " 'client.0 = host:port'", error(ClusterFiles.minimalWithout("client.0")));
        assertEquals(prefix() + "missing key 'client.1': client indices run from 0 without gaps and client.2 is set;"
                + " add a line 'client.1 = host:port' or renumber", error(ClusterFiles.MINIMAL + "client.2 = 127.0.0.1:1\n"));
    }

    @Test
    void duplicateEndpointIsRejected() {
        assertEquals(prefix() + "key 'client.1' = '127.0.0.1:17101': the same endpoint as 'replica.1';"
                + " give every node its own host:port", error(ClusterFiles.MINIMAL + "client.1 = 127.0.0.1:17101\n"));
        assertEquals(prefix() + "key 'client.1' = 'LOCALHOST:9': the same endpoint as 'client.0';"
                + " give every node its own host:port",
                error(ClusterFiles.minimalWithout("client.0") + "client.0 = localhost:9\nclient.1 = LOCALHOST:9\n"));
    }

    @Test
    void keySetTwiceIsAnError() {
        assertEquals(prefix() + "key 'ctbcast.tail' is set more than once; keep one line for it",
                error(ClusterFiles.MINIMAL + "ctbcast.tail = 64\nctbcast.tail = 32\n"));
    }

    @Test
    void everyProblemIsListedAndTheMessageCountsThem() {
        file = ClusterFiles.write(dir, "conf/bad.properties",
                ClusterFiles.minimalWithout("fabric") + "ctbcast.tail = x\nfoo = 1\n");
        ConfigException e = assertThrows(ConfigException.class, () -> ClusterConfig.load(file));
        assertEquals(List.of(
                "unknown key 'foo': not a cluster-file key (the Configuration section of README.md lists them)",
                "missing required key 'fabric': add a line 'fabric = shm' (expected one of shm, tcp, rdma)",
                "key 'ctbcast.tail' = 'x': expected an integer from 2 to 4096"), e.problems());
        assertEquals(prefix() + e.problems().get(0) + " (and 2 more problems)", e.getMessage());
    }
}
