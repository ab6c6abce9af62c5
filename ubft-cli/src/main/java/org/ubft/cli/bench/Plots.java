package org.ubft.cli.bench;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.Styler;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Draws a {@link FigureData} with XChart into a PNG, headless (no display needed). */
final class Plots {
    static final int WIDTH = 900;
    static final int HEIGHT = 540;

    private Plots() {
    }

    static void writePng(FigureData data, Path file) {
        System.setProperty("java.awt.headless", "true"); // before the first AWT class loads
        Chart<?, ?> chart = data.kind() == FigureData.Kind.LINE ? lines(data) : bars(data);
        String base = file.toString();
        if (base.endsWith(".png")) {
            base = base.substring(0, base.length() - 4);
        }
        try {
            BitmapEncoder.saveBitmap(chart, base, BitmapEncoder.BitmapFormat.PNG);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    private static XYChart lines(FigureData data) {
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(data.title())
            .xAxisTitle(data.xLabel()).yAxisTitle(data.yLabel()).build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS).setLegendLayout(Styler.LegendLayout.Horizontal);
        boolean logX = data.isLogX() && labelledDecades(data, true);
        boolean logY = data.isLogY() && labelledDecades(data, false);
        chart.getStyler().setXAxisLogarithmic(logX).setYAxisLogarithmic(logY);
        for (FigureData.Series s : data.series()) {
            List<Double> x = new ArrayList<>();
            List<Double> y = new ArrayList<>();
            for (int i = 0; i < s.x().size(); i++) {
                double xi = ((Number) s.x().get(i)).doubleValue();
                double yi = s.y().get(i);
                // a log axis cannot show 0; a missing value is no point
                if (Double.isFinite(yi) && (!logX || xi > 0) && (!logY || yi > 0)) {
                    x.add(xi);
                    y.add(yi);
                }
            }
            if (!x.isEmpty()) {
                chart.addSeries(s.name(), x, y);
            }
        }
        return chart;
    }

    /**
     * Whether the positive x (or y) values span at least two powers of ten: XChart labels a logarithmic axis at powers
     * of ten only, so a narrower range would show no value at all (a linear axis then).
     */
    private static boolean labelledDecades(FigureData data, boolean x) {
        double min = Double.POSITIVE_INFINITY;
        double max = 0;
        for (FigureData.Series s : data.series()) {
            for (int i = 0; i < s.y().size(); i++) {
                double v = x ? ((Number) s.x().get(i)).doubleValue() : s.y().get(i);
                if (Double.isFinite(v) && v > 0) {
                    min = Math.min(min, v);
                    max = Math.max(max, v);
                }
            }
        }
        return max > 0 && Math.floor(Math.log10(max)) - Math.ceil(Math.log10(min)) >= 1;
    }

    private static CategoryChart bars(FigureData data) {
        CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(HEIGHT).title(data.title())
            .xAxisTitle(data.xLabel()).yAxisTitle(data.yLabel()).build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS).setLegendLayout(Styler.LegendLayout.Horizontal);
        chart.getStyler().setStacked(data.kind() == FigureData.Kind.STACKED);
        chart.getStyler().setXAxisLabelRotation(20);
        for (FigureData.Series s : data.series()) {
            List<String> x = new ArrayList<>();
            List<Double> y = new ArrayList<>();
            for (int i = 0; i < s.x().size(); i++) {
                double yi = s.y().get(i);
                x.add(String.valueOf(s.x().get(i)));
                y.add(Double.isFinite(yi) ? yi : 0); // a missing value draws as nothing
            }
            chart.addSeries(s.name(), x, y);
        }
        return chart;
    }
}
