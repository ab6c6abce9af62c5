package org.ubft.fabric.tcp;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.ubft.common.NodeId;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The authenticated handshake between two ends in memory, without sockets. */
class HandshakeTest {
    private static final int CLIENT = NodeId.replica(0);
    private static final int OWNER = NodeId.memnode(0);
    private static final int OTHER = NodeId.replica(1);

    private final TestKeys keys = new TestKeys();
    private final Ed25519ConnectionAuthenticator client = keys.authenticator(CLIENT);
    private final Ed25519ConnectionAuthenticator owner = keys.authenticator(OWNER);
    private final Ed25519ConnectionAuthenticator other = keys.authenticator(OTHER);

    private static UnsafeBuffer hello(Handshake h) {
        UnsafeBuffer b = new UnsafeBuffer(new byte[Wire.AUTH_HELLO_LENGTH]);
        h.putHello(b, 0);
        return b;
    }

    private static UnsafeBuffer auth(Handshake h) {
        UnsafeBuffer b = new UnsafeBuffer(new byte[Wire.AUTH_LENGTH]);
        h.putAuth(b, 0);
        return b;
    }

    /** A MAC'd frame from one end opens at the other. */
    private static boolean macsMatch(FrameMac sealer, FrameMac opener) {
        UnsafeBuffer frame = new UnsafeBuffer(new byte[32 + FrameMac.TAG_LENGTH]);
        frame.putLong(0, 42);
        sealer.seal(frame, 0, 32);
        return opener.open(frame, 0, 32);
    }

    @Test
    void twoKnownNodesAgreeOnPerDirectionKeys() {
        Handshake i = new Handshake(client, true);
        Handshake a = new Handshake(owner, false);
        assertNull(a.onPeerHello(hello(i), 0));
        assertNull(i.onPeerHello(hello(a), 0));
        assertEquals(CLIENT, a.peerNode());
        assertEquals(OWNER, i.peerNode());
        assertTrue(i.verifyAuth(auth(a), 0));
        assertTrue(a.verifyAuth(auth(i), 0));
        assertTrue(macsMatch(i.sendMac(), a.receiveMac()));
        assertTrue(macsMatch(a.sendMac(), i.receiveMac()));
        assertFalse(macsMatch(i.sendMac(), i.receiveMac()), "the two directions have different keys");
    }

    @Test
    void everyHandshakeIsFresh() {
        Handshake i1 = new Handshake(client, true);
        Handshake i2 = new Handshake(client, true);
        assertFalse(java.util.Arrays.equals(hello(i1).byteArray(), hello(i2).byteArray()), "nonce and key are new");
    }

    @Test
    void aSignatureFromAnotherConnectionIsRefused() {
        Handshake i = new Handshake(client, true);
        Handshake a1 = new Handshake(owner, false);
        assertNull(a1.onPeerHello(hello(i), 0));
        assertNull(i.onPeerHello(hello(a1), 0));
        UnsafeBuffer recorded = auth(i);
        assertTrue(a1.verifyAuth(recorded, 0));
        // The same client hello and AUTH replayed to the owner on a new connection: new owner nonce and key.
        Handshake a2 = new Handshake(owner, false);
        assertNull(a2.onPeerHello(hello(i), 0));
        assertFalse(a2.verifyAuth(recorded, 0));
    }

    @Test
    void aSignatureByAnotherKeyOrReflectedIsRefused() {
        // An impostor claims CLIENT's id but signs with OTHER's key.
        Ed25519ConnectionAuthenticator impostor = new Ed25519ConnectionAuthenticator(CLIENT, keys.privateKey(OTHER),
            n -> n == CLIENT ? null : keys.publicKey(n));
        Handshake i = new Handshake(impostor, true);
        Handshake a = new Handshake(owner, false);
        assertNull(a.onPeerHello(hello(i), 0));
        assertNull(i.onPeerHello(hello(a), 0));
        assertFalse(a.verifyAuth(auth(i), 0), "signed with a key that is not CLIENT's");
        // The owner's own AUTH sent back to it (role 'A', the owner's key) is not the client's.
        assertFalse(a.verifyAuth(auth(a), 0), "reflected");
    }

    @Test
    void anAlteredHelloBreaksTheSignatures() {
        Handshake i = new Handshake(client, true);
        Handshake a = new Handshake(owner, false);
        UnsafeBuffer clientHello = hello(i);
        assertNull(a.onPeerHello(clientHello, 0));
        UnsafeBuffer ownerHello = hello(a);
        ownerHello.putByte(Wire.HELLO_LENGTH + 5, (byte) (ownerHello.getByte(Wire.HELLO_LENGTH + 5) ^ 1)); // nonce
        assertNull(i.onPeerHello(ownerHello, 0));
        assertFalse(i.verifyAuth(auth(a), 0), "the ends saw different transcripts");
    }

    @Test
    void unknownNodesAndLowOrderKeysAreRefused() {
        Ed25519ConnectionAuthenticator stranger =
            new Ed25519ConnectionAuthenticator(NodeId.replica(9), TestKeys.newPrivateKey(), n -> null);
        Handshake a = new Handshake(owner, false);
        assertNotNull(a.onPeerHello(hello(new Handshake(stranger, true)), 0), "no key is known for replica-9");

        UnsafeBuffer lowOrder = hello(new Handshake(client, true));
        lowOrder.setMemory(Wire.authHelloEphemeralKeyIndex(0), Wire.EPHEMERAL_KEY_LENGTH, (byte) 0);
        assertNotNull(new Handshake(owner, false).onPeerHello(lowOrder, 0), "an all-zero shared secret");
    }

    @Test
    void theAuthenticatorChecksItsKeys() {
        assertThrows(IllegalArgumentException.class,
            () -> new Ed25519ConnectionAuthenticator(CLIENT, new byte[31], keys::publicKey));
        assertThrows(IllegalArgumentException.class,
            () -> new Ed25519ConnectionAuthenticator(CLIENT, keys.privateKey(OTHER), keys::publicKey),
            "the private key of another node than the one the key book says");
        assertThrows(IllegalArgumentException.class,
            () -> new Ed25519ConnectionAuthenticator(0, keys.privateKey(CLIENT), keys::publicKey));
        assertArrayEquals(keys.publicKey(CLIENT), client.publicKey());
        assertThrows(IllegalArgumentException.class,
            () -> TcpOptions.builder(OWNER).authenticator(client).build(), "the key of another node");
        assertTrue(TcpOptions.builder(CLIENT).authenticator(client).build().authenticator().authenticates());
        assertFalse(TcpOptions.builder(CLIENT).build().authenticator().authenticates(), "unauthenticated by default");
    }
}
