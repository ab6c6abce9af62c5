package org.ubft.consensus.replica;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The protocol steps a replica's parts feed back to each other (their {@code Host} interfaces), in one place: a part
 * never holds another part it does not read, and a reader finds here which step of which algorithm a callback takes.
 * Created before the parts (each gets it at construction) and {@link #wire wired} once they all exist; no callback
 * runs before that (they run on inputs, after the replica's constructor).
 */
final class ReplicaHooks implements GapRecovery.Host, RequestIntake.Host, ViewChange.Host, Checkpoints.Host,
    Agreement.Host, Proposer.Host {
    private int window;
    private SlotTable slots;
    private ByzantineChecks checks;
    private int self;
    private ViewChange views;
    private Checkpoints checkpoints;
    private Executor executor;
    private RequestIntake intake;
    private Agreement agreement;
    private Proposer proposer;
    private GapRecovery gaps;
    private CtbcastOutbox outbox;

    void wire(ReplicaConfig config, int self, SlotTable slots, ByzantineChecks checks, ViewChange views,
              Checkpoints checkpoints, Executor executor, RequestIntake intake, Agreement agreement, Proposer proposer,
              GapRecovery gaps, CtbcastOutbox outbox) {
        this.window = config.window();
        this.self = self;
        this.slots = slots;
        this.checks = checks;
        this.views = views;
        this.checkpoints = checkpoints;
        this.executor = executor;
        this.intake = intake;
        this.agreement = agreement;
        this.proposer = proposer;
        this.gaps = gaps;
        this.outbox = outbox;
    }

    // --- position ---

    @Override
    public long view() {
        return views.view();
    }

    @Override
    public long checkpointSeq() {
        return checkpoints.seq();
    }

    @Override
    public long nextExec() {
        return executor.nextExec();
    }

    @Override
    public long executedTime() {
        return executor.time();
    }

    @Override
    public long lastProgress() {
        return executor.lastProgress();
    }

    @Override
    public long lastRecommit() {
        return executor.lastRecommit();
    }

    @Override
    public boolean isLeader() {
        return checks.leader(views.view()) == self;
    }

    @Override
    public long fillNext() {
        return proposer.fillNext();
    }

    // --- Algorithm 2: agreement and execution ---

    @Override
    public boolean certify(long s) {
        return agreement.slowPath().certifyPaced(s);
    }

    @Override
    public void maybeCommit(long s) {
        agreement.slowPath().maybeCommit(s);
    }

    @Override
    public void acceptPrepare(long s) {
        agreement.acceptPrepare(s);
    }

    @Override
    public void prepareAccepted(int i) {
        agreement.slowPath().prepareAccepted(i);
    }

    @Override
    public void decide(long s, DirectBuffer batch, int offset, int length) {
        agreement.decide(s, batch, offset, length, false);
    }

    @Override
    public boolean needsOwnCommit(int i) {
        return agreement.slowPath().needsOwnCommit(i);
    }

    @Override
    public void reendorse() {
        agreement.reendorse();
    }

    @Override
    public void executeReady() {
        executor.executeReady(slots, checkpoints, intake);
    }

    @Override
    public void progressed() {
        executor.progressed();
    }

    // --- checkpoints (Algorithm 2, lines 43-61) ---

    @Override
    public void maybeCheckpoint(long seq, byte[] digest, DirectBuffer shares, int offset, int length, int source) {
        checkpoints.maybeCheckpoint(seq, digest, shares, offset, length, source);
    }

    /** The window moved to [seq, seq + W) (Algorithm 2, lines 59-61). */
    @Override
    public void windowMoved(long seq) {
        proposer.skipTo(seq);
        outbox.checkpointDue();
        outbox.sendDeferred(); // line 61
        // the window moved: PREPAREs and votes that arrived early for its slots count now
        gaps.expectMissing(); // and COMMITs that came early, whose certificates were not adopted (askForBatches)
        for (long s = seq; s < seq + window; s++) {
            int i = slots.claim(s);
            if (slots.slotNo[i] == s) {
                agreement.acceptPrepare(s);
                agreement.checkFastPath(s);
            }
            agreement.slowPath().checkCommits(s);
        }
        executeReady();
    }

    @Override
    public void stateRestored(long seq) {
        executor.restoredAt(seq, true);
    }

    // --- Algorithm 3: the view change ---

    @Override
    public void askedAgain(int client) {
        views.askedAgain(client);
    }

    @Override
    public void viewEntered() {
        proposer.viewEntered();
        gaps.forgetProposals();
    }

    @Override
    public void sealed() {
        outbox.sealDue();
        outbox.sendDeferred();
    }

    @Override
    public void startMustPropose(long from, long end) {
        proposer.startMustPropose(from, end);
    }

    // --- this replica's CTBcast stream (Algorithm 4, line 5) ---

    @Override
    public boolean recovering() {
        return outbox.recovering();
    }

    @Override
    public boolean canBroadcast() {
        return outbox.canBroadcast();
    }

    @Override
    public long broadcast(UnsafeBuffer message, int length) {
        return outbox.broadcast(message, length);
    }
}
