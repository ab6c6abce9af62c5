package org.ubft.ctbcast.core;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * What was broadcast and delivered in a test cluster, and checks of the four CTBcast properties (paper §4.1)
 * over it. Only correct replicas are checked, as the properties say.
 */
final class DeliveryLog {
    record Delivery(int replica, int broadcaster, long k, byte[] message) {
    }

    private final int n;
    private final int t;
    private final List<Delivery> deliveries = new ArrayList<>();
    /** Per broadcaster: k -> m, for what its core was asked to broadcast. */
    private final List<Map<Long, byte[]>> broadcasts = new ArrayList<>();
    private final long[] lastK;

    DeliveryLog(int n, int t) {
        this.n = n;
        this.t = t;
        this.lastK = new long[n];
        for (int p = 0; p < n; p++) {
            broadcasts.add(new HashMap<>());
        }
    }

    DeliverHandler handler(int replica) {
        return (k, message, offset, length, broadcaster) -> {
            byte[] m = new byte[length];
            message.getBytes(offset, m, 0, length);
            deliveries.add(new Delivery(replica, broadcaster, k, m));
        };
    }

    void broadcast(int broadcaster, long k, byte[] m) {
        broadcasts.get(broadcaster).put(k, m.clone());
        lastK[broadcaster] = Math.max(lastK[broadcaster], k);
    }

    List<Delivery> deliveries() {
        return deliveries;
    }

    long lastK(int broadcaster) {
        return lastK[broadcaster];
    }

    boolean delivered(int replica, int broadcaster, long k) {
        for (Delivery d : deliveries) {
            if (d.replica == replica && d.broadcaster == broadcaster && d.k == k) {
                return true;
            }
        }
        return false;
    }

    int deliveredCount(int replica, int broadcaster) {
        int c = 0;
        for (Delivery d : deliveries) {
            if (d.replica == replica && d.broadcaster == broadcaster) {
                c++;
            }
        }
        return c;
    }

    /** Agreement: correct replicas that deliver (k, *) from r deliver the same m. */
    List<String> agreementViolations(boolean[] correct) {
        List<String> violations = new ArrayList<>();
        Map<String, Delivery> first = new HashMap<>();
        for (Delivery d : deliveries) {
            if (!correct[d.replica]) {
                continue;
            }
            String key = d.broadcaster + "/" + d.k;
            Delivery other = first.putIfAbsent(key, d);
            if (other != null && !Arrays.equals(other.message, d.message)) {
                violations.add("agreement: replica " + other.replica + " and replica " + d.replica
                    + " delivered different messages for k=" + d.k + " from " + d.broadcaster);
            }
        }
        return violations;
    }

    /** Integrity: what a correct replica delivers from a correct broadcaster, the broadcaster broadcast. */
    List<String> integrityViolations(boolean[] correct) {
        List<String> violations = new ArrayList<>();
        for (Delivery d : deliveries) {
            if (!correct[d.replica] || !correct[d.broadcaster]) {
                continue;
            }
            byte[] m = broadcasts.get(d.broadcaster).get(d.k);
            if (m == null || !Arrays.equals(m, d.message)) {
                violations.add("integrity: replica " + d.replica + " delivered k=" + d.k + " from " + d.broadcaster
                    + (m == null ? ", never broadcast" : ", not the message broadcast"));
            }
        }
        return violations;
    }

    /** No duplication: no correct replica delivers (k, *) from p twice. */
    List<String> duplicationViolations(boolean[] correct) {
        List<String> violations = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (Delivery d : deliveries) {
            if (correct[d.replica] && !seen.add(d.replica + "/" + d.broadcaster + "/" + d.k)) {
                violations.add("no duplication: replica " + d.replica + " delivered k=" + d.k + " from "
                    + d.broadcaster + " twice");
            }
        }
        return violations;
    }

    /**
     * Tail-validity, at the end of a run: every correct replica delivered each of the last t messages of every
     * correct broadcaster (the broadcaster never went t beyond them).
     */
    List<String> tailValidityViolations(boolean[] correct) {
        List<String> violations = new ArrayList<>();
        for (int p = 0; p < n; p++) {
            if (!correct[p]) {
                continue;
            }
            for (long k = Math.max(1, lastK[p] - t + 1); k <= lastK[p]; k++) {
                for (int r = 0; r < n; r++) {
                    if (correct[r] && !delivered(r, p, k)) {
                        violations.add("tail-validity: replica " + r + " did not deliver k=" + k + " of " + p
                            + " (last k " + lastK[p] + ", t " + t + ")");
                    }
                }
            }
        }
        return violations;
    }

    /** Agreement, integrity and no duplication; fails naming every violated property. */
    void checkSafety(boolean[] correct) {
        check(correct, false);
    }

    /** The four properties; fails naming every violated property. */
    void checkAll(boolean[] correct) {
        check(correct, true);
    }

    private void check(boolean[] correct, boolean tailValidity) {
        List<List<String>> all = new ArrayList<>();
        all.add(agreementViolations(correct));
        all.add(integrityViolations(correct));
        all.add(duplicationViolations(correct));
        if (tailValidity) {
            all.add(tailValidityViolations(correct));
        }
        StringBuilder properties = new StringBuilder();
        StringBuilder examples = new StringBuilder();
        for (List<String> v : all) {
            if (!v.isEmpty()) {
                String property = v.get(0).substring(0, v.get(0).indexOf(':'));
                properties.append(properties.length() == 0 ? "" : ", ").append(property);
                examples.append("\n  ").append(v.get(0)).append(" (").append(v.size()).append(" in all)");
            }
        }
        if (properties.length() > 0) {
            fail("violated: " + properties + examples);
        }
    }
}
