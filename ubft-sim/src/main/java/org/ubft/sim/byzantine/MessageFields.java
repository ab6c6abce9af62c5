package org.ubft.sim.byzantine;

import org.agrona.DirectBuffer;
import org.ubft.consensus.wire.ConsensusWire;

import java.util.ArrayList;
import java.util.List;

/**
 * Where the fields of each {@link ConsensusWire} message lie (offsets from the type byte), and what they mean: the
 * layouts of ConsensusWire's table, read byte by byte as a Byzantine replica may (it is not bound to the replica's
 * encoders). Fields after a variable part (a COMMIT's certificate after its batch) are found through the length
 * field; a field that does not fit in the message is left out. State-transfer messages (40-47) have none here.
 */
final class MessageFields {
    /** What a field holds, which decides the adversarial values {@link Mutations} draws for it. */
    enum Kind {
        VIEW(8), SLOT(8), SEQ(8), ID(8), NUMBER(8), LENGTH(4), CLIENT(4), COUNT16(2), COUNT8(1), SIGNER(2),
        DIGEST(ConsensusWire.DIGEST_BYTES);

        final int width;

        Kind(int width) {
            this.width = width;
        }
    }

    /** One field of one message: its offset from the type byte. */
    record Field(Kind kind, int offset) {
    }

    private MessageFields() {
    }

    /** The fields of the message {@code b[off, off + len)} (empty for an unknown type). */
    static List<Field> of(DirectBuffer b, int off, int len) {
        List<Field> f = new ArrayList<>(8);
        int type = ConsensusMessages.type(b, off, len);
        switch (type) {
            case ConsensusWire.PREPARE, ConsensusWire.COMMIT -> {
                add(f, len, Kind.VIEW, 1, Kind.SLOT, 9, Kind.LENGTH, 17, Kind.COUNT16, 21, Kind.NUMBER, 23);
                if (type == ConsensusWire.COMMIT && len >= 21) {
                    int at = 21 + ConsensusMessages.batchLength(b, off);
                    if (at > 21) {
                        add(f, len, Kind.COUNT8, at, Kind.SIGNER, at + 1);
                    }
                }
            }
            case ConsensusWire.COMMITS -> // its count, its first COMMIT's length and that COMMIT's first fields
                add(f, len, Kind.COUNT8, 1, Kind.LENGTH, 2, Kind.VIEW, 7, Kind.SLOT, 15, Kind.LENGTH, 23);
            case ConsensusWire.CHECKPOINT -> add(f, len, Kind.SEQ, 1, Kind.DIGEST, 9, Kind.COUNT8, 41, Kind.SIGNER, 42);
            case ConsensusWire.SEAL_VIEW, ConsensusWire.COMPLAINT -> add(f, len, Kind.VIEW, 1);
            case ConsensusWire.NEW_VIEW -> add(f, len, Kind.VIEW, 1, Kind.COUNT8, 9, Kind.LENGTH, 10);
            case ConsensusWire.WILL_CERTIFY, ConsensusWire.WILL_COMMIT -> add(f, len, Kind.VIEW, 1, Kind.SLOT, 9);
            case ConsensusWire.CERTIFY, ConsensusWire.CERTIFICATE_REQUEST ->
                add(f, len, Kind.VIEW, 1, Kind.SLOT, 9, Kind.DIGEST, 17);
            case ConsensusWire.CERTIFICATE ->
                add(f, len, Kind.VIEW, 1, Kind.SLOT, 9, Kind.DIGEST, 17, Kind.COUNT8, 49, Kind.SIGNER, 50);
            case ConsensusWire.CERTIFY_CHECKPOINT -> add(f, len, Kind.SEQ, 1, Kind.DIGEST, 9);
            case ConsensusWire.SUMMARY, ConsensusWire.CERTIFY_SUMMARY ->
                add(f, len, Kind.SIGNER, 1, Kind.ID, 3, Kind.LENGTH, 11);
            case ConsensusWire.ECHO -> add(f, len, Kind.CLIENT, 1, Kind.NUMBER, 5, Kind.DIGEST, 13);
            case ConsensusWire.CRTFY_VC -> add(f, len, Kind.VIEW, 1, Kind.LENGTH, 9, Kind.SIGNER, 13, Kind.VIEW, 15);
            case ConsensusWire.SUMMARY_REQUEST, ConsensusWire.SHARES_REQUEST -> add(f, len, Kind.ID, 1);
            case ConsensusWire.BATCH_REQUEST -> add(f, len, Kind.SLOT, 1, Kind.DIGEST, 9);
            case ConsensusWire.BATCH -> add(f, len, Kind.SLOT, 1, Kind.LENGTH, 9, Kind.COUNT16, 13, Kind.NUMBER, 15);
            default -> { }
        }
        return f;
    }

    /** Adds each (kind, offset) pair whose field fits in {@code len} bytes. */
    private static void add(List<Field> f, int len, Object... kindsAndOffsets) {
        for (int i = 0; i < kindsAndOffsets.length; i += 2) {
            Kind k = (Kind) kindsAndOffsets[i];
            int at = (Integer) kindsAndOffsets[i + 1];
            if (at >= 1 && at + k.width <= len) {
                f.add(new Field(k, at));
            }
        }
    }
}
