package org.ubft.sim.byzantine;

import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.common.crypto.Fingerprints;
import org.ubft.common.crypto.SigningKey;
import org.ubft.consensus.wire.ConsensusWire;

/**
 * Re-signs a consensus message a Byzantine replica rewrote, with its own key, where the signature is its own: a
 * CERTIFY (statement ⟨CERTIFY, view, slot, digest⟩), a CERTIFY_CHECKPOINT (⟨CHECKPOINT, seq, digest⟩) and a CRTFY_VC
 * (⟨VC, view, subject, digest(state)⟩, the subject being the state's first two bytes), as Replica's statement
 * builders lay them out. So a mutated field reaches the receiver's checks behind a valid signature instead of being
 * dropped at the signature. Other replicas' shares (in COMMIT, CHECKPOINT, CERTIFICATE) cannot be re-signed.
 */
final class OwnSignatures {
    private final SigningKey key;
    private final Fingerprints fingerprints = new Fingerprints();
    private final UnsafeBuffer statement = new UnsafeBuffer(new byte[64]);
    private final byte[] digest = new byte[ConsensusWire.DIGEST_BYTES];

    OwnSignatures(SigningKey key) {
        this.key = key;
    }

    /** Signs {@code m} (of length {@code len}) again if it carries this replica's own signature; whether it did. */
    boolean resign(UnsafeBuffer m, int len) {
        int type = ConsensusMessages.type(m, 0, len);
        int statementLength;
        int sigAt;
        switch (type) {
            case ConsensusWire.CERTIFY -> {
                sigAt = 17 + ConsensusWire.DIGEST_BYTES;
                if (len != sigAt + ConsensusWire.SIGNATURE_BYTES) {
                    return false;
                }
                statement.putByte(0, (byte) ConsensusWire.STATEMENT_CERTIFY);
                statement.putBytes(1, m, 1, 16 + ConsensusWire.DIGEST_BYTES);
                statementLength = 17 + ConsensusWire.DIGEST_BYTES;
            }
            case ConsensusWire.CERTIFY_CHECKPOINT -> {
                sigAt = 9 + ConsensusWire.DIGEST_BYTES;
                if (len != sigAt + ConsensusWire.SIGNATURE_BYTES) {
                    return false;
                }
                statement.putByte(0, (byte) ConsensusWire.STATEMENT_CHECKPOINT);
                statement.putBytes(1, m, 1, 8 + ConsensusWire.DIGEST_BYTES);
                statementLength = 9 + ConsensusWire.DIGEST_BYTES;
            }
            case ConsensusWire.CRTFY_VC -> {
                int stateLength = len < 13 ? -1 : m.getInt(9, ConsensusMessages.ORDER);
                if (stateLength < 2 || 13 + (long) stateLength + ConsensusWire.SIGNATURE_BYTES != len) {
                    return false;
                }
                sigAt = 13 + stateLength;
                fingerprints.fingerprint(m, 13, stateLength, new UnsafeBuffer(digest), 0);
                statement.putByte(0, (byte) ConsensusWire.STATEMENT_VC);
                statement.putLong(1, m.getLong(1, ConsensusMessages.ORDER), ConsensusMessages.ORDER);
                statement.putShort(9, m.getShort(13, ConsensusMessages.ORDER), ConsensusMessages.ORDER);
                statement.putBytes(11, digest);
                statementLength = 11 + ConsensusWire.DIGEST_BYTES;
            }
            default -> {
                return false;
            }
        }
        byte[] signature = new byte[ConsensusWire.SIGNATURE_BYTES];
        key.sign(statement.byteArray(), 0, statementLength, signature, 0);
        m.putBytes(sigAt, signature);
        return true;
    }
}
