package org.ubft.cli;

import org.ubft.apps.orderbook.OrderFlow;
import picocli.CommandLine;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

import java.util.List;
import java.util.Locale;

/** The order-book workload's options ({@code --app orderbook}): {@code @Mixin OrderFlowOptions flow;}. */
public final class OrderFlowOptions {
    static final String NAMES = "--buy-share, --mid-price, --price-band and --order-types";
    private static final List<String> TYPES = List.of("limit", "market", "stop", "aon", "ioc", "fok");

    @Option(names = "--buy-share", defaultValue = "0.5", paramLabel = "SHARE",
            description = "orderbook: share of new orders that buy, 0..1 (default: ${DEFAULT-VALUE}).")
    private double buyShare;

    @Option(names = "--mid-price", defaultValue = "10000", paramLabel = "TICKS",
            description = "orderbook: centre of the limit and stop prices (default: ${DEFAULT-VALUE}).")
    private long midPrice;

    @Option(names = "--price-band", defaultValue = "20", paramLabel = "TICKS",
            description = "orderbook: prices are drawn from mid-price ± band (default: ${DEFAULT-VALUE}).")
    private long priceBand;

    @Option(names = "--order-types", defaultValue = "limit,market,stop,aon,ioc,fok", split = ",",
            paramLabel = "TYPE[,TYPE...]",
            description = "orderbook: the kinds of new orders: limit always, plus any of market (5%% of new orders),"
                + " stop (5%%), aon (5%%), ioc (5%%), fok (2%%) (default: ${DEFAULT-VALUE}). 25%% of requests cancel"
                + " and 10%% replace a recent order, 1%% set the market price.")
    private List<String> orderTypes;

    /** Whether any of these options was given on the command line. */
    static boolean given(CommandLine cmd) {
        CommandLine.ParseResult r = cmd.getParseResult();
        return r.hasMatchedOption("--buy-share") || r.hasMatchedOption("--mid-price")
            || r.hasMatchedOption("--price-band") || r.hasMatchedOption("--order-types");
    }

    /** The generator's options; exit 2 with the option's name if a value is out of range. */
    OrderFlow.Options toOptions(CommandLine cmd) {
        for (String t : orderTypes) {
            if (!TYPES.contains(t.toLowerCase(Locale.ROOT))) {
                throw new ParameterException(cmd, "--order-types takes " + String.join(", ", TYPES) + "; got '" + t + "'");
            }
        }
        if (!(buyShare >= 0 && buyShare <= 1)) {
            throw new ParameterException(cmd, "--buy-share must be in 0..1, got " + buyShare);
        }
        if (priceBand < 0 || midPrice - priceBand < 1) {
            throw new ParameterException(cmd, "--mid-price minus --price-band must be at least 1 tick (and the band"
                + " not negative), got " + midPrice + " ± " + priceBand);
        }
        OrderFlow.Options d = OrderFlow.Options.defaults();
        try {
            return d.withBuy(buyShare).withPrices(midPrice, priceBand).withTypes(share("market", d.market()),
                share("stop", d.stop()), share("aon", d.allOrNone()), share("ioc", d.immediateOrCancel()),
                share("fok", d.fillOrKill()));
        } catch (IllegalArgumentException e) {
            throw new ParameterException(cmd, "--mid-price/--price-band: " + e.getMessage());
        }
    }

    private double share(String type, double share) {
        return orderTypes.stream().anyMatch(t -> t.equalsIgnoreCase(type)) ? share : 0;
    }
}
