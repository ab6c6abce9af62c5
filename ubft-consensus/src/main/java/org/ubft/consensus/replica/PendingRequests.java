package org.ubft.consensus.replica;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.ubft.common.crypto.Fingerprints;
import org.ubft.consensus.wire.ClientWire;
import org.ubft.consensus.wire.RequestNumbers;

/**
 * Requests this replica received directly from clients and has not executed yet: per client a ring of
 * {@code perClient} entries (request number mod perClient, which is the sequence mod perClient: see
 * {@link RequestNumbers}), sized at construction. The replica puts only numbers {@link RequestNumbers#inWindow} of the
 * client's last executed one, so an entry holds at most one request of the current session's window or of a later
 * session's first {@code perClient} (the higher number wins the entry: a later session supersedes). The leader proposes from it; a
 * follower endorses an unsigned request in a PREPARE only if it holds the same request here (paper §5.4: "a replica
 * endorses a PREPARE message for a client request only if it has also received that request directly from the
 * client"), and echoes what it holds to the leader (Echo Req), naming it by the SHA-256 of its identity (client,
 * number, payload: {@link #identityDigest}), so that the leader counts only echoes of the request it holds itself: a
 * client that sends each replica another request under one number gets no echo counted, and the leader does not
 * propose a request the followers cannot endorse (which stalled the slot until a view change).
 */
final class PendingRequests {
    private static final int DIGEST = Fingerprints.FINGERPRINT_BYTES;
    private final int perClient;
    private final int members;
    private final int slotBytes;
    private final long[] number;
    private final int[] length;
    private final long[] arrival;
    private final long[] echoes;
    /** The request number {@link #echoes} are about: it may come before the request itself (Echo Req overtaking it). */
    private final long[] echoNumber;
    private final UnsafeBuffer bytes;
    /** Per entry: the SHA-256 of the held request's identity. */
    private final UnsafeBuffer heldDigest;
    /** Per entry and member: the digest that member's echo named. */
    private final UnsafeBuffer echoDigest;
    private final Fingerprints fingerprints = new Fingerprints();

    PendingRequests(int clients, int perClient, int maxRequestBytes, int members) {
        this.perClient = perClient;
        this.members = members;
        this.slotBytes = ClientWire.HEADER_BYTES + maxRequestBytes + ClientWire.SIGNATURE_BYTES;
        int entries = clients * perClient;
        this.number = new long[entries];
        this.length = new int[entries];
        this.arrival = new long[entries];
        this.echoes = new long[entries];
        this.echoNumber = new long[entries];
        this.bytes = new UnsafeBuffer(new byte[Math.multiplyExact(entries, slotBytes)]);
        this.heldDigest = new UnsafeBuffer(new byte[Math.multiplyExact(entries, DIGEST)]);
        this.echoDigest = new UnsafeBuffer(new byte[Math.multiplyExact(Math.multiplyExact(entries, members), DIGEST)]);
    }

    int perClient() {
        return perClient;
    }

    private int index(int client, long n) {
        return client * perClient + (int) Math.floorMod(n, (long) perClient);
    }

    /**
     * Stores a request (a newer number takes the entry of an older one); a signed copy replaces an unsigned one of the
     * same identity (client, number, payload), never another.
     *
     * @return true if it is new here
     */
    boolean put(int client, long n, DirectBuffer src, int offset, int len, long now) {
        int i = index(client, n);
        boolean fresh = number[i] != n;
        if (fresh && number[i] > n) {
            return false; // an older request than the one held: it was executed or superseded
        }
        if (fresh) {
            number[i] = n;
            arrival[i] = now;
            if (echoNumber[i] != n) {
                echoNumber[i] = n;
                echoes[i] = 0;
            }
        } else if (ClientWire.signed(bytes, i * slotBytes) || !ClientWire.signed(src, offset)
            || !matches(client, n, src, offset, ClientWire.bodyLength(src, offset))) {
            // a signed copy replaces only the same request: a client that signs another payload under a number it
            // sent unsigned would otherwise take from under the leader the request it proposed, which then no replica
            // endorses (its slot waited for a view change; adversary-mixed seed 1)
            return false;
        }
        length[i] = len;
        bytes.putBytes(i * slotBytes, src, offset, len);
        if (fresh) { // a signed copy has the identity of the unsigned one it replaces
            fingerprints.fingerprint(bytes, i * slotBytes + ClientWire.IDENTITY_OFFSET,
                ClientWire.identityLength(ClientWire.bodyLength(bytes, i * slotBytes)), heldDigest, i * DIGEST);
        }
        return fresh;
    }

    /** The SHA-256 of held request {@code n}'s identity: at {@link #identityDigestOffset} of this buffer. */
    DirectBuffer identityDigest() {
        return heldDigest;
    }

    int identityDigestOffset(int client, long n) {
        return index(client, n) * DIGEST;
    }

    /** Whether request {@code n} of {@code client} is held. */
    boolean holds(int client, long n) {
        return number[index(client, n)] == n;
    }

    /**
     * The held first request of a session later than {@code after}'s, or 0: what the client executes next when its
     * current session has nothing more ({@link RequestNumbers#isNext}).
     */
    long laterSessionFirst(int client, long after) {
        long held = number[index(client, 1)];
        return RequestNumbers.sequence(held) == 1 && RequestNumbers.session(held) > RequestNumbers.session(after)
            ? held : 0;
    }

    /** Number held in entry {@code entry} (0 .. perClient - 1) of {@code client}, 0 if none ever was. */
    long numberAt(int client, int entry) {
        return number[client * perClient + entry];
    }

    /** Whether the held request {@code n} of {@code client} has the same identity as the one at {@code src}. */
    boolean matches(int client, long n, DirectBuffer src, int offset, int payloadLength) {
        int i = index(client, n);
        if (number[i] != n) {
            return false;
        }
        int at = i * slotBytes;
        int idLength = ClientWire.identityLength(payloadLength);
        if (ClientWire.bodyLength(bytes, at) != payloadLength) {
            return false;
        }
        int a = at + ClientWire.IDENTITY_OFFSET;
        int b = offset + ClientWire.IDENTITY_OFFSET;
        for (int j = 0; j < idLength; j++) {
            if (bytes.getByte(a + j) != src.getByte(b + j)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Records that {@code replica} holds request {@code n} of {@code client}, also before this replica holds it (a
     * follower's echo can overtake the client's own message to the leader; dropping it cost the leader a slow-path
     * timeout per request). The caller checks that {@code n} is in the client's window; a newer number takes the entry.
     */
    void echo(int client, long n, int replica, DirectBuffer digest, int digestOffset) {
        int i = index(client, n);
        if (echoNumber[i] != n) {
            if (echoNumber[i] > n) {
                return; // about an older request than the entry's
            }
            echoNumber[i] = n;
            echoes[i] = 0;
        }
        echoes[i] |= 1L << replica;
        echoDigest.putBytes((i * members + replica) * DIGEST, digest, digestOffset, DIGEST);
    }

    /** The members that echoed request {@code n} of {@code client} as this replica holds it (none if it holds none). */
    long echoes(int client, long n) {
        int i = index(client, n);
        if (echoNumber[i] != n || number[i] != n) {
            return 0;
        }
        long matching = 0;
        for (long m = echoes[i]; m != 0; m &= m - 1) {
            int r = Long.numberOfTrailingZeros(m);
            if (equalDigests(echoDigest, (i * members + r) * DIGEST, heldDigest, i * DIGEST)) {
                matching |= 1L << r;
            }
        }
        return matching;
    }

    private static boolean equalDigests(DirectBuffer a, int at, DirectBuffer b, int bt) {
        for (int j = 0; j < DIGEST; j += 8) {
            if (a.getLong(at + j) != b.getLong(bt + j)) {
                return false;
            }
        }
        return true;
    }

    long arrival(int client, long n) {
        return arrival[index(client, n)];
    }

    boolean signed(int client, long n) {
        return ClientWire.signed(bytes, index(client, n) * slotBytes);
    }

    int length(int client, long n) {
        return length[index(client, n)];
    }

    int offset(int client, long n) {
        return index(client, n) * slotBytes;
    }

    DirectBuffer buffer() {
        return bytes;
    }
}
