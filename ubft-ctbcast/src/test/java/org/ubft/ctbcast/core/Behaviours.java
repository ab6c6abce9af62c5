package org.ubft.ctbcast.core;

import org.ubft.common.crypto.Fingerprints;
import java.util.function.Consumer;

/**
 * The Byzantine behaviours of the CTBcast tests. Each is a small immutable object; "the broadcaster" below is
 * the Byzantine replica itself, broadcasting on its own stream through its (correct) core, whose messages the
 * behaviour rewrites.
 */
final class Behaviours {
    private Behaviours() {
    }

    private static boolean ownStream(Adversary a, byte[] message) {
        return Adversary.stream(message) == a.me;
    }

    /** Broadcaster: a different m in the LOCK to each receiver; no SIGNED. */
    record FastPathEquivocation() implements Behaviour {
        @Override
        public String name() {
            return "fast-path equivocation";
        }

        @Override
        public void outbound(Adversary a, int to, byte[] message, Consumer<byte[]> send) {
            if (!ownStream(a, message)) {
                send.accept(message);
            } else if (Adversary.type(message) == CtbcastMessage.LOCK) {
                send.accept(a.lock(a.me, Adversary.k(message), Adversary.variant(Adversary.payload(message), to)));
            }
        }
    }

    /**
     * Broadcaster: LOCK(k, m) to everyone, then a second LOCK(k, m') with m' != m to {@code target}; no SIGNED.
     * A receiver that locked m must not lock m' (line 14), nor send a second LOCKED (Observation 2).
     */
    record DoubleLock(int target) implements Behaviour {
        @Override
        public String name() {
            return "second LOCK for the same k to replica " + target;
        }

        @Override
        public void outbound(Adversary a, int to, byte[] message, Consumer<byte[]> send) {
            if (!ownStream(a, message)) {
                send.accept(message);
            } else if (Adversary.type(message) == CtbcastMessage.LOCK) {
                send.accept(message);
                if (to == target) {
                    a.inject(to, a.lock(a.me, Adversary.k(message), Adversary.variant(Adversary.payload(message), 5)),
                        1_000);
                }
            }
        }
    }

    /** Broadcaster: no LOCK; a different, validly signed m in the SIGNED to each receiver. */
    record SlowPathEquivocation() implements Behaviour {
        @Override
        public String name() {
            return "slow-path equivocation";
        }

        @Override
        public void outbound(Adversary a, int to, byte[] message, Consumer<byte[]> send) {
            if (!ownStream(a, message)) {
                send.accept(message);
            } else if (Adversary.type(message) == CtbcastMessage.SIGNED) {
                send.accept(a.signed(Adversary.k(message), Adversary.variant(Adversary.payload(message), to)));
            }
        }

        @Override
        public byte[] registerWrite(Adversary a, int broadcaster, int slot, long k, byte[] value) {
            return null;
        }
    }

    /**
     * Broadcaster: LOCK(k, m) to everyone, and a validly signed SIGNED(k, m') with m' != m to {@code target}
     * only (across both paths).
     */
    record CrossPathEquivocation(int target) implements Behaviour {
        @Override
        public String name() {
            return "cross-path equivocation to replica " + target;
        }

        @Override
        public void outbound(Adversary a, int to, byte[] message, Consumer<byte[]> send) {
            if (!ownStream(a, message) || Adversary.type(message) == CtbcastMessage.LOCK) {
                send.accept(message);
            } else if (Adversary.type(message) == CtbcastMessage.SIGNED && to == target) {
                send.accept(a.signed(Adversary.k(message), Adversary.variant(Adversary.payload(message), 7)));
            }
        }

        @Override
        public byte[] registerWrite(Adversary a, int broadcaster, int slot, long k, byte[] value) {
            return null;
        }
    }

    /**
     * Broadcaster: no LOCK; to {@code target} a SIGNED(k, m1) with a bogus signature, to the others a validly
     * signed SIGNED(k, m2).
     */
    record BogusSignedEquivocation(int target) implements Behaviour {
        @Override
        public String name() {
            return "bogus-signature equivocation to replica " + target;
        }

        @Override
        public void outbound(Adversary a, int to, byte[] message, Consumer<byte[]> send) {
            if (!ownStream(a, message)) {
                send.accept(message);
            } else if (Adversary.type(message) == CtbcastMessage.SIGNED) {
                long k = Adversary.k(message);
                byte[] m = Adversary.payload(message);
                send.accept(to == target
                    ? a.signedWith(a.me, k, Adversary.variant(m, 1), a.randomBytes(SignedStatement.SIGNATURE_BYTES))
                    : a.signed(k, Adversary.variant(m, 2)));
            }
        }

        @Override
        public byte[] registerWrite(Adversary a, int broadcaster, int slot, long k, byte[] value) {
            return null;
        }
    }

    /**
     * Broadcaster: no LOCK; SIGNED(k, m) at once to {@code early}, and a validly signed SIGNED(k, m') with
     * m' != m to {@code late}, {@code lateNanos} later, when {@code early} has moved its register for k mod t
     * on to a newer k (line 35's case).
     */
    record TailOverrunEquivocation(int early, int late, long lateNanos) implements Behaviour {
        @Override
        public String name() {
            return "equivocation across the tail";
        }

        @Override
        public void outbound(Adversary a, int to, byte[] message, Consumer<byte[]> send) {
            if (!ownStream(a, message)) {
                send.accept(message);
            } else if (Adversary.type(message) == CtbcastMessage.SIGNED) {
                if (to == early) {
                    send.accept(message);
                } else if (to == late) {
                    a.inject(late, a.signed(Adversary.k(message), Adversary.variant(Adversary.payload(message), 3)),
                        lateNanos);
                }
            }
        }

        @Override
        public byte[] registerWrite(Adversary a, int broadcaster, int slot, long k, byte[] value) {
            return null;
        }
    }

    /**
     * Receiver: its LOCKED name a payload it never got, and it sends LOCKED for the next k before anyone
     * broadcast it.
     */
    record ForgedLocked() implements Behaviour {
        @Override
        public String name() {
            return "forged LOCKED";
        }

        @Override
        public void outbound(Adversary a, int to, byte[] message, Consumer<byte[]> send) {
            if (Adversary.type(message) != CtbcastMessage.LOCKED) {
                send.accept(message);
                return;
            }
            int stream = Adversary.stream(message);
            long k = Adversary.k(message);
            send.accept(a.locked(stream, k, a.randomBytes(1 + a.random().nextInt(a.config.maxMessageBytes()))));
            send.accept(a.locked(stream, k + 1, a.randomBytes(a.random().nextInt(a.config.maxMessageBytes() + 1))));
        }
    }

    /**
     * Receiver: forged LOCKED as {@link ForgedLocked}; SIGNED in the broadcaster's name with a bogus signature;
     * and, as soon as it locks k, a register value for k (and one for k + t) with another fingerprint and a
     * bogus signature, so that correct receivers' slow paths find them.
     */
    record BogusSignatures() implements Behaviour {
        @Override
        public String name() {
            return "bogus signatures";
        }

        @Override
        public void outbound(Adversary a, int to, byte[] message, Consumer<byte[]> send) {
            if (Adversary.type(message) != CtbcastMessage.LOCKED) {
                send.accept(message);
                return;
            }
            int stream = Adversary.stream(message);
            long k = Adversary.k(message);
            send.accept(a.locked(stream, k, a.randomBytes(1 + a.random().nextInt(a.config.maxMessageBytes()))));
            send.accept(a.signedWith(stream, k, a.randomBytes(8), a.randomBytes(SignedStatement.SIGNATURE_BYTES)));
            long forged = a.random().nextBoolean() ? k : k + a.config.t();
            a.writeRegister(stream, forged, bogusValue(a, forged));
        }

        @Override
        public byte[] registerWrite(Adversary a, int broadcaster, int slot, long k, byte[] value) {
            return bogusValue(a, k);
        }

        private static byte[] bogusValue(Adversary a, long k) {
            return Adversary.registerValue(k, a.randomBytes(Fingerprints.FINGERPRINT_BYTES),
                a.randomBytes(SignedStatement.SIGNATURE_BYTES));
        }
    }

    /**
     * Receiver: impersonates the broadcaster. When it locks (p, k) it sends, to everyone, LOCK(p, k + 1, x)
     * for an x p never broadcast, its own LOCKED(p, k + 1, x), and SIGNED(p, k + 1, x) with a bogus signature.
     */
    record ImpersonateBroadcaster() implements Behaviour {
        @Override
        public String name() {
            return "impersonates the broadcaster";
        }

        @Override
        public void outbound(Adversary a, int to, byte[] message, Consumer<byte[]> send) {
            send.accept(message);
            if (Adversary.type(message) != CtbcastMessage.LOCKED || to != (a.me + 1) % a.config.n()) {
                return; // once per LOCKED
            }
            int p = Adversary.stream(message);
            long k = Adversary.k(message) + 1;
            byte[] x = a.randomBytes(a.random().nextInt(a.config.maxMessageBytes() + 1));
            a.injectToAll(a.lock(p, k, x), 0);
            a.injectToAll(a.locked(p, k, x), 0);
            a.injectToAll(a.signedWith(p, k, x, a.randomBytes(SignedStatement.SIGNATURE_BYTES)), 0);
        }
    }

    /** Sends nothing and writes nothing (a crashed replica, as far as the others can tell). */
    record Silent() implements Behaviour {
        @Override
        public String name() {
            return "silent";
        }

        @Override
        public void outbound(Adversary a, int to, byte[] message, Consumer<byte[]> send) {
        }

        @Override
        public byte[] registerWrite(Adversary a, int broadcaster, int slot, long k, byte[] value) {
            return null;
        }
    }
}
