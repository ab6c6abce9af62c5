package org.ubft.common.crypto;

import org.ubft.common.NodeId;
import org.ubft.common.config.ClusterConfig;
import org.ubft.common.config.ConfigException;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Reads one key file of a node and returns its raw key, or throws a {@link ConfigException} whose source is the
 * file and whose message names the node, the problem and the fix.
 */
final class KeyFileReader {
    /** A key file is a few hundred bytes; anything this large is not one (and is not read into memory). */
    static final long MAX_FILE_BYTES = 64 * 1024;

    private final ClusterConfig config;

    KeyFileReader(ClusterConfig config) {
        this.config = config;
    }

    /** The public key of {@code nodeId} from its public key file. */
    byte[] readPublic(int nodeId) {
        Path file = KeyFiles.publicKeyFile(config.keysDir(), nodeId);
        String json = read(file, "public key of " + NodeId.toString(nodeId),
                "or copy the " + KeyFiles.PUBLIC_DIR + "/ directory from where keygen ran");
        try {
            return TinkKeySets.parsePublic(json);
        } catch (TinkKeySets.KeySetFormatException e) {
            throw malformed(file, "public key file of " + NodeId.toString(nodeId), e);
        }
    }

    /** The private key of {@code nodeId} from its private key file, which must be accessible by its owner only. */
    TinkKeySets.RawPrivateKey readPrivate(int nodeId) {
        Path file = KeyFiles.privateKeyFile(config.keysDir(), nodeId);
        String json = read(file, "private key of " + NodeId.toString(nodeId),
                "or copy " + NodeId.toString(nodeId) + "'s private key file here from where keygen ran");
        checkOwnerOnly(file, nodeId);
        try {
            return TinkKeySets.parsePrivate(json);
        } catch (TinkKeySets.KeySetFormatException e) {
            throw malformed(file, "private key file of " + NodeId.toString(nodeId), e);
        }
    }

    private String read(Path file, String what, String orCopy) {
        try {
            if (Files.size(file) > MAX_FILE_BYTES) {
                throw new ConfigException(file.toString(), "the " + what + " is not a key file (larger than "
                        + MAX_FILE_BYTES + " bytes); " + regenerate());
            }
            return StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(Files.readAllBytes(file))).toString();
        } catch (NoSuchFileException e) {
            throw new ConfigException(file.toString(), "the " + what + " is missing; create the cluster's keys with `"
                    + KeyFiles.keygenCommand(config) + "` (" + orCopy + ")");
        } catch (AccessDeniedException e) {
            throw new ConfigException(file.toString(), "the " + what + " cannot be read: permission denied; run this"
                    + " process as the user owning the file, or give that user read access (chmod 600 for a private key)");
        } catch (CharacterCodingException e) {
            throw new ConfigException(file.toString(), "the " + what + " is not a Tink JSON key set (not UTF-8 text); "
                    + regenerate());
        } catch (IOException e) {
            throw new ConfigException(file.toString(), "the " + what + " cannot be read (" + e + "); check the file, or "
                    + regenerate(), e);
        }
    }

    private void checkOwnerOnly(Path file, int nodeId) {
        Set<PosixFilePermission> permissions;
        try {
            permissions = Files.getPosixFilePermissions(file);
        } catch (UnsupportedOperationException | IOException e) {
            return; // not a POSIX file system: nothing to check
        }
        for (PosixFilePermission p : permissions) {
            if (p.name().startsWith("GROUP") || p.name().startsWith("OTHERS")) {
                throw new ConfigException(file.toString(), "the private key of " + NodeId.toString(nodeId)
                        + " is accessible by other users (permissions " + PosixFilePermissions.toString(permissions)
                        + "); it is cleartext, protected by its permissions only: run `chmod 600 " + file + "`");
            }
        }
    }

    private ConfigException malformed(Path file, String what, TinkKeySets.KeySetFormatException e) {
        return new ConfigException(file.toString(), "the " + what + " " + e.getMessage() + "; restore the file written by"
                + " keygen, or " + regenerate());
    }

    /** The advice to create all keys anew. */
    String regenerate() {
        return "create new keys for every node with `" + KeyFiles.keygenCommand(config) + " --force` and give every"
                + " node its new files";
    }
}
