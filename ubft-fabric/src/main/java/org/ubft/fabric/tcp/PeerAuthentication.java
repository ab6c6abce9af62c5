package org.ubft.fabric.tcp;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.ubft.common.NodeId;

/**
 * The tcp fabric's authenticated handshake ({@link Handshake}: a signed X25519 key agreement between two nodes'
 * Ed25519 keys) for another transport that carries its two messages, AUTH_HELLO and AUTH, itself: the rdma fabric
 * runs it over SEND/RECV on a new queue pair before it hands the peer any rights. Messages are the tcp wire's
 * frames; every one is checked (length, header, magic, version, the node id expected) before it is used, and a
 * check that fails is a refusal with its reason, never an exception. Not thread-safe; allocation once per
 * connection.
 *
 * <pre>
 * initiator: putHello → (peer's hello) onPeerHello → (peer's auth) verifyAuth → putAuth
 * acceptor:  (peer's hello) onPeerHello → putHello, putAuth → (peer's auth) verifyAuth
 * </pre>
 */
public final class PeerAuthentication {
    /** Bytes of an AUTH_HELLO message. */
    public static final int HELLO_LENGTH = Wire.AUTH_HELLO_LENGTH;
    /** Bytes of an AUTH message. */
    public static final int AUTH_LENGTH = Wire.AUTH_LENGTH;

    private final Handshake handshake;

    /** One end of a handshake with the node's keys; {@code initiator} for the end that opened the connection. */
    public PeerAuthentication(Ed25519ConnectionAuthenticator keys, boolean initiator) {
        this.handshake = new Handshake(keys, initiator);
    }

    /** Writes this end's AUTH_HELLO ({@link #HELLO_LENGTH} bytes) at {@code index}. */
    public void putHello(MutableDirectBuffer buffer, int index) {
        handshake.putHello(buffer, index);
    }

    /**
     * Takes the peer's AUTH_HELLO of {@code length} bytes at {@code index}.
     *
     * @param expectedNode the node the initiator dialled, or -1 on the acceptor (any node with a known key)
     * @return null if the handshake goes on, or why the peer is refused
     */
    public String onPeerHello(DirectBuffer message, int index, int length, int expectedNode) {
        if (length != HELLO_LENGTH || Wire.frameLength(message, index) != HELLO_LENGTH
            || Wire.checkHeader(message, index, 1 << Wire.AUTH_HELLO, HELLO_LENGTH, 0) != Wire.FRAME_OK) {
            return "malformed AUTH_HELLO (" + length + " bytes)";
        }
        if (Wire.helloMagic(message, index) != Wire.MAGIC || Wire.helloVersion(message, index) != Wire.VERSION) {
            return "bad magic or version in AUTH_HELLO";
        }
        int announced = Wire.helloNodeId(message, index);
        if (!NodeId.isValid(announced)) {
            return "AUTH_HELLO names no valid node id (" + announced + ")";
        }
        if (expectedNode >= 0 && announced != expectedNode) {
            return "dialled " + NodeId.toString(expectedNode) + " but " + NodeId.toString(announced) + " answered";
        }
        return handshake.onPeerHello(message, index);
    }

    /** The node the peer announced; valid once {@link #onPeerHello} accepted its hello. */
    public int peerNode() {
        return handshake.peerNode();
    }

    /** Writes this end's AUTH ({@link #AUTH_LENGTH} bytes) at {@code index}; after {@link #onPeerHello}. */
    public void putAuth(MutableDirectBuffer buffer, int index) {
        handshake.putAuth(buffer, index);
    }

    /** True if the {@code length} bytes at {@code index} are the peer's AUTH, signed over this transcript. */
    public boolean verifyAuth(DirectBuffer message, int index, int length) {
        if (!handshake.hasPeerHello() || length != AUTH_LENGTH || Wire.frameLength(message, index) != AUTH_LENGTH
            || Wire.checkHeader(message, index, 1 << Wire.AUTH, AUTH_LENGTH, 0) != Wire.FRAME_OK) {
            return false;
        }
        return handshake.verifyAuth(message, index);
    }

    /** Forgets the session secrets. */
    public void destroy() {
        handshake.destroy();
    }
}
