package org.ubft.sim;

import java.util.ArrayList;
import java.util.List;

/** Forwards every event to its listeners, in the order they were added. */
public final class EventHub implements SimEvents {
    private final List<SimEvents> listeners = new ArrayList<>();

    public EventHub add(SimEvents listener) {
        listeners.add(listener);
        return this;
    }

    @Override
    public void submitted(long time, int client, long seq, long number, byte[] payload) {
        for (SimEvents l : listeners) {
            l.submitted(time, client, seq, number, payload);
        }
    }

    @Override
    public void sent(long time, int client, long seq, long number, int replica, byte[] payload) {
        for (SimEvents l : listeners) {
            l.sent(time, client, seq, number, replica, payload);
        }
    }

    @Override
    public void replicatedTime(long time, int replica, long position, long millis) {
        for (SimEvents l : listeners) {
            l.replicatedTime(time, replica, position, millis);
        }
    }

    @Override
    public void executed(long time, int replica, long position, byte[] payload) {
        for (SimEvents l : listeners) {
            l.executed(time, replica, position, payload);
        }
    }

    @Override
    public void restored(long time, int replica, long position) {
        for (SimEvents l : listeners) {
            l.restored(time, replica, position);
        }
    }

    @Override
    public void accepted(long time, int client, long seq, long number, byte[] reply) {
        for (SimEvents l : listeners) {
            l.accepted(time, client, seq, number, reply);
        }
    }

    @Override
    public void fault(long time, String node, String what) {
        for (SimEvents l : listeners) {
            l.fault(time, node, what);
        }
    }

    @Override
    public void view(long time, int replica, long view) {
        for (SimEvents l : listeners) {
            l.view(time, replica, view);
        }
    }

    @Override
    public void checkpoint(long time, int replica, long seq) {
        for (SimEvents l : listeners) {
            l.checkpoint(time, replica, seq);
        }
    }

    @Override
    public void tick(long time) {
        for (SimEvents l : listeners) {
            l.tick(time);
        }
    }

    @Override
    public void failed(long time, int replica, RuntimeException error) {
        for (SimEvents l : listeners) {
            l.failed(time, replica, error);
        }
    }
}
