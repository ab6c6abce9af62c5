package org.ubft.fabric.rdma;

/** Outcome of a work request, as a completion queue reports it (the {@code ibv_wc_status} values the fabric uses). */
public enum WorkCompletionStatus {
    /** IBV_WC_SUCCESS. */
    SUCCESS,
    /** IBV_WC_LOC_PROT_ERR / LOC_LEN_ERR: a local key, range or flag did not allow the access. */
    LOCAL_ERROR,
    /** IBV_WC_REM_ACCESS_ERR / REM_INV_REQ_ERR: the peer's NIC refused it (rkey, range, flags). No effect. */
    REMOTE_ACCESS_ERROR,
    /** IBV_WC_RETRY_EXC_ERR / RNR_RETRY_EXC_ERR: the peer did not answer (crashed, partitioned, no RECV posted). */
    RETRY_EXCEEDED,
    /** IBV_WC_WR_FLUSH_ERR: not executed, because the queue pair had entered the error state. */
    FLUSHED,
    /** Any other error status. */
    OTHER_ERROR;

    /** The status of a DiSNI/ibverbs {@code ibv_wc_status} code. */
    public static WorkCompletionStatus ofVerbsCode(int code) {
        switch (code) {
            case 0:
                return SUCCESS;
            case 1: // IBV_WC_LOC_LEN_ERR
            case 2: // IBV_WC_LOC_QP_OP_ERR
            case 4: // IBV_WC_LOC_PROT_ERR
                return LOCAL_ERROR;
            case 5:
                return FLUSHED;
            case 9: // IBV_WC_REM_INV_REQ_ERR
            case 10: // IBV_WC_REM_ACCESS_ERR
                return REMOTE_ACCESS_ERROR;
            case 12: // IBV_WC_RETRY_EXC_ERR
            case 13: // IBV_WC_RNR_RETRY_EXC_ERR
                return RETRY_EXCEEDED;
            default:
                return OTHER_ERROR;
        }
    }
}
