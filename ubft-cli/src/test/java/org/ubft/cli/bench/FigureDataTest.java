package org.ubft.cli.bench;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A figure's files from its data, without a cluster: CSV quoting, JSON nulls, and each kind of plot. */
class FigureDataTest {
    @Test
    void writesCsvJsonAndAPngOfEachKind(@TempDir Path dir) throws IOException {
        System.setProperty("java.awt.headless", "true");
        for (FigureData.Kind kind : FigureData.Kind.values()) {
            String name = "k-" + kind.name().toLowerCase();
            FigureData d = new FigureData(name, "A title", kind, "x", "y", "mode", "bytes", "p50_us", "note");
            d.row("fast", 32, 12.25, "refused: a, b").row("slow", 64, Double.NaN, "");
            if (kind == FigureData.Kind.LINE) {
                d.logX().logY().point("a", 32, 10).point("a", 8192, 1000).point("b", 32, 0); // 0: not on a log axis
            } else {
                d.point("a", "fast", 10).point("a", "slow", 20).point("b", "fast", 1).point("b", "slow", 2);
            }
            d.writeTo(dir);
            assertEquals("mode,bytes,p50_us,note\nfast,32,12.3,\"refused: a, b\"\nslow,64,,\n",
                Files.readString(dir.resolve(name + ".csv")));
            JsonObject json = JsonParser.parseString(Files.readString(dir.resolve(name + ".json"))).getAsJsonObject();
            assertTrue(json.getAsJsonArray("rows").get(1).getAsJsonObject().get("p50_us").isJsonNull());
            assertEquals(2, json.getAsJsonArray("series").size());
            assertNotNull(ImageIO.read(dir.resolve(name + ".png").toFile()), name);
        }
    }

    @Test
    void aRowOfTheWrongWidthIsRefused() {
        FigureData d = new FigureData("f", "t", FigureData.Kind.BARS, "x", "y", "a", "b");
        assertThrows(IllegalArgumentException.class, () -> d.row(1));
    }
}
