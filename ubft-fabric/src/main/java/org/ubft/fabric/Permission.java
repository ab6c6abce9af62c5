package org.ubft.fabric;

/** Access right that the owner of a region grants one peer (docs/design.md §4). */
public enum Permission {
    NONE, READ, READ_WRITE;

    public boolean canRead() {
        return this != NONE;
    }

    public boolean canWrite() {
        return this == READ_WRITE;
    }

    /** Wire code, stable across versions. */
    public byte code() {
        return (byte) ordinal();
    }

    /** The permission of a wire code; anything unknown is {@link #NONE}. */
    public static Permission ofCode(int code) {
        return code == 1 ? READ : code == 2 ? READ_WRITE : NONE;
    }
}
