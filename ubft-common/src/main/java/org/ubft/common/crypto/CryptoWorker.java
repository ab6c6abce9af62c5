package org.ubft.common.crypto;

import org.agrona.concurrent.Agent;

/**
 * One worker of a {@link CryptoPool}: each duty cycle takes at most one task from every owner, round robin from a
 * moving start so that no owner is always served last, executes it and hands it back to its owner.
 */
final class CryptoWorker implements Agent {
    private final CryptoPool pool;
    private final String roleName;
    private int cursor;

    CryptoWorker(CryptoPool pool, int index) {
        this.pool = pool;
        this.roleName = "ubft-crypto-" + index;
    }

    @Override
    public int doWork() {
        PooledCryptoService[] owners = pool.owners();
        int n = owners.length;
        int work = 0;
        for (int i = 0; i < n; i++) {
            PooledCryptoService owner = owners[(cursor + i) % n];
            CryptoTask task = owner.nextTask();
            if (task != null) {
                task.execute(owner.key, owner.keys);
                owner.complete(task);
                work++;
            }
        }
        cursor = n == 0 ? 0 : (cursor + 1) % n;
        return work;
    }

    @Override
    public String roleName() {
        return roleName;
    }
}
