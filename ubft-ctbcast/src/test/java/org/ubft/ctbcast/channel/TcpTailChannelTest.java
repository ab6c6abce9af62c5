package org.ubft.ctbcast.channel;

import org.ubft.fabric.FabricTestbed;
import org.ubft.fabric.tcp.TcpFabricTestbed;

/** The tail-channel suite on the tcp fabric (loopback sockets, network agent per node). */
class TcpTailChannelTest extends TailChannelContractTest {
    @Override
    protected FabricTestbed newTestbed() {
        return new TcpFabricTestbed();
    }

    @Override
    protected int messages() {
        return 1_000;
    }
}
