package org.ubft.fabric.rdma.disni;

import org.ubft.fabric.rdma.RdmaUnavailableException;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;

/**
 * What the DiSNI binding needs from the host, checked before anything is opened so that a missing piece fails with
 * a message naming it and the fix: DiSNI's native library ({@code libdisni.so}, which links librdmacm and
 * libibverbs) on {@code java.library.path}; an RDMA device in {@code /sys/class/infiniband}; and the node's endpoint
 * address in the GID table of a port of the device (and the port and GID index) that the cluster file names. The
 * connection manager picks device, port and GID from the address; these keys make a mismatch fail at start.
 */
public final class DisniRequirements {
    /** Where Linux lists RDMA devices. */
    public static final Path SYSFS = Path.of("/sys/class/infiniband");
    /** Where the README tells how to get the missing pieces. */
    static final String SEE = " (README.md, section RDMA)";

    /** Loads a native library; System::loadLibrary in production. */
    @FunctionalInterface
    public interface LibraryLoader {
        void load(String name);
    }

    private DisniRequirements() {
    }

    /**
     * Checks everything and throws one exception listing every missing piece.
     *
     * @param device   {@code fabric.rdma.device}: a name, or "auto"
     * @param port     {@code fabric.rdma.port}, 0 = any
     * @param gidIndex {@code fabric.rdma.gid.index}, -1 = any
     * @throws RdmaUnavailableException naming what is missing and how to get it
     */
    public static void check(LibraryLoader loader, Path sysfs, InetSocketAddress endpoint, String device, int port,
                             int gidIndex) {
        List<String> missing = new ArrayList<>();
        try {
            loader.load("disni");
        } catch (UnsatisfiedLinkError | SecurityException e) {
            String why = e.getMessage() == null || e.getMessage().contains("java.library.path") ? ""
                : " (" + e.getMessage() + ")";
            missing.add("DiSNI's native library (libdisni.so) cannot be loaded from java.library.path ["
                + System.getProperty("java.library.path") + "]" + why + "; build it from DiSNI 2.1's sources against "
                + "rdma-core (librdmacm, libibverbs) and start the JVM with -Djava.library.path=DIR (bin/ubft: "
                + "UBFT_JAVA_OPTS=-Djava.library.path=DIR)" + SEE);
        }
        String deviceProblem = deviceProblem(sysfs, endpoint, device, port, gidIndex);
        if (deviceProblem != null) {
            missing.add(deviceProblem);
        }
        if (!missing.isEmpty()) {
            throw new RdmaUnavailableException("the rdma fabric cannot start at " + describe(endpoint) + ": "
                + String.join("; and ", missing));
        }
    }

    /** What is wrong with the devices for this endpoint and these keys, or null if a matching GID exists. */
    static String deviceProblem(Path sysfs, InetSocketAddress endpoint, String device, int port, int gidIndex) {
        List<String> devices = list(sysfs);
        if (devices.isEmpty()) {
            return "no RDMA device: " + sysfs + " is missing or empty; use a host with an RDMA NIC, or enable "
                + "soft-RoCE on one whose kernel has the rdma_rxe module: 'sudo modprobe rdma_rxe' and "
                + "'sudo rdma link add rxe0 type rxe netdev <interface>'" + SEE;
        }
        boolean anyDevice = device == null || device.equals("auto");
        if (!anyDevice && !devices.contains(device)) {
            return "no RDMA device '" + device + "' (fabric.rdma.device); this host has " + String.join(", ", devices);
        }
        byte[] wanted = gidOf(endpoint);
        if (wanted == null) {
            return "the endpoint " + describe(endpoint) + " is not an IP address this host can resolve";
        }
        String wantedHex = HexFormat.of().formatHex(wanted);
        for (String d : devices) {
            if (!anyDevice && !d.equals(device)) {
                continue;
            }
            for (String p : list(sysfs.resolve(d).resolve("ports"))) {
                if (port != 0 && !p.equals(Integer.toString(port))) {
                    continue;
                }
                for (String g : list(sysfs.resolve(d).resolve("ports").resolve(p).resolve("gids"))) {
                    if (gidIndex >= 0 && !g.equals(Integer.toString(gidIndex))) {
                        continue;
                    }
                    String gid = read(sysfs.resolve(d).resolve("ports").resolve(p).resolve("gids").resolve(g));
                    if (gid != null && gid.replace(":", "").equalsIgnoreCase(wantedHex)) {
                        return null;
                    }
                }
            }
        }
        return "the endpoint address " + endpoint.getAddress().getHostAddress() + " is in no GID table of "
            + (anyDevice ? "the RDMA devices " + String.join(", ", devices) : "device " + device)
            + (port != 0 ? " port " + port : "") + (gidIndex >= 0 ? " at GID index " + gidIndex : "")
            + ": give the node the IP address of the network interface its RDMA device is bound to "
            + "('rdma link show'), or fix fabric.rdma.device, fabric.rdma.port and fabric.rdma.gid.index" + SEE;
    }

    /** The GID an IP address has on RoCE: itself for IPv6, ::ffff:a.b.c.d for IPv4; null if unresolved. */
    static byte[] gidOf(InetSocketAddress endpoint) {
        InetAddress a = endpoint.getAddress();
        if (a == null) {
            return null;
        }
        byte[] ip = a.getAddress();
        if (ip.length == 16) {
            return ip;
        }
        byte[] gid = new byte[16];
        gid[10] = (byte) 0xFF;
        gid[11] = (byte) 0xFF;
        System.arraycopy(ip, 0, gid, 12, 4);
        return gid;
    }

    private static String describe(InetSocketAddress a) {
        return a.getHostString() + ":" + a.getPort();
    }

    private static List<String> list(Path dir) {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        } catch (IOException e) {
            return List.of();
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file).strip();
        } catch (IOException e) {
            return null;
        }
    }
}
