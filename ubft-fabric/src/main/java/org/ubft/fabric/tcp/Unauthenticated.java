package org.ubft.fabric.tcp;

/** {@link ConnectionAuthenticator#unauthenticated()}: peers' announced node ids are trusted as they are. */
final class Unauthenticated implements ConnectionAuthenticator {
    static final Unauthenticated INSTANCE = new Unauthenticated();

    private Unauthenticated() {
    }

    @Override
    public boolean authenticates() {
        return false;
    }

    @Override
    public String toString() {
        return "unauthenticated";
    }
}
