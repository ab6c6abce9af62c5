package org.ubft.common.crypto;

import org.agrona.DirectBuffer;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/** A {@link CryptoResultHandler} that records every callback as a line: "S id hex", "V id true", "D id". */
class ResultLog implements CryptoResultHandler {
    final List<String> lines = new ArrayList<>();

    @Override
    public void onSigned(long correlationId, DirectBuffer signature, int offset) {
        byte[] bytes = new byte[Ed25519Signer.SIGNATURE_BYTES];
        signature.getBytes(offset, bytes);
        lines.add("S " + correlationId + " " + HexFormat.of().formatHex(bytes));
    }

    @Override
    public void onVerified(long correlationId, boolean valid) {
        lines.add("V " + correlationId + " " + valid);
    }

    @Override
    public void onDropped(long correlationId) {
        lines.add("D " + correlationId);
    }

    static String signed(long id, byte[] signature) {
        return "S " + id + " " + HexFormat.of().formatHex(signature);
    }
}
