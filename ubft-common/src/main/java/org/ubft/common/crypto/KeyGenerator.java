package org.ubft.common.crypto;

import com.google.crypto.tink.KeysetHandle;
import org.ubft.common.NodeId;
import org.ubft.common.config.ClusterConfig;
import org.ubft.common.config.ConfigException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Creates the key pairs of a cluster ({@code ubft keygen}): one Ed25519 key pair per replica and client, generated
 * by Tink (template {@value TinkKeySets#TEMPLATE}), laid out as {@link KeyFiles} says. Private key files are
 * <b>cleartext</b> Tink JSON key sets, created with permissions 0600 and protected by those permissions only;
 * public key files get 0644. A new {@code keys.dir} is created with 0700.
 *
 * <p>Existing keys are never replaced unless asked ({@code force}): replacing them invalidates every signature
 * and every copy of the old public keys. Each file is written to a temporary file and renamed into place, so a
 * crash leaves either the old file or the new one, never half of one.
 */
public final class KeyGenerator {
    private static final Set<PosixFilePermission> PRIVATE_FILE = PosixFilePermissions.fromString("rw-------");
    private static final Set<PosixFilePermission> PUBLIC_FILE = PosixFilePermissions.fromString("rw-r--r--");
    private static final Set<PosixFilePermission> KEYS_DIR = PosixFilePermissions.fromString("rwx------");

    private KeyGenerator() {
    }

    /**
     * Generates and writes a key pair for every replica and client of {@code config}.
     *
     * @param force replace keys that already exist
     * @return the files written, private and public key of each node in turn
     * @throws ConfigException if keys exist and {@code force} is false, or a file cannot be written; the message
     *                         names the file or directory and what to do
     */
    public static List<Path> generate(ClusterConfig config, boolean force) {
        Path keysDir = config.keysDir();
        int[] nodes = KeyFiles.keyedNodes(config);
        if (!force) {
            refuseExisting(config, keysDir, nodes);
        }
        createDirectories(keysDir);
        List<Path> written = new ArrayList<>();
        for (int node : nodes) {
            KeysetHandle keySet = TinkKeySets.generate();
            Path privateFile = KeyFiles.privateKeyFile(keysDir, node);
            Path publicFile = KeyFiles.publicKeyFile(keysDir, node);
            write(node, privateFile, TinkKeySets.privateJson(keySet), PRIVATE_FILE);
            write(node, publicFile, TinkKeySets.publicJson(keySet), PUBLIC_FILE);
            written.add(privateFile);
            written.add(publicFile);
        }
        return written;
    }

    private static void refuseExisting(ClusterConfig config, Path keysDir, int[] nodes) {
        List<String> existing = new ArrayList<>();
        for (int node : nodes) {
            for (Path file : new Path[] {KeyFiles.privateKeyFile(keysDir, node), KeyFiles.publicKeyFile(keysDir, node)}) {
                if (Files.exists(file)) {
                    existing.add(keysDir.relativize(file).toString());
                }
            }
        }
        if (!existing.isEmpty()) {
            String some = String.join(", ", existing.subList(0, Math.min(3, existing.size())))
                    + (existing.size() > 3 ? " and " + (existing.size() - 3) + " more" : "");
            throw new ConfigException(keysDir.toString(), "keys of cluster '" + config.clusterName()
                    + "' already exist (" + some + "); nothing was written. Keep them, or replace every key pair with `"
                    + KeyFiles.keygenCommand(config) + " --force` (processes holding the old keys must then be given"
                    + " the new ones and restarted)");
        }
    }

    private static void createDirectories(Path keysDir) {
        try {
            if (!Files.isDirectory(keysDir)) {
                Path parent = keysDir.toAbsolutePath().getParent();
                if (parent != null) {
                    Files.createDirectories(parent);
                }
                Files.createDirectory(keysDir, posix(KEYS_DIR));
                Files.setPosixFilePermissions(keysDir, KEYS_DIR); // the umask may have removed bits we want
            }
            Files.createDirectories(keysDir.resolve(KeyFiles.PUBLIC_DIR));
        } catch (FileAlreadyExistsException e) {
            throw new ConfigException(e.getFile(), "exists and is not a directory; keys.dir must name a directory"
                    + " (move the file away or set keys.dir in the cluster file to another path)");
        } catch (IOException | UnsupportedOperationException e) {
            throw new ConfigException(keysDir.toString(), "cannot create the key directory (" + e
                    + "); make its parent writable or set keys.dir in the cluster file to a directory you can write");
        }
    }

    private static void write(int node, Path file, String json, Set<PosixFilePermission> permissions) {
        Path tmp = null;
        try {
            tmp = Files.createTempFile(file.getParent(), "." + file.getFileName(), ".tmp", posix(permissions));
            Files.setPosixFilePermissions(tmp, permissions);
            Files.write(tmp, json.getBytes(StandardCharsets.UTF_8));
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            tmp = null;
        } catch (UnsupportedOperationException e) {
            throw new ConfigException(file.toString(), "the file system does not support POSIX permissions, which"
                    + " protect the private keys; set keys.dir in the cluster file to a directory on a POSIX file system");
        } catch (IOException e) {
            throw new ConfigException(file.toString(), "cannot write the key of " + NodeId.toString(node) + " (" + e
                    + "); make " + file.getParent() + " writable or set keys.dir in the cluster file to another directory");
        } finally {
            if (tmp != null) {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException ignored) {
                    // best effort: the temporary file holds nothing the real files do not
                }
            }
        }
    }

    private static FileAttribute<Set<PosixFilePermission>> posix(Set<PosixFilePermission> permissions) {
        return PosixFilePermissions.asFileAttribute(permissions);
    }
}
