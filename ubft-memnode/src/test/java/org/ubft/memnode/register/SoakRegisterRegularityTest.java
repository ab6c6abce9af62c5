package org.ubft.memnode.register;

import org.junit.jupiter.api.Tag;

import java.util.stream.LongStream;

/**
 * Soak (mvn -Psoak test): regularity under torn writes, jitter and 5% lost operations, over 300 seeds of
 * 2,000 writes each. A failing seed is named in the assertion message and replays exactly.
 */
@Tag("soak")
class SoakRegisterRegularityTest extends SimLossyRegisterRegularityTest {
    @Override
    protected long[] seeds() {
        return LongStream.rangeClosed(1_000, 1_299).toArray();
    }

    @Override
    protected int writesPerRun() {
        return 2_000;
    }
}
