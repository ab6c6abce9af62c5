package org.ubft.common.crypto;

import com.google.crypto.tink.KeysetHandle;
import com.google.crypto.tink.PublicKeySign;
import com.google.crypto.tink.PublicKeyVerify;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.ubft.common.NodeId;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Keys read out of Tink key sets sign and verify exactly as Tink does: the raw-key extraction is right. */
class TinkInteropTest {
    private static final int NODE = NodeId.replica(1);

    @Test
    void ourSignatureVerifiesWithTinkAndTinksWithOurs() throws GeneralSecurityException, TinkKeySets.KeySetFormatException {
        KeysetHandle keySet = TinkKeySets.generate();
        TinkKeySets.RawPrivateKey raw = TinkKeySets.parsePrivate(TinkKeySets.privateJson(keySet));
        byte[] publicKey = TinkKeySets.parsePublic(TinkKeySets.publicJson(keySet));
        assertArrayEquals(publicKey, raw.publicKey);
        SigningKey ours = SigningKey.fromSeed(NODE, raw.seed);
        assertTrue(ours.matchesPublicKey(publicKey), "BC derives Tink's public key from Tink's seed");
        PublicKeys table = PublicKeys.builder().add(NODE, publicKey).build();

        PublicKeySign tinkSign = keySet.getPrimitive(TinkKeySets.configuration(), PublicKeySign.class);
        PublicKeyVerify tinkVerify = keySet.getPublicKeysetHandle()
                .getPrimitive(TinkKeySets.configuration(), PublicKeyVerify.class);

        byte[] message = "CERTIFY slot 7 view 2".getBytes(StandardCharsets.US_ASCII);
        byte[] ourSignature = new byte[64];
        ours.sign(message, 0, message.length, ourSignature, 0);
        tinkVerify.verify(ourSignature, message); // throws if not valid

        byte[] tinkSignature = tinkSign.sign(message);
        assertArrayEquals(ourSignature, tinkSignature, "Ed25519 is deterministic: same key, same signature");
        assertTrue(table.newVerifier().verify(NODE, new UnsafeBuffer(message), 0, message.length,
                new UnsafeBuffer(tinkSignature), 0));

        byte[] other = "CERTIFY slot 8 view 2".getBytes(StandardCharsets.US_ASCII);
        assertThrows(GeneralSecurityException.class, () -> tinkVerify.verify(ourSignature, other));
        assertFalse(table.verify(NODE, other, 0, other.length, tinkSignature, 0, 64));
    }
}
