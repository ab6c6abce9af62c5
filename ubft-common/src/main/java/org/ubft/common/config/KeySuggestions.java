package org.ubft.common.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Finds the known key an unknown key was probably meant to be, for "did you mean" advice. */
final class KeySuggestions {
    private KeySuggestions() {
    }

    /**
     * The known key closest to {@code unknown} within a small edit distance (case ignored; a swap of two
     * neighbouring letters counts as one edit), or {@code null}. Endpoint keys are candidates with the
     * digits that end {@code unknown}, so {@code replicas.0} suggests {@code replica.0}.
     */
    static String closest(String unknown) {
        String lower = unknown.toLowerCase(Locale.ROOT);
        int limit = lower.length() <= 4 ? 1 : 2;
        String best = null;
        int bestDistance = limit + 1;
        for (String candidate : candidates(lower)) {
            int d = distance(lower, candidate);
            if (d < bestDistance) {
                best = candidate;
                bestDistance = d;
            }
        }
        return best;
    }

    private static List<String> candidates(String unknown) {
        List<String> candidates = new ArrayList<>();
        for (ConfigKey k : ConfigKey.values()) {
            candidates.add(k.key());
        }
        int end = unknown.length();
        int start = end;
        while (start > 0 && Character.isDigit(unknown.charAt(start - 1))) {
            start--;
        }
        if (start < end) {
            String digits = unknown.substring(start, end);
            for (EndpointRole r : EndpointRole.values()) {
                candidates.add(r.prefix + "." + digits);
            }
        }
        return candidates;
    }

    /** Optimal-string-alignment distance: insertions, deletions, substitutions and adjacent swaps. */
    static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                int v = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    v = Math.min(v, d[i - 2][j - 2] + 1);
                }
                d[i][j] = v;
            }
        }
        return d[a.length()][b.length()];
    }
}
