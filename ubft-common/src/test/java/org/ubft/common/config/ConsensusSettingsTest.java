package org.ubft.common.config;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code consensus.signature.workers = auto}: a worker where the host has cores for it; {@code
 * consensus.checkpoint.interval = auto}: the window's largest divisor up to 32 (docs/performance.md).
 */
class ConsensusSettingsTest {
    private static ClusterConfig.Builder cluster() {
        return ClusterConfig.builder().clusterName("a").fabric(FabricType.SHM).shmDir(Path.of("/tmp/x"))
            .endpointsOn("127.0.0.1", 17000);
    }

    @Test
    void autoStartsAWorkerOnlyOnAHostWithCoresForIt() {
        assertEquals(0, ConsensusSettings.autoSignatureWorkers(1));
        assertEquals(0, ConsensusSettings.autoSignatureWorkers(2));
        assertEquals(0, ConsensusSettings.autoSignatureWorkers(3));
        assertEquals(1, ConsensusSettings.autoSignatureWorkers(4));
        assertEquals(1, ConsensusSettings.autoSignatureWorkers(16));
    }

    @Test
    void theDefaultIsAutoResolvedOnThisHostAndAnExplicitCountWins() {
        assertEquals("auto", ConfigKey.CONSENSUS_SIGNATURE_WORKERS.defaultTemplate());
        int here = ConsensusSettings.autoSignatureWorkers(Runtime.getRuntime().availableProcessors());
        assertEquals(here, cluster().build().consensus().signatureWorkers());
        assertEquals(here, cluster().set("consensus.signature.workers", "auto").build().consensus().signatureWorkers());
        assertEquals(2, cluster().set("consensus.signature.workers", "2").build().consensus().signatureWorkers());
        assertEquals(0, cluster().set("consensus.signature.workers", "0").build().consensus().signatureWorkers());
    }

    @Test
    void aBadValueNamesWhatIsAccepted() {
        ConfigException e = assertThrows(ConfigException.class,
            () -> cluster().set("consensus.signature.workers", "many").build());
        assertTrue(e.getMessage().contains("key 'consensus.signature.workers' = 'many': expected auto or an integer"
            + " from 0 to 16"), e.getMessage());
        assertThrows(ConfigException.class, () -> cluster().set("consensus.signature.workers", "17").build());
    }

    @Test
    void theCheckpointIntervalIsTheWindowsLargestDivisorUpTo32UnlessSet() {
        assertEquals("auto", ConfigKey.CONSENSUS_CHECKPOINT_INTERVAL.defaultTemplate());
        assertEquals(32, ConsensusSettings.autoCheckpointInterval(256));
        assertEquals(32, ConsensusSettings.autoCheckpointInterval(32));
        assertEquals(16, ConsensusSettings.autoCheckpointInterval(16));
        assertEquals(25, ConsensusSettings.autoCheckpointInterval(100));
        assertEquals(1, ConsensusSettings.autoCheckpointInterval(37));
        assertEquals(1, ConsensusSettings.autoCheckpointInterval(1));
        assertEquals(32, cluster().build().consensus().checkpointInterval(), "the default window is 256");
        assertEquals(8, cluster().consensusWindow(8).build().consensus().checkpointInterval());
        assertEquals(64, cluster().checkpointInterval(64).build().consensus().checkpointInterval());
        assertEquals(256, cluster().set("consensus.checkpoint.interval", "256").build().consensus()
            .checkpointInterval(), "K = W: the paper's checkpoints");
    }
}
