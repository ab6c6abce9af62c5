package org.ubft.fabric;

/**
 * Lets several components share one {@link Fabric}'s completion stream. Each component owns a tag; it
 * posts its operations with work-request ids made by {@link #compose(int, long)} (tag in the high
 * {@value #TAG_BITS} bits, the component's own sequence in the low {@value #SEQUENCE_BITS}), and
 * {@link #poll(int)} hands every completion to the handler registered for the id's tag.
 *
 * <p>Contract: a completion whose tag has no handler is dropped and counted ({@link #unrouted()}); it
 * never throws. Registration happens at set-up (it allocates nothing, but the table is bounded by the
 * capacity given at construction); polling allocates nothing. Single-threaded, like the fabric.
 */
public final class CompletionRouter implements CompletionHandler {
    public static final int TAG_BITS = 16;
    public static final int SEQUENCE_BITS = Long.SIZE - TAG_BITS;
    public static final int MAX_TAG = (1 << TAG_BITS) - 1;
    public static final long SEQUENCE_MASK = (1L << SEQUENCE_BITS) - 1;

    private final Fabric fabric;
    private final int[] tags;
    private final CompletionHandler[] handlers;
    private int registered;
    private long unrouted;

    /**
     * @param capacity most components that may register
     */
    public CompletionRouter(Fabric fabric, int capacity) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("capacity must be positive, got " + capacity);
        }
        this.fabric = fabric;
        this.tags = new int[capacity];
        this.handlers = new CompletionHandler[capacity];
    }

    /** A work-request id carrying {@code tag} and the low {@value #SEQUENCE_BITS} bits of {@code sequence}. */
    public static long compose(int tag, long sequence) {
        checkTag(tag);
        return ((long) tag << SEQUENCE_BITS) | (sequence & SEQUENCE_MASK);
    }

    public static int tagOf(long workRequestId) {
        return (int) (workRequestId >>> SEQUENCE_BITS);
    }

    public static long sequenceOf(long workRequestId) {
        return workRequestId & SEQUENCE_MASK;
    }

    /**
     * Routes completions tagged {@code tag} to {@code handler}.
     *
     * @throws IllegalArgumentException if the tag is out of range or taken, or the table is full
     */
    public void register(int tag, CompletionHandler handler) {
        checkTag(tag);
        if (handler == null) {
            throw new IllegalArgumentException("null handler for tag " + tag);
        }
        if (indexOf(tag) >= 0) {
            throw new IllegalArgumentException("tag " + tag + " is already registered");
        }
        if (registered == tags.length) {
            throw new IllegalArgumentException("router is full (" + tags.length + " components)");
        }
        tags[registered] = tag;
        handlers[registered] = handler;
        registered++;
    }

    /**
     * Polls the fabric for at most {@code limit} completions and dispatches each by its tag.
     *
     * @return how many completions were taken from the fabric (routed or not)
     */
    public int poll(int limit) {
        return fabric.poll(this, limit);
    }

    /** Dispatches one completion; public so that an owner polling the fabric itself can route through it. */
    @Override
    public void onCompletion(long workRequestId, Status status) {
        int i = indexOf(tagOf(workRequestId));
        if (i < 0) {
            unrouted++;
            return;
        }
        handlers[i].onCompletion(workRequestId, status);
    }

    /** Completions whose tag had no handler. */
    public long unrouted() {
        return unrouted;
    }

    public Fabric fabric() {
        return fabric;
    }

    private int indexOf(int tag) {
        // A handful of components share a fabric: a linear scan beats hashing here.
        for (int i = 0; i < registered; i++) {
            if (tags[i] == tag) {
                return i;
            }
        }
        return -1;
    }

    private static void checkTag(int tag) {
        if (tag < 0 || tag > MAX_TAG) {
            throw new IllegalArgumentException("tag " + tag + " outside 0.." + MAX_TAG);
        }
    }
}
