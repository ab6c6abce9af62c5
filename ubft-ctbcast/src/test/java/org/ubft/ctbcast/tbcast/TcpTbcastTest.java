package org.ubft.ctbcast.tbcast;

import org.ubft.fabric.FabricTestbed;
import org.ubft.fabric.tcp.TcpFabricTestbed;

/** The TBcast suite on the tcp fabric (loopback sockets, real time). */
class TcpTbcastTest extends TbcastContractTest {
    @Override
    protected FabricTestbed newTestbed() {
        return new TcpFabricTestbed();
    }

    @Override
    protected int messages() {
        return 100;
    }

    @Override
    protected long retransmitNanos() {
        return 5_000_000;
    }
}
