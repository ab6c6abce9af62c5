package org.ubft.consensus.wire;

/**
 * Message types between replicas (paper Algorithms 2-4), little-endian, first byte = type. Shares are
 * {@code (u16 signer, 64-byte Ed25519 signature)}; digests are SHA-256 (32 bytes); a batch is
 * {@code u16 count} followed by count {@link ClientWire} REQUESTs.
 *
 * <pre>
 * via CTBcast (FIFO per broadcaster):
 *   PREPARE      1  i64 view, i64 slot, i32 batch length, batch
 *   COMMIT       2  i64 view, i64 slot, i32 batch length, batch, u8 k, k shares of CERTIFY(view, slot, digest(batch))
 *   CHECKPOINT   3  i64 seq, digest(state), u8 k, k shares of CHECKPOINT(seq, digest)
 *   SEAL_VIEW    4  i64 view
 *   NEW_VIEW     5  i64 view, u8 c, c certificates (i32 state length, state, u8 k, k shares of VC(view, q, digest(state)))
 *   COMMITS      6  u8 c (1..{@link #MAX_BUNDLED_COMMITS}), c times (i32 length, a COMMIT message of that length):
 *                   several COMMITs under one CTBcast identifier, delivered as if broadcast one after another
 * via TBcast:
 *   WILL_CERTIFY 10 i64 view, i64 slot
 *   WILL_COMMIT  11 i64 view, i64 slot
 *   CERTIFY      12 i64 view, i64 slot, digest(batch), signature
 *   CERTIFY_CHECKPOINT 13 i64 seq, digest(state), signature
 * point to point:
 *   ECHO         20 i32 client, i64 number, digest      (follower to leader: "I have this request": the SHA-256
 *                                                        of its identity, client, number and payload)
 *   CRTFY_VC     21 i64 view, i32 state length, state, signature   (to the leader of view)
 *   CERTIFY_SUMMARY 22 u16 p, i64 id, i32 state length, state, signature   (to broadcaster p)
 *   SUMMARY      14 u16 p, i64 id, i32 state length, state, u8 k, k shares of SUMMARY(p, id, digest(state))
 *                                                      (from p to a replica that asked for it)
 *   SUMMARY_REQUEST 23 i64 id                          (to p: "your latest summary, if it covers id")
 *   SHARES_REQUEST  24 i64 id                          (from p: "certify my state at id", when blocked or asked)
 *   BATCH_REQUEST   25 i64 slot, digest                (a batch known only by digest, from a summary)
 *   BATCH           26 i64 slot, i32 batch length, batch
 *   COMPLAINT       27 i64 view                        (to all: "I suspect leader(view)")
 *   CERTIFICATE_REQUEST 28 i64 view, i64 slot, digest  (a COMMIT known only by digest, from a summary)
 *   CERTIFICATE     29 i64 view, i64 slot, digest, u8 k, k shares of CERTIFY(view, slot, digest)
 *   40..47       state transfer ({@code org.ubft.consensus.transfer})
 * </pre>
 */
public final class ConsensusWire {
    public static final int PREPARE = 1;
    public static final int COMMIT = 2;
    public static final int CHECKPOINT = 3;
    public static final int SEAL_VIEW = 4;
    public static final int NEW_VIEW = 5;
    public static final int COMMITS = 6;
    public static final int WILL_CERTIFY = 10;
    public static final int WILL_COMMIT = 11;
    public static final int CERTIFY = 12;
    public static final int CERTIFY_CHECKPOINT = 13;
    public static final int SUMMARY = 14;
    public static final int ECHO = 20;
    public static final int CRTFY_VC = 21;
    public static final int CERTIFY_SUMMARY = 22;
    public static final int SUMMARY_REQUEST = 23;
    public static final int SHARES_REQUEST = 24;
    public static final int BATCH_REQUEST = 25;
    public static final int BATCH = 26;
    /** ⟨COMPLAINT, view⟩: the sender suspects leader(view) ({@code Complaints}). */
    public static final int COMPLAINT = 27;
    /** ⟨CERTIFICATE_REQUEST, view, slot, digest⟩: "send me f+1 CERTIFY shares of this", answered by CERTIFICATE. */
    public static final int CERTIFICATE_REQUEST = 28;
    public static final int CERTIFICATE = 29;
    public static final int TRANSFER_MIN = 40;
    public static final int TRANSFER_MAX = 47;

    /** Statement tags: what a signature is about. */
    public static final int STATEMENT_CERTIFY = 1;
    public static final int STATEMENT_CHECKPOINT = 2;
    public static final int STATEMENT_VC = 3;
    public static final int STATEMENT_SUMMARY = 4;

    /**
     * Most COMMITs one COMMITS message carries: bounds what one CTBcast identifier of a Byzantine broadcaster costs a
     * receiver (each COMMIT's certificate may need its shares verified) to this many COMMITs' worth.
     */
    public static final int MAX_BUNDLED_COMMITS = 16;

    public static final int DIGEST_BYTES = 32;
    public static final int SIGNATURE_BYTES = 64;
    public static final int SHARE_BYTES = 2 + SIGNATURE_BYTES;

    private ConsensusWire() {
    }
}
