package org.ubft.common.config;

/** The fabric implementations a cluster file can select with the key {@code fabric} (docs/design.md §4). */
public enum FabricType {
    /** Regions are memory-mapped files in {@code fabric.shm.dir}: processes on one host, one OS user. */
    SHM("shm"),
    /** The owner of a region serves READ and WRITE frames over TCP to the endpoints of the cluster file. */
    TCP("tcp"),
    /** One-sided RDMA READs and WRITEs over DiSNI verbs, to the endpoints' addresses on RDMA devices. */
    RDMA("rdma");

    private final String configName;

    FabricType(String configName) {
        this.configName = configName;
    }

    /** The value of the key {@code fabric} that selects this fabric. */
    public String configName() {
        return configName;
    }

    /** The fabric named {@code configName}, or {@code null} if none has that name. */
    public static FabricType ofConfigName(String configName) {
        for (FabricType t : values()) {
            if (t.configName.equals(configName)) {
                return t;
            }
        }
        return null;
    }

    @Override
    public String toString() {
        return configName;
    }
}
