package org.ubft.sim.check;

import org.ubft.apps.kv.KvReplyCodec;
import org.ubft.sim.linearizability.CheckResult;
import org.ubft.sim.linearizability.History;
import org.ubft.sim.linearizability.KvOp;
import org.ubft.sim.linearizability.KvSpec;
import org.ubft.sim.linearizability.LinearizabilityChecker;

/**
 * Linearizability of the client-observed history of the key-value workload ({@link org.ubft.sim.SimOptions#kv()}):
 * the {@link KvOp} each request carries, the decoded {@link KvReplyCodec.Reply} of its accepted reply, checked key by
 * key ({@link KvSpec#BY_KEY}); the rules are {@link HistoryLinearizability}'s.
 */
public final class KvLinearizabilityChecker extends HistoryLinearizability<KvOp, KvReplyCodec.Reply> {
    public static final String NAME = "linearizability";

    public KvLinearizabilityChecker(Violations violations) {
        this(violations, LinearizabilityChecker.Config.defaults());
    }

    public KvLinearizabilityChecker(Violations violations, LinearizabilityChecker.Config config) {
        super(NAME, violations, config);
    }

    @Override
    KvOp invocation(byte[] body) {
        return KvOp.decode(body);
    }

    @Override
    KvReplyCodec.Reply response(byte[] body) {
        return KvReplyCodec.decode(body);
    }

    @Override
    String expectedReply() {
        return "a key-value reply";
    }

    @Override
    CheckResult<KvOp, KvReplyCodec.Reply> check(LinearizabilityChecker checker, History<KvOp, KvReplyCodec.Reply> h) {
        return checker.checkPartitioned(h, new KvSpec(), KvSpec.BY_KEY);
    }
}
