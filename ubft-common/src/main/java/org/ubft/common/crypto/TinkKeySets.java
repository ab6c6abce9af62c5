package org.ubft.common.crypto;

import com.google.crypto.tink.Configuration;
import com.google.crypto.tink.InsecureSecretKeyAccess;
import com.google.crypto.tink.Key;
import com.google.crypto.tink.KeyTemplates;
import com.google.crypto.tink.KeysetHandle;
import com.google.crypto.tink.RegistryConfiguration;
import com.google.crypto.tink.TinkJsonProtoKeysetFormat;
import com.google.crypto.tink.signature.Ed25519Parameters;
import com.google.crypto.tink.signature.Ed25519PrivateKey;
import com.google.crypto.tink.signature.Ed25519PublicKey;
import com.google.crypto.tink.signature.SignatureConfig;

import java.security.GeneralSecurityException;

/**
 * Tink key sets as the key files hold them: one Ed25519 key with raw output (template {@value #TEMPLATE}, so
 * signatures are plain RFC 8032 and Bouncy Castle makes and checks the same ones), serialized as Tink JSON; and the
 * raw key bytes read out of them. Private key sets are serialized in cleartext.
 */
final class TinkKeySets {
    /** The Tink key template of every key pair. */
    static final String TEMPLATE = "ED25519_RAW";

    private static final Configuration CONFIGURATION = registerSignatureKeyTypes();

    private TinkKeySets() {
    }

    private static Configuration registerSignatureKeyTypes() {
        try {
            SignatureConfig.register();
            return RegistryConfiguration.get();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot register Tink's signature key types", e);
        }
    }

    /** The Tink configuration the key sets are read and written with (signature key types registered). */
    static Configuration configuration() {
        return CONFIGURATION;
    }

    /** A new key set with one fresh Ed25519 key pair. */
    static KeysetHandle generate() {
        try {
            return KeysetHandle.generateNew(KeyTemplates.get(TEMPLATE).toParameters(), CONFIGURATION);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Tink cannot generate an " + TEMPLATE + " key", e);
        }
    }

    /** The cleartext JSON of {@code privateKeySet}, secret included. */
    static String privateJson(KeysetHandle privateKeySet) {
        try {
            return TinkJsonProtoKeysetFormat.serializeKeyset(privateKeySet, CONFIGURATION, InsecureSecretKeyAccess.get());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Tink cannot serialize a key set", e);
        }
    }

    /** The JSON of the public half of {@code privateKeySet}. */
    static String publicJson(KeysetHandle privateKeySet) {
        try {
            return TinkJsonProtoKeysetFormat.serializeKeysetWithoutSecret(privateKeySet.getPublicKeysetHandle(),
                    CONFIGURATION);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Tink cannot serialize a public key set", e);
        }
    }

    /** Raw bytes of an Ed25519 private key: the RFC 8032 seed and the public key stored with it. */
    static final class RawPrivateKey {
        final byte[] seed;
        final byte[] publicKey;

        RawPrivateKey(byte[] seed, byte[] publicKey) {
            this.seed = seed;
            this.publicKey = publicKey;
        }
    }

    /**
     * The raw private key in the key set {@code json}.
     *
     * @throws KeySetFormatException if it is not a Tink JSON key set of exactly one Ed25519 private key with raw
     *                               output; the message says what it is instead
     */
    static RawPrivateKey parsePrivate(String json) throws KeySetFormatException {
        Key key = singleKey(json);
        if (key instanceof Ed25519PublicKey) {
            throw new KeySetFormatException("holds a public key where the private key belongs");
        }
        if (!(key instanceof Ed25519PrivateKey)) {
            throw wrongType(key);
        }
        Ed25519PrivateKey ed = (Ed25519PrivateKey) key;
        checkRaw(ed.getParameters());
        return new RawPrivateKey(ed.getPrivateKeyBytes().toByteArray(InsecureSecretKeyAccess.get()),
                ed.getPublicKey().getPublicKeyBytes().toByteArray());
    }

    /**
     * The raw public key in the key set {@code json}.
     *
     * @throws KeySetFormatException if it is not a Tink JSON key set of exactly one Ed25519 public key with raw
     *                               output (a private key is refused: it does not belong in a public file)
     */
    static byte[] parsePublic(String json) throws KeySetFormatException {
        Key key = singleKey(json);
        if (key instanceof Ed25519PrivateKey) {
            throw new KeySetFormatException("holds a private key where only the public key belongs"
                    + " (delete this file: the private key leaks through it)");
        }
        if (!(key instanceof Ed25519PublicKey)) {
            throw wrongType(key);
        }
        Ed25519PublicKey ed = (Ed25519PublicKey) key;
        checkRaw(ed.getParameters());
        return ed.getPublicKeyBytes().toByteArray();
    }

    private static Key singleKey(String json) throws KeySetFormatException {
        KeysetHandle handle;
        try {
            // Secret access lets a private key in a public file be recognised and named, instead of a parse error.
            handle = TinkJsonProtoKeysetFormat.parseKeyset(json, CONFIGURATION, InsecureSecretKeyAccess.get());
        } catch (GeneralSecurityException | RuntimeException e) {
            throw new KeySetFormatException("is not a Tink JSON key set (" + e.getMessage() + ")");
        }
        if (handle.size() != 1) {
            throw new KeySetFormatException("holds " + handle.size() + " keys; a key file holds exactly one");
        }
        return handle.getPrimary().getKey();
    }

    private static void checkRaw(Ed25519Parameters parameters) throws KeySetFormatException {
        if (parameters.getVariant() != Ed25519Parameters.Variant.NO_PREFIX) {
            throw new KeySetFormatException("holds an Ed25519 key with Tink output prefix " + parameters.getVariant()
                    + "; keys must be of Tink template " + TEMPLATE + " (plain RFC 8032 signatures)");
        }
    }

    private static KeySetFormatException wrongType(Key key) {
        return new KeySetFormatException("holds a key of type " + key.getClass().getSimpleName()
                + "; keys must be Ed25519, of Tink template " + TEMPLATE);
    }

    /** A key set that is not what a key file must hold; the message completes "<file> ...". */
    static final class KeySetFormatException extends Exception {
        private static final long serialVersionUID = 1L;

        KeySetFormatException(String message) {
            super(message);
        }
    }
}
