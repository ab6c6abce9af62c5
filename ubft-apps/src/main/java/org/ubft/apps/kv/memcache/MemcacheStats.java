package org.ubft.apps.kv.memcache;

import org.ubft.apps.kv.store.ReplyBuffer;
import org.ubft.apps.kv.store.Store;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * {@code stats}: the store's replicated figures only (items, bytes, limits, command counters, the store's clock), so
 * that every replica answers the same. {@code stats settings|items|slabs|sizes|conns} answer an empty list; any other
 * argument is an error.
 */
final class MemcacheStats {
    private MemcacheStats() {
    }

    static void stats(List<byte[]> args, Store store, ReplyBuffer out) {
        if (args.size() > 2) {
            MemcacheCommands.line(out, "ERROR", false);
            return;
        }
        if (args.size() == 2) {
            String group = new String(args.get(1), StandardCharsets.ISO_8859_1);
            switch (group) {
                case "settings", "items", "slabs", "sizes", "conns" -> MemcacheCommands.line(out, "END", false);
                // short: clients read error lines into small buffers (memcapable: 80 bytes)
                default -> MemcacheCommands.line(out, "CLIENT_ERROR unknown stats group", false);
            }
            return;
        }
        stat(out, "pid", 0);
        stat(out, "time", store.now() / 1000);
        out.ascii("STAT version ").ascii(MemcacheCommands.VERSION).crlf();
        stat(out, "curr_items", store.size());
        stat(out, "total_items", store.counter(Store.Counter.TOTAL_ITEMS));
        stat(out, "bytes", store.usedBytes());
        stat(out, "limit_maxbytes", store.limits().maxBytes());
        stat(out, "limit_maxkeys", store.limits().maxKeys());
        stat(out, "item_size_max", store.limits().maxValueBytes());
        stat(out, "cmd_get", store.counter(Store.Counter.CMD_GET));
        stat(out, "cmd_set", store.counter(Store.Counter.CMD_SET));
        stat(out, "cmd_touch", store.counter(Store.Counter.CMD_TOUCH));
        stat(out, "get_hits", store.counter(Store.Counter.GET_HITS));
        stat(out, "get_misses", store.counter(Store.Counter.GET_MISSES));
        stat(out, "touch_hits", store.counter(Store.Counter.TOUCH_HITS));
        stat(out, "touch_misses", store.counter(Store.Counter.TOUCH_MISSES));
        stat(out, "expired_unfetched", store.counter(Store.Counter.EXPIRED));
        stat(out, "evictions", 0);
        out.ascii("END").crlf();
    }

    private static void stat(ReplyBuffer out, String name, long value) {
        out.ascii("STAT ").ascii(name).write((byte) ' ').decimal(value).crlf();
    }
}
