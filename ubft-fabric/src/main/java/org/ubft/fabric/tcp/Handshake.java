package org.ubft.fabric.tcp;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.bouncycastle.crypto.digests.SHA256Digest;
import org.bouncycastle.crypto.generators.HKDFBytesGenerator;
import org.bouncycastle.crypto.params.Ed25519PublicKeyParameters;
import org.bouncycastle.crypto.params.HKDFParameters;
import org.bouncycastle.crypto.params.X25519PrivateKeyParameters;
import org.bouncycastle.crypto.params.X25519PublicKeyParameters;
import org.ubft.common.NodeId;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;

/**
 * One end of the authenticated handshake of one connection: a signed ephemeral Diffie-Hellman
 * exchange in the style of SIGMA / ISO 9798-3, with both node ids in the signed transcript.
 *
 * <pre>
 * initiator (dials)                                   acceptor (owner)
 *   AUTH_HELLO(id_I, nonce_I, X25519 eph_I)  -------&gt;
 *                                            &lt;-------  AUTH_HELLO(id_A, nonce_A, X25519 eph_A)
 *                                            &lt;-------  AUTH(sig_A)
 *   AUTH(sig_I)                              -------&gt;
 *   MAC'd frames in both directions from here on
 *
 * th      = SHA-256(TRANSCRIPT_LABEL || AUTH_HELLO_I || AUTH_HELLO_A)     (whole frames: ids, nonces, keys)
 * sig_X   = Ed25519_X(SIGNATURE_LABEL || role_X || th)                   role: 'I' initiator, 'A' acceptor
 * k_I&gt;A   = HKDF-SHA256(salt = th, ikm = X25519(eph_I, eph_A), info = KEY_LABEL_I2A), 32 bytes
 * k_A&gt;I   = the same with KEY_LABEL_A2I
 * </pre>
 *
 * Each side accepts the other only if the other's signature verifies under the public key known for
 * the node id the other announced; the initiator also requires that id to be the node it dialled.
 * Fresh nonces and ephemeral keys on both sides make every transcript unique, so a signature recorded
 * from one connection is worthless on another; the role byte keeps a side's own signature from being
 * reflected back to it; the ephemeral keys give forward secrecy of the MAC keys. An all-zero X25519
 * result (a low-order point sent by the peer) fails the handshake.
 *
 * <p>Allocation happens here, once per connection; none of it is on the per-frame path. Network
 * thread only.
 */
final class Handshake {
    static final byte ROLE_INITIATOR = 'I';
    static final byte ROLE_ACCEPTOR = 'A';

    private static final byte[] TRANSCRIPT_LABEL = ascii("uBFT-J tcp fabric handshake transcript v1");
    private static final byte[] SIGNATURE_LABEL = ascii("uBFT-J tcp fabric handshake signature v1");
    private static final byte[] KEY_LABEL_I2A = ascii("uBFT-J tcp fabric MAC key initiator to acceptor v1");
    private static final byte[] KEY_LABEL_A2I = ascii("uBFT-J tcp fabric MAC key acceptor to initiator v1");

    private final Ed25519ConnectionAuthenticator keys;
    private final boolean initiator;
    private final byte[] localHello = new byte[Wire.AUTH_HELLO_LENGTH];
    private final byte[] peerHello = new byte[Wire.AUTH_HELLO_LENGTH];
    private X25519PrivateKeyParameters ephemeral;
    private Ed25519PublicKeyParameters peerKey;
    private int peerNode = -1;
    private byte[] transcriptHash;
    private byte[] sendKey;
    private byte[] receiveKey;

    /** Makes this end's nonce, ephemeral key and AUTH_HELLO. */
    Handshake(Ed25519ConnectionAuthenticator keys, boolean initiator) {
        this.keys = keys;
        this.initiator = initiator;
        byte[] nonce = new byte[Wire.NONCE_LENGTH];
        keys.random().nextBytes(nonce);
        ephemeral = new X25519PrivateKeyParameters(keys.random());
        Wire.putAuthHello(new UnsafeBuffer(localHello), 0, keys.localNode(), nonce,
            ephemeral.generatePublicKey().getEncoded());
    }

    /** Writes this end's AUTH_HELLO ({@link Wire#AUTH_HELLO_LENGTH} bytes) at {@code index}. */
    void putHello(MutableDirectBuffer buffer, int index) {
        buffer.putBytes(index, localHello);
    }

    /** True once the peer's AUTH_HELLO was taken. */
    boolean hasPeerHello() {
        return transcriptHash != null;
    }

    /** The node id the peer announced (valid after {@link #onPeerHello}). */
    int peerNode() {
        return peerNode;
    }

    /**
     * Takes the peer's AUTH_HELLO, whose format, magic, version and node id the caller checked:
     * finds the peer's public key, agrees on the shared secret and derives the session keys.
     *
     * @return null if the handshake can go on, or why the peer cannot be authenticated
     */
    String onPeerHello(DirectBuffer frame, int index) {
        frame.getBytes(index, peerHello, 0, Wire.AUTH_HELLO_LENGTH);
        peerNode = Wire.helloNodeId(frame, index);
        peerKey = keys.peerKey(peerNode);
        if (peerKey == null) {
            return "no valid public key is known for " + NodeId.toString(peerNode);
        }
        byte[] shared = new byte[X25519PrivateKeyParameters.SECRET_SIZE];
        try {
            ephemeral.generateSecret(
                new X25519PublicKeyParameters(peerHello, Wire.authHelloEphemeralKeyIndex(0)), shared, 0);
        } catch (RuntimeException e) {
            return "key agreement with " + NodeId.toString(peerNode) + " failed (low-order ephemeral key)";
        } finally {
            ephemeral = null;
        }
        MessageDigest sha256 = sha256();
        sha256.update(TRANSCRIPT_LABEL);
        sha256.update(initiator ? localHello : peerHello);
        sha256.update(initiator ? peerHello : localHello);
        transcriptHash = sha256.digest();
        byte[] initiatorToAcceptor = hkdf(shared, transcriptHash, KEY_LABEL_I2A);
        byte[] acceptorToInitiator = hkdf(shared, transcriptHash, KEY_LABEL_A2I);
        Arrays.fill(shared, (byte) 0);
        sendKey = initiator ? initiatorToAcceptor : acceptorToInitiator;
        receiveKey = initiator ? acceptorToInitiator : initiatorToAcceptor;
        return null;
    }

    /** Writes this end's AUTH ({@link Wire#AUTH_LENGTH} bytes) at {@code index}; after {@link #onPeerHello}. */
    void putAuth(MutableDirectBuffer buffer, int index) {
        Wire.putAuth(buffer, index, keys.sign(signedMessage(initiator ? ROLE_INITIATOR : ROLE_ACCEPTOR)));
    }

    /** True if the peer's AUTH frame at {@code index} carries its signature of this transcript. */
    boolean verifyAuth(DirectBuffer frame, int index) {
        byte[] signature = new byte[Wire.SIGNATURE_LENGTH];
        frame.getBytes(index + Wire.HEADER_LENGTH, signature);
        try {
            return Ed25519ConnectionAuthenticator.verify(peerKey,
                signedMessage(initiator ? ROLE_ACCEPTOR : ROLE_INITIATOR), signature);
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** The MAC of frames this end sends; after {@link #onPeerHello}. */
    FrameMac sendMac() {
        return new FrameMac(sendKey);
    }

    /** The MAC of frames this end receives; after {@link #onPeerHello}. */
    FrameMac receiveMac() {
        return new FrameMac(receiveKey);
    }

    /** Forgets the session keys (the MACs made from them keep their own copies). */
    void destroy() {
        ephemeral = null;
        if (sendKey != null) {
            Arrays.fill(sendKey, (byte) 0);
            Arrays.fill(receiveKey, (byte) 0);
        }
    }

    private byte[] signedMessage(byte role) {
        byte[] message = new byte[SIGNATURE_LABEL.length + 1 + transcriptHash.length];
        System.arraycopy(SIGNATURE_LABEL, 0, message, 0, SIGNATURE_LABEL.length);
        message[SIGNATURE_LABEL.length] = role;
        System.arraycopy(transcriptHash, 0, message, SIGNATURE_LABEL.length + 1, transcriptHash.length);
        return message;
    }

    private static byte[] hkdf(byte[] secret, byte[] salt, byte[] info) {
        HKDFBytesGenerator generator = new HKDFBytesGenerator(new SHA256Digest());
        generator.init(new HKDFParameters(secret, salt, info));
        byte[] key = new byte[FrameMac.KEY_LENGTH];
        generator.generateBytes(key, 0, key.length);
        return key;
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
