package org.ubft.common.crypto;

import org.agrona.DirectBuffer;

/**
 * Asynchronous signing and verification for one owner: a single agent thread that submits tasks and polls their
 * results (docs/design.md §3). Implementations: an owner of a {@link CryptoPool} (worker threads) and
 * {@link CryptoPool#synchronous} (inline, deterministic, for the simulator and tests).
 *
 * <p>Contract, for both:
 * <ul>
 *   <li>Submissions copy the message (and signature), so the caller's buffers are free again when submit returns.
 *       A correlation id chosen by the caller comes back with the result.</li>
 *   <li>Every accepted submission produces exactly one callback at a later {@link #poll}: {@code onSigned},
 *       {@code onVerified} or {@code onDropped}. Nothing is delivered inside a submit call.</li>
 *   <li>At most {@link #capacity()} tasks wait for a worker; when one more is submitted, the oldest waiting task is
 *       dropped to admit it (tail semantics: the newest work matters most), counted in {@link #droppedTasks()} and
 *       reported by {@code onDropped}.</li>
 *   <li>An owner has a fixed set of task objects ({@link #capacity()} x 2). A submission finding none free (the owner
 *       has not polled its results for that long) is refused: it returns {@code false}, has no callback and is
 *       counted in {@link #refusedSubmissions()}.</li>
 *   <li>A verification never throws on peer data: an unknown signer, a signature of the wrong length, a range
 *       outside its buffer or a message longer than {@link #maxMessageBytes()} all verify {@code false}.</li>
 * </ul>
 * Not thread-safe: only the owner thread calls these methods (the counters may be read from any thread).
 */
public interface CryptoService {
    /**
     * Submits the signing of {@code length} bytes of {@code message} from {@code offset} with the owner's key.
     *
     * @return whether it was accepted (see the class comment)
     * @throws IllegalArgumentException  if {@code length} exceeds {@link #maxMessageBytes()}
     * @throws IndexOutOfBoundsException if the range lies outside {@code message}
     * @throws IllegalStateException     if this owner has no signing key, or its pool is closed
     */
    boolean submitSign(long correlationId, DirectBuffer message, int offset, int length);

    /**
     * Submits the verification that the {@code signatureLength} bytes of {@code signature} from
     * {@code signatureOffset} are node {@code signerNodeId}'s signature of {@code length} bytes of {@code message}
     * from {@code offset}. Never throws on the values of its arguments.
     *
     * @return whether it was accepted (see the class comment)
     * @throws IllegalStateException if its pool is closed
     */
    boolean submitVerify(long correlationId, int signerNodeId, DirectBuffer message, int offset, int length,
                         DirectBuffer signature, int signatureOffset, int signatureLength);

    /**
     * Delivers up to {@code limit} results to {@code handler}, oldest drop reports first, then completed tasks.
     *
     * @return the number delivered
     */
    int poll(CryptoResultHandler handler, int limit);

    /** Tasks dropped, oldest first, to admit newer ones, since this owner was made. */
    long droppedTasks();

    /** Submissions refused because the owner had no free task, since this owner was made. */
    long refusedSubmissions();

    /** Most tasks waiting for a worker before the oldest is dropped. */
    int capacity();

    /** Longest message a task carries. */
    int maxMessageBytes();
}
