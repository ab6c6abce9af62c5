package org.ubft.common.crypto;

/** Deterministic keys for tests: the seed of node {@code n} is derived from {@code n}. */
final class TestKeys {
    private TestKeys() {
    }

    static SigningKey key(int nodeId) {
        byte[] seed = new byte[SigningKey.SEED_BYTES];
        for (int i = 0; i < seed.length; i++) {
            seed[i] = (byte) (nodeId * 31 + i * 7 + (nodeId >>> 16));
        }
        return SigningKey.fromSeed(nodeId, seed);
    }

    /** {@link #key} of each node, in the order given. */
    static SigningKey[] keys(int... nodeIds) {
        SigningKey[] keys = new SigningKey[nodeIds.length];
        for (int i = 0; i < nodeIds.length; i++) {
            keys[i] = key(nodeIds[i]);
        }
        return keys;
    }

    /** The public keys of {@code keys}, each under its node id. */
    static PublicKeys publicKeys(SigningKey... keys) {
        PublicKeys.Builder b = PublicKeys.builder();
        for (SigningKey k : keys) {
            b.add(k.nodeId(), k.publicKey());
        }
        return b.build();
    }
}
