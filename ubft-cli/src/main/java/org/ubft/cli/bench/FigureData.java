package org.ubft.cli.bench;

import com.google.gson.GsonBuilder;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What one figure of {@code ubft bench} measured: a table (one row per measurement, written as {@code NAME.csv} and
 * as the {@code rows} of {@code NAME.json}) and the series its plot draws ({@code NAME.png}, and the {@code series}
 * of {@code NAME.json}: name, x values, y values).
 */
public final class FigureData {
    /** How the plot draws the series. */
    public enum Kind {
        /** Numeric x, one line per series. */
        LINE,
        /** Categories on x, side-by-side bars per series. */
        BARS,
        /** Categories on x, the series stacked in one bar. */
        STACKED
    }

    /** One plotted series: x (numbers for {@link Kind#LINE}, category labels otherwise) and y. */
    public record Series(String name, List<Object> x, List<Double> y) {
    }

    private final String name;
    private final String title;
    private final String xLabel;
    private final String yLabel;
    private final Kind kind;
    private boolean logX;
    private boolean logY;
    private final List<String> columns;
    private final List<List<Object>> rows = new ArrayList<>();
    private final Map<String, Series> series = new LinkedHashMap<>();
    private final List<String> notes = new ArrayList<>();
    private double seconds;

    public FigureData(String name, String title, Kind kind, String xLabel, String yLabel, String... columns) {
        this.name = name;
        this.title = title;
        this.kind = kind;
        this.xLabel = xLabel;
        this.yLabel = yLabel;
        this.columns = List.of(columns);
    }

    /** Plots x (LINE) on a logarithmic axis, where the values span two powers of ten or more. */
    public FigureData logX() {
        logX = true;
        return this;
    }

    /** Plots y (LINE) on a logarithmic axis, where the values span two powers of ten or more. */
    public FigureData logY() {
        logY = true;
        return this;
    }

    /** Adds a table row, one value per column. */
    public FigureData row(Object... values) {
        if (values.length != columns.size()) {
            throw new IllegalArgumentException(name + ": a row of " + values.length + " values for " + columns.size()
                + " columns " + columns);
        }
        rows.add(List.of(values));
        return this;
    }

    /** Adds point (x, y) to series {@code seriesName} (created at its first point, plotted in that order). */
    public FigureData point(String seriesName, Object x, double y) {
        Series s = series.computeIfAbsent(seriesName, n -> new Series(n, new ArrayList<>(), new ArrayList<>()));
        s.x().add(x);
        s.y().add(y);
        return this;
    }

    /** A sentence for the report under the plot (how it was measured, what to keep in mind). */
    public FigureData note(String text) {
        notes.add(text);
        return this;
    }

    void seconds(double s) {
        seconds = s;
    }

    public String name() {
        return name;
    }

    public String title() {
        return title;
    }

    public String xLabel() {
        return xLabel;
    }

    public String yLabel() {
        return yLabel;
    }

    public Kind kind() {
        return kind;
    }

    public boolean isLogX() {
        return logX;
    }

    public boolean isLogY() {
        return logY;
    }

    public List<String> columns() {
        return columns;
    }

    public List<List<Object>> rows() {
        return rows;
    }

    public List<Series> series() {
        return List.copyOf(series.values());
    }

    public List<String> notes() {
        return notes;
    }

    public double seconds() {
        return seconds;
    }

    /** Writes {@code NAME.csv}, {@code NAME.json} and {@code NAME.png} into {@code dir}. */
    public void writeTo(Path dir) {
        try {
            Files.createDirectories(dir);
            Files.writeString(dir.resolve(name + ".csv"), csv(), StandardCharsets.UTF_8);
            Files.writeString(dir.resolve(name + ".json"), json(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + name + " into " + dir + ": " + e.getMessage(), e);
        }
        Plots.writePng(this, dir.resolve(name + ".png"));
    }

    String csv() {
        StringBuilder sb = new StringBuilder(String.join(",", columns)).append('\n');
        for (List<Object> row : rows) {
            for (int i = 0; i < row.size(); i++) {
                sb.append(i == 0 ? "" : ",").append(csvCell(row.get(i)));
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    private static String csvCell(Object v) {
        String s = format(v);
        return s.contains(",") || s.contains("\"") ? "\"" + s.replace("\"", "\"\"") + "\"" : s;
    }

    /** A cell as the report and the CSV print it: decimals with at most 1 digit after the point (3 below 10). */
    static String format(Object v) {
        if (v instanceof Double d) {
            if (d.isNaN()) {
                return "";
            }
            return Math.abs(d) < 10 ? String.format(Locale.ROOT, "%.3f", d) : String.format(Locale.ROOT, "%.1f", d);
        }
        return String.valueOf(v);
    }

    String json() {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("figure", name);
        root.put("title", title);
        root.put("x_label", xLabel);
        root.put("y_label", yLabel);
        root.put("seconds", seconds);
        root.put("columns", columns);
        List<Map<String, Object>> objects = new ArrayList<>();
        for (List<Object> row : rows) {
            Map<String, Object> o = new LinkedHashMap<>();
            for (int i = 0; i < columns.size(); i++) {
                Object v = row.get(i);
                o.put(columns.get(i), v instanceof Double d && d.isNaN() ? null : v);
            }
            objects.add(o);
        }
        root.put("rows", objects);
        root.put("series", series.values().stream().map(s -> Map.of("name", s.name(), "x", s.x(), "y", s.y()))
            .toList());
        root.put("notes", notes);
        return new GsonBuilder().setPrettyPrinting().serializeNulls().create().toJson(root) + "\n";
    }
}
