package org.ubft.common.config;

import java.net.InetSocketAddress;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * A network endpoint of a cluster file, {@code host:port}. The host is a DNS name, an IPv4 address or a
 * bracketed IPv6 address ({@code [::1]:17100}); it is not resolved when the file is loaded.
 */
public record Endpoint(String host, int port) {
    private static final Pattern HOST_NAME =
            Pattern.compile("[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*");
    private static final Pattern IPV4 = Pattern.compile("[0-9]+\\.[0-9]+\\.[0-9]+\\.[0-9]+");
    private static final Pattern IPV6 = Pattern.compile("[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*");

    /** What {@link #parse} accepts, phrased to follow "expected". */
    public static final String EXPECTED = "host:port with a port from 1 to 65535, like 127.0.0.1:17100";

    /** The endpoint written {@code text}, or {@code null} if it is not {@code host:port}. */
    public static Endpoint parse(String text) {
        int colon = text.lastIndexOf(':');
        if (colon <= 0 || colon == text.length() - 1) {
            return null;
        }
        String host = text.substring(0, colon);
        String portText = text.substring(colon + 1);
        if (portText.length() > 5 || !portText.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return null;
        }
        int port = Integer.parseInt(portText);
        if (port < 1 || port > 65535) {
            return null;
        }
        if (host.startsWith("[") && host.endsWith("]")) {
            String literal = host.substring(1, host.length() - 1);
            return IPV6.matcher(literal).matches() ? new Endpoint(literal, port) : null;
        }
        if (!HOST_NAME.matcher(host).matches() || (IPV4.matcher(host).matches() && !validIpv4(host))) {
            return null;
        }
        return new Endpoint(host, port);
    }

    private static boolean validIpv4(String host) {
        for (String octet : host.split("\\.")) {
            if (octet.length() > 3 || Integer.parseInt(octet) > 255) {
                return false;
            }
        }
        return true;
    }

    /** The socket address; resolves the host name if it is not a literal address. */
    public InetSocketAddress toSocketAddress() {
        return new InetSocketAddress(host, port);
    }

    /** Whether this and {@code other} are written the same way, ignoring the case of host names. */
    boolean sameAs(Endpoint other) {
        return port == other.port && host.toLowerCase(Locale.ROOT).equals(other.host.toLowerCase(Locale.ROOT));
    }

    @Override
    public String toString() {
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
    }
}
