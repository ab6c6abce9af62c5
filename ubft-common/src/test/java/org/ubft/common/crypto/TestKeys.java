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
}
