package org.ubft.fabric.rdma.disni;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ubft.fabric.rdma.RdmaUnavailableException;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The start-up checks of the DiSNI binding, against a made-up /sys/class/infiniband. */
class DisniRequirementsTest {
    private static final InetSocketAddress ENDPOINT = new InetSocketAddress("192.168.1.10", 7000);
    private static final DisniRequirements.LibraryLoader LOADED = name -> { };
    private static final DisniRequirements.LibraryLoader MISSING = name -> {
        throw new UnsatisfiedLinkError("no " + name + " in java.library.path: /nowhere");
    };

    @TempDir
    Path sysfs;

    /** Device {@code device}, port {@code port}, GID {@code index} = {@code gid}. */
    private void gid(String device, int port, int index, String gid) throws IOException {
        Path dir = sysfs.resolve(device).resolve("ports").resolve(Integer.toString(port)).resolve("gids");
        Files.createDirectories(dir);
        Files.writeString(dir.resolve(Integer.toString(index)), gid + "\n");
    }

    private void softRoce() throws IOException {
        gid("rxe0", 1, 0, "fe80:0000:0000:0000:5054:00ff:fe12:3456");
        gid("rxe0", 1, 1, "0000:0000:0000:0000:0000:ffff:c0a8:010a"); // ::ffff:192.168.1.10
    }

    @Test
    void aMissingLibraryAndNoDeviceAreBothNamedWithTheirFixes() {
        RdmaUnavailableException e = assertThrows(RdmaUnavailableException.class,
            () -> DisniRequirements.check(MISSING, sysfs.resolve("absent"), ENDPOINT, "auto", 0, -1));
        String m = e.getMessage();
        assertTrue(m.startsWith("the rdma fabric cannot start at 192.168.1.10:7000: "), m);
        assertTrue(m.contains("DiSNI's native library (libdisni.so) cannot be loaded"), m);
        assertTrue(m.contains("-Djava.library.path=DIR"), m);
        assertTrue(m.contains("no RDMA device"), m);
        assertTrue(m.contains("rdma link add rxe0 type rxe netdev"), m);
        assertTrue(m.contains("README.md, section RDMA"), m);
    }

    @Test
    void theEndpointsAddressInAGidTableIsEnough() throws IOException {
        softRoce();
        assertDoesNotThrow(() -> DisniRequirements.check(LOADED, sysfs, ENDPOINT, "auto", 0, -1));
        assertDoesNotThrow(() -> DisniRequirements.check(LOADED, sysfs, ENDPOINT, "rxe0", 1, 1));
    }

    @Test
    void aLibraryThatLoadsStillNeedsADevice() {
        RdmaUnavailableException e = assertThrows(RdmaUnavailableException.class,
            () -> DisniRequirements.check(LOADED, sysfs, ENDPOINT, "auto", 0, -1));
        assertTrue(!e.getMessage().contains("libdisni") && e.getMessage().contains("no RDMA device"), e.getMessage());
    }

    @Test
    void aDevicePortOrGidIndexThatDoesNotMatchIsNamed() throws IOException {
        softRoce();
        String wrongDevice = DisniRequirements.deviceProblem(sysfs, ENDPOINT, "mlx5_0", 0, -1);
        assertTrue(wrongDevice.contains("no RDMA device 'mlx5_0' (fabric.rdma.device); this host has rxe0"),
            wrongDevice);
        String wrongPort = DisniRequirements.deviceProblem(sysfs, ENDPOINT, "rxe0", 2, -1);
        assertTrue(wrongPort.contains("is in no GID table of device rxe0 port 2"), wrongPort);
        String wrongIndex = DisniRequirements.deviceProblem(sysfs, ENDPOINT, "auto", 0, 0);
        assertTrue(wrongIndex.contains("at GID index 0"), wrongIndex);
        String wrongAddress = DisniRequirements.deviceProblem(sysfs, new InetSocketAddress("127.0.0.1", 7000),
            "auto", 0, -1);
        assertTrue(wrongAddress.contains("127.0.0.1 is in no GID table of the RDMA devices rxe0"), wrongAddress);
        assertTrue(wrongAddress.contains("rdma link show"), wrongAddress);
        assertNull(DisniRequirements.deviceProblem(sysfs, ENDPOINT, "rxe0", 0, -1));
    }
}
